"""What the SDK tests (tests/contract/test_sdk_*.py) share: a plan #1 with a row in every list
(a project and an adopted version too), the User-Agents the live server saw, and a control
server the Node tests call to expire the walks or to set the key's throttle, since the walks'
clock and the throttle's rates are this process's."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlparse

from django.conf import settings
from django.core.signals import request_started

from planning.models import Plan
from planning.records.adoption import plan_adopt
from planning.suggestions import walk
from tests.factories import ProjectFactory


def every_list_filled() -> str:
    """Plan #1 gets a project and an adopted version; returns the version's id."""
    plan = Plan.objects.get(number=1)
    ProjectFactory.create(plan=plan, name="Roof 2030")
    return str(plan_adopt(plan=plan, name="Adopted by the board").pk)


def key_throttle_set(rate: str) -> None:
    """The per-key rate (e.g. "2/s") from now on, in this process (the live server's)."""
    settings.MAINTPLAN_THROTTLE_RATES = {**settings.MAINTPLAN_THROTTLE_RATES, "api_key": rate}


def walks_expire() -> None:
    """Every open walk expires: the walks' clock in this process (the live server's) moves on
    past a walk's lifetime, so every cursor issued before answers 410 (the contract conftest
    puts the clock back after each test)."""
    before = walk._seconds
    walk._seconds = lambda: before() + walk.WALK_SECONDS + 1


@dataclass
class UserAgents:
    seen: list[str] = field(default_factory=list)

    def record(self, sender: Any, environ: dict[str, Any] | None = None, **kwargs: Any) -> None:
        if environ is not None and environ.get("PATH_INFO", "").startswith("/api/v1/"):
            self.seen.append(str(environ.get("HTTP_USER_AGENT", "")))


def user_agents() -> Iterator[UserAgents]:
    """The User-Agent of every API request the live server answers while the fixture lives."""
    agents = UserAgents()
    request_started.connect(agents.record, weak=False)
    try:
        yield agents
    finally:
        request_started.disconnect(agents.record)


class _Control(BaseHTTPRequestHandler):
    def do_POST(self) -> None:
        url = urlparse(self.path)
        if url.path == "/expire":
            walks_expire()
        elif url.path == "/throttle":
            key_throttle_set(parse_qs(url.query)["rate"][0])
        else:
            self.send_response(404)
            self.end_headers()
            return
        self.send_response(204)
        self.end_headers()

    def log_message(self, format: str, *args: Any) -> None:
        pass


def control_server() -> Iterator[str]:
    """A loopback server: POST /expire expires the walks, POST /throttle?rate=2/s sets the
    key's rate; yields its URL."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Control)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()

"""A real HTTP receiver on loopback, and the job worker run in-process."""

from __future__ import annotations

import json
import select
import socket
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.backends.signals import connection_created
from django.utils import timezone
from django_tasks_db.models import DBTaskResult


@dataclass
class Received:
    headers: dict[str, str]
    body: bytes

    @property
    def event(self) -> dict[str, Any]:
        parsed: dict[str, Any] = json.loads(self.body)
        return parsed


@dataclass
class Receiver:
    """Records every POST; answers with the next of `statuses` (200 once they run out)."""

    url: str
    statuses: list[int] = field(default_factory=list)
    received: list[Received] = field(default_factory=list)

    def events(self, event_type: str = "suggestions.changed") -> list[dict[str, Any]]:
        return [r.event for r in self.received if r.event["type"] == event_type]

    def changes(self) -> list[tuple[str, dict[str, Any]]]:
        return [
            (change["change"], change["suggestion"])
            for event in self.events()
            for change in event["data"]["changes"]
        ]


@contextmanager
def receiver_serving() -> Iterator[Receiver]:
    """A `Receiver` listening on loopback while the block runs."""
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            with lock:
                state.received.append(Received(dict(self.headers.items()), body))
                status = state.statuses.pop(0) if state.statuses else 200
            self.send_response(status)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    state = Receiver(url=f"http://127.0.0.1:{server.server_port}/hooks")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield state
    server.shutdown()
    server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    with receiver_serving() as state:
        yield state


@dataclass
class DripReceiver:
    """Accepts connections and answers each, after reading its request, one byte of a status
    line every `every` seconds, never finishing within a delivery's deadline; notes when each
    sender hung up (`hung_up`, time.monotonic())."""

    url: str
    every: float
    connections: int = 0
    hung_up: list[float] = field(default_factory=list)
    stopped: threading.Event = field(default_factory=threading.Event)

    def stop(self) -> None:
        """Stops dripping: every open answer ends (the connection closes) at once."""
        self.stopped.set()


@pytest.fixture
def drip_receiver() -> Iterator[DripReceiver]:
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.2)
    state = DripReceiver(url=f"http://127.0.0.1:{listener.getsockname()[1]}/hooks", every=2.0)
    stopped = state.stopped

    def hung_up_within(conn: socket.socket, seconds: float) -> bool:
        """Waits `seconds` (less if stopped) watching for the sender to close."""
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0 and not stopped.is_set():
            readable, _, _ = select.select([conn], [], [], min(left, 0.05))
            if readable and not conn.recv(65536):
                state.hung_up.append(time.monotonic())
                return True
        return stopped.is_set()

    def drip(conn: socket.socket) -> None:
        with conn:
            conn.recv(65536)
            for byte in b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok" * 10:
                if hung_up_within(conn, state.every):
                    return
                try:
                    conn.sendall(bytes([byte]))
                except OSError:
                    return

    def serve() -> None:
        while not stopped.is_set():
            try:
                conn, _address = listener.accept()
            except TimeoutError:
                continue
            state.connections += 1
            threading.Thread(target=drip, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield state
    stopped.set()
    thread.join()
    listener.close()


@pytest.fixture
def private_targets(settings: Any) -> None:
    """Development/test mode: http and loopback receivers are allowed."""
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True


def run_worker() -> None:
    """Runs every job that is due now, of both queues, in this thread, as `manage.py db_worker`
    and `manage.py deliver_webhooks` would, then returns."""
    call_command(
        "db_worker", "--batch", "--no-startup-delay", "--queue-name=default,webhooks", verbosity=0
    )


def run_retries_now() -> None:
    """Makes the queued retries due now (instead of in a minute or hours) and runs them."""
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())
    run_worker()


@pytest.fixture
def reads_take_no_lock() -> Iterator[None]:
    """The test database is SQLite's in-memory one in shared-cache mode, where a read meeting
    another connection's write fails at once ("database table is locked") instead of waiting,
    as it would on a database file (`make run`) or PostgreSQL: every connection of this test,
    in every thread, reads uncommitted rows, so a read holds no lock a write could meet."""

    def uncommitted(connection: Any, **kwargs: Any) -> None:
        if connection.vendor == "sqlite":
            connection.cursor().execute("PRAGMA read_uncommitted = 1")

    connection_created.connect(uncommitted)
    connection.ensure_connection()
    uncommitted(connection)
    yield
    connection_created.disconnect(uncommitted)
    if connection.vendor == "sqlite":
        connection.cursor().execute("PRAGMA read_uncommitted = 0")

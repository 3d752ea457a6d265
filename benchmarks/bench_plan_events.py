"""Benchmark: plan data events of action changes made by the API, and `updated_since`.

    .venv/bin/python benchmarks/bench_plan_events.py [--changes 10000] [--actions 100000]

(`--actions 0` skips part 2.)

Runs against a fresh SQLite database in a temporary data folder (MAINTPLAN_DATA_DIR), with
WEBHOOK_ALLOW_PRIVATE_TARGETS on so the receiver can listen on loopback:

1. events: a plan with one node and `--changes` actions changes each action once through
   `PATCH /api/v1/platform/plans/{n}/actions/{id}` (the whole API stack in this process: key,
   throttle off, idempotency, service, history trigger, outbox); then `manage.py
   deliver_webhooks --batch` delivers to a receiver in this process. Reported: the time of the
   changes, until the last event is listed by `GET /platform/events`, until the last is
   delivered, the deliveries a second while they came, and whether they came in the order the
   events were listed. The receiver keeps connections alive (HTTP/1.1), as receivers do.
2. `updated_since`: a plan with `--actions` actions; `GET .../actions?updated_since=<future>`
   (an empty answer) 200 times; p50 and p99.
"""

from __future__ import annotations

import argparse
import datetime
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _environment(data_dir: str) -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        MAINTPLAN_DATA_DIR=data_dir,
        DATABASE_URL=f"sqlite:///{data_dir}/bench.sqlite3",
        WEBHOOK_ALLOW_PRIVATE_TARGETS="true",
        API_KEY_THROTTLE_RATE="1000000/minute",
        API_USER_THROTTLE_RATE="1000000/minute",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def _receiver(received: list[dict[str, Any]]) -> ThreadingHTTPServer:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            with lock:
                received.append({"event": json.loads(body), "at": time.monotonic()})
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--changes", type=int, default=10_000)
    parser.add_argument("--actions", type=int, default=100_000)
    args = parser.parse_args()
    data_dir = tempfile.mkdtemp(prefix="bench-plan-events-")
    env = _environment(data_dir)
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    from django.test import Client
    from django.utils import timezone

    from apikeys.services import api_access_set, api_key_create
    from planning.models import Action, PlanRole
    from tests.factories import (
        PlanFactory,
        PlanMembershipFactory,
        StructureNodeFactory,
        UserFactory,
    )
    from webhooks.services import endpoint_create

    received: list[dict[str, Any]] = []
    server = _receiver(received)
    user = UserFactory.create()
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="bench", permission="read_write")
    auth = {"Authorization": f"Bearer {raw}"}
    year = timezone.localdate().year + 1

    def plan_with(actions: int) -> Any:
        plan = PlanFactory.create(organisation__api_access_enabled=True)
        PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
        node = StructureNodeFactory.create(plan=plan)
        Action.objects.bulk_create(
            Action(plan=plan, node=node, title=f"A{i}", kind="repair", planned_year=year)
            for i in range(actions)
        )
        return plan

    # 1. events of API changes
    plan = plan_with(args.changes)
    endpoint_create(user=user, url=f"http://127.0.0.1:{server.server_port}/hooks", plans=[plan])
    client = Client()
    ids = list(Action.objects.filter(plan=plan).values_list("pk", flat=True))
    started = time.monotonic()
    for number, action_id in enumerate(ids):
        response = client.patch(
            f"/api/v1/platform/plans/{plan.number}/actions/{action_id}",
            {"estimated_cost": f"{number + 1}.00"},
            content_type="application/json",
            headers=auth,
        )
        assert response.status_code == 200, response.content
    changed = time.monotonic()
    # The dispatcher as the Procfile runs it (not --batch, which would end as soon as nothing
    # is due), started at the last change so that its backlog is every event; stopped
    # once every listed event arrived. Listing (below) and delivering go on side by side.
    dispatcher = subprocess.Popen(
        [sys.executable, "manage.py", "deliver_webhooks", "--threads", "8", "--interval", "0.05"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    last_listed: str | None = None
    cursor: dict[str, str] = {"plan": str(plan.number), "type": "actions.updated", "limit": "1000"}
    listed_ids: list[str] = []
    while True:
        page = client.get("/api/v1/platform/events", cursor, headers=auth).json()["data"]
        listed_ids += [event["id"] for event in page["events"]]
        if page["next_cursor"] is None:
            break
        cursor = {**cursor, "cursor": page["next_cursor"]}
    last_listed = listed_ids[-1] if listed_ids else None
    listed = time.monotonic()
    deadline = time.monotonic() + 600
    while (
        listed_ids[-1] not in {r["event"]["id"] for r in received} and time.monotonic() < deadline
    ):
        time.sleep(0.2)
    dispatcher.terminate()
    dispatcher.wait()
    delivered_ids = [r["event"]["id"] for r in received if r["event"]["type"] == "actions.updated"]
    delivered = received[-1]["at"] if received else float("nan")
    spread = received[-1]["at"] - received[0]["at"] if len(received) > 1 else float("nan")
    print(f"events: {args.changes} action changes by PATCH in {changed - started:.1f} s")
    print(
        f"  listed: {len(listed_ids)} events, the last ({last_listed}) "
        f"{listed - started:.1f} s after the first change ({listed - changed:.1f} s after the "
        f"last change)"
    )
    print(
        f"  delivered: {len(delivered_ids)} events, the last {delivered - started:.1f} s after "
        f"the first change ({delivered - changed:.1f} s after the last change); in the listed "
        f"order: {delivered_ids == listed_ids}"
    )
    print(f"  {len(received) / spread:.0f} deliveries a second from the first to the last")
    server.shutdown()
    if not args.actions:
        return

    # 2. updated_since on a big plan
    big = plan_with(args.actions)
    future = (timezone.now() + datetime.timedelta(days=1)).isoformat()
    timings = []
    for _ in range(200):
        began = time.perf_counter()
        response = client.get(
            f"/api/v1/platform/plans/{big.number}/actions",
            {"updated_since": future},
            headers=auth,
        )
        timings.append((time.perf_counter() - began) * 1000)
        assert response.status_code == 200 and response.json()["data"]["actions"] == []
    timings.sort()
    print(
        f"updated_since at {args.actions} actions, empty answer: "
        f"p50 {statistics.median(timings):.1f} ms, p99 {timings[int(len(timings) * 0.99)]:.1f} ms"
    )


if __name__ == "__main__":
    main()

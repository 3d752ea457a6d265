"""Benchmark: webhook delivery by one job worker to a receiver on loopback.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_webhooks.py

Migrates the database of DATABASE_URL, creates a user with a password, a generated plan
(2,000 nodes / 10,000 actions by default) synced once, and a webhook endpoint (`add_webhook`)
pointing at a receiver in this process (a ThreadingHTTPServer on loopback answering 200). Then:

- throughput: N test events are queued while no worker runs; one `manage.py db_worker`
  (production settings) is started and the events per second between the first and the last
  arrival are reported (the worker's start-up is excluded);
- web change -> event, Dismiss: gunicorn serves the web app; a logged-in client dismisses K
  suggestions one after the other through the web form, each time waiting for its
  `dismissed` change to arrive; the time from sending the POST to the arrival (p50/p99);
- web change -> event, a data change: the client adds an uncoded component through the web
  form; the background sync runs SYNC_AFTER_CHANGE_SECONDS later (5 by default) and its
  `opened` change arrives; the time from the POST to the arrival (p50/p99).

Each change waits a random 0..2 x interval first, so it does not fall in step with the
worker's polling.

The worker polls the queue every `--interval` seconds when idle (1, as the Procfile runs it).
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import requests

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    ROOT,
    free_port,
    manage,
    percentile,
    server_environment,
    start_gunicorn,
)

PASSWORD = "bench-password-0123456789"


class Arrivals:
    """Every POST the receiver got: (arrival time, parsed event)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.condition = threading.Condition(self.lock)
        self.events: list[tuple[float, dict[str, Any]]] = []

    def add(self, event: dict[str, Any]) -> None:
        with self.condition:
            self.events.append((time.perf_counter(), event))
            self.condition.notify_all()

    def wait_for(self, predicate: Any, timeout: float = 60) -> float:
        """The arrival time of the first event (from now on) for which `predicate` holds."""
        deadline = time.monotonic() + timeout
        with self.condition:
            seen = 0
            while True:
                for arrived, event in self.events[seen:]:
                    if predicate(event):
                        return arrived
                seen = len(self.events)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise SystemExit("an expected event did not arrive within the timeout")
                self.condition.wait(remaining)


def start_receiver(arrivals: Arrivals) -> ThreadingHTTPServer:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_POST(self) -> None:
            body = self.rfile.read(int(self.headers["Content-Length"]))
            self.send_response(200)
            self.send_header("Content-Length", "0")
            self.end_headers()
            arrivals.add(json.loads(body))

        def log_message(self, format: str, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def shell(env: dict[str, str], script: str) -> str:
    return manage(env, "shell", "-v", "0", "-c", script)


def login(base: str, email: str) -> requests.Session:
    session = requests.Session()
    page = session.get(f"{base}/accounts/login/")
    if "csrftoken" not in session.cookies:
        raise SystemExit(f"no CSRF cookie: {page.status_code} {page.headers} {page.text[:500]}")
    response = session.post(
        f"{base}/accounts/login/",
        data={
            "email": email,
            "password": PASSWORD,
            "csrfmiddlewaretoken": session.cookies["csrftoken"],
        },
    )
    response.raise_for_status()
    if "sessionid" not in session.cookies:
        raise SystemExit("login failed")
    return session


def summary(label: str, values: list[float]) -> str:
    return (
        f"{label}: n={len(values)} p50={percentile(values, 0.5) * 1000:.0f} ms "
        f"p99={percentile(values, 0.99) * 1000:.0f} ms max={max(values) * 1000:.0f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=2000, help="test events for throughput")
    parser.add_argument("--dismissals", type=int, default=100)
    parser.add_argument("--additions", type=int, default=10)
    parser.add_argument("--interval", type=float, default=1.0, help="worker poll interval (s)")
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=10000)
    args = parser.parse_args()

    env = server_environment()
    env["WEBHOOK_ALLOW_PRIVATE_TARGETS"] = "true"
    env["LOG_LEVEL"] = "WARNING"
    sync_delay = int(env.get("SYNC_AFTER_CHANGE_SECONDS", "5"))
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")  # the pages' manifest (debug off)
    email = f"bench-{time.time_ns()}@example.com"
    shell(
        env,
        "from accounts.models import User\n"
        f"User.objects.create_user(email={email!r}, password={PASSWORD!r}, name='Bench')\n",
    )
    manage(env, "generate_plan", "--nodes", str(args.nodes), "--actions", str(args.actions),
           "--owner", email)  # fmt: skip
    plan_number = int(
        shell(
            env,
            "from planning.models import Plan\n"
            "from planning.suggestions.sync.run import suggestion_sync\n"
            f"plan = Plan.objects.filter(memberships__user__email={email!r}).get()\n"
            "suggestion_sync(plan=plan)\n"
            "print(plan.number)\n",
        ).strip()
    )

    arrivals = Arrivals()
    receiver = start_receiver(arrivals)
    manage(env, "add_webhook", email, f"http://127.0.0.1:{receiver.server_port}/hooks")
    tmp = Path(tempfile.mkdtemp(prefix="bench-webhooks-"))
    # One worker serving both queues, the jobs one at a time (as before the delivery
    # dispatcher, `manage.py deliver_webhooks`, which production runs beside db_worker).
    worker_command = [
        sys.executable, "manage.py", "db_worker", "--no-startup-delay", "--no-reload",
        "--interval", str(args.interval), "--queue-name", "default,webhooks",
    ]  # fmt: skip

    # 1. Throughput: queue N test events, then start one worker.
    shell(
        env,
        "from django.db import transaction\n"
        "from webhooks.events import endpoint_test_event_send\n"
        "from webhooks.models import WebhookEndpoint\n"
        "endpoint = WebhookEndpoint.objects.get()\n"
        "with transaction.atomic():\n"
        f"    for _ in range({args.events}):\n"
        "        endpoint_test_event_send(endpoint=endpoint)\n",
    )
    with (tmp / "worker.log").open("wb") as log:
        worker = subprocess.Popen(worker_command, cwd=ROOT, env=env, stdout=log, stderr=log)
    try:
        deadline = time.monotonic() + 600
        while len(arrivals.events) < args.events and time.monotonic() < deadline:
            time.sleep(0.05)
        times = [arrived for arrived, _event in arrivals.events]
        if len(times) < args.events:
            raise SystemExit(f"only {len(times)} of {args.events} events arrived; see {tmp}")
        rate = (len(times) - 1) / (times[-1] - times[0])
        print(f"throughput: {args.events} events delivered by one worker at {rate:.0f} events/s")

        # 2. Web change -> event.
        port = free_port()
        server = start_gunicorn(env, port, tmp / "gunicorn.log", "--workers", "2")
        try:
            base = f"http://127.0.0.1:{port}"
            session = login(base, email)
            suggestion_ids = shell(
                env,
                "from planning.models import Suggestion\n"
                f"ids = Suggestion.objects.filter(plan__number={plan_number}, status='open')"
                f".values_list('pk', flat=True)[:{args.dismissals}]\n"
                "print(' '.join(str(i) for i in ids))\n",
            ).split()
            csrf = session.cookies["csrftoken"]
            dismiss: list[float] = []
            for suggestion_id in suggestion_ids:
                # A random pause, so the changes do not fall in step with the worker's polling.
                time.sleep(random.uniform(0, 2 * args.interval))
                sent = time.perf_counter()
                response = session.post(
                    f"{base}/plans/{plan_number}/planning/suggestions/{suggestion_id}/dismiss/",
                    data={"reason": "not_applicable", "csrfmiddlewaretoken": csrf},
                    allow_redirects=False,
                )
                if response.status_code != 302:
                    raise SystemExit(f"dismiss answered {response.status_code}")
                arrived = arrivals.wait_for(
                    lambda event, sid=suggestion_id: any(
                        c["change"] == "dismissed" and c["suggestion"]["id"] == sid
                        for c in event["data"].get("changes", [])
                    )
                )
                dismiss.append(arrived - sent)
            print(summary("Dismiss in the web app -> event arrived", dismiss))

            added: list[float] = []
            for n in range(args.additions):
                # Every change of the plan's data queues a sync of it a few seconds later (the
                # dismissals do not); let any earlier one run first, so this one is timed alone.
                time.sleep(sync_delay + 2 + random.uniform(0, 2 * args.interval))
                name = f"Bench pump {time.time_ns()} {n}"
                sent = time.perf_counter()
                response = session.post(
                    f"{base}/plans/{plan_number}/nodes/add/",
                    data={"root-name": name, "root-kind": "component", "csrfmiddlewaretoken": csrf},
                    allow_redirects=False,
                )
                if response.status_code != 302:
                    raise SystemExit(f"node add answered {response.status_code}")
                pattern = re.compile(re.escape(name))
                arrived = arrivals.wait_for(
                    lambda event, p=pattern: any(
                        c["change"] == "opened" and p.search(c["suggestion"]["title"])
                        for c in event["data"].get("changes", [])
                    )
                )
                added.append(arrived - sent)
            print(
                summary("Component added in the web app -> background sync -> event arrived", added)
            )
        finally:
            server.terminate()
            server.wait()
    finally:
        worker.terminate()
        worker.wait()
        receiver.shutdown()
    print(f"worker poll interval {args.interval} s; logs in {tmp}")


if __name__ == "__main__":
    main()

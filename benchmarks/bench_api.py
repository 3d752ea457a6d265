"""Benchmark: the platform API on a portfolio, under gunicorn on PostgreSQL.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_api.py [--plans 20]

Generates PLANS plans of 2,000 nodes / 10,000 actions (the issue's portfolio is 200 of them;
the default is smaller so a run takes minutes) and one of 20,000 / 100,000, starts gunicorn
(2 sync workers, production settings) and measures from loopback:

- polling: every plan's suggestions with `If-None-Match` of its ETag, round after round, while
  another thread changes one plan a second (`QuerySet.update()` of an action's cost): the 304s'
  p50/p99 and their throughput, against the session check's throughput (targets: 304 p50 <=
  10 ms, p99 <= 50 ms, 304 throughput >= 0.8 x session check);
- the plans list (p50, target <= 50 ms) and a page of 100 actions of the big plan (p50, target
  <= 50 ms).
"""

from __future__ import annotations

import argparse
import http.client
import os
import statistics
import sys
import tempfile
import threading
import time
from decimal import Decimal
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    free_port,
    manage,
    migrate_and_create_key,
    percentile,
    server_environment,
    start_gunicorn,
)


def _request(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes | None = None
) -> tuple[float, int, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    connection.request(method, path, body=body, headers={**headers, "Connection": "close"})
    response = connection.getresponse()
    response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    return elapsed, response.status, {k.lower(): v for k, v in response.getheaders()}


def _changer(env: dict[str, str], numbers: list[int], stop: threading.Event) -> None:
    """One plan's action a second, changed outside the API, until `stop`."""
    os.environ.update(env)
    import django

    django.setup()
    from planning.models import Action

    step = 0
    while not stop.is_set():
        number = numbers[step % len(numbers)]
        action = Action.objects.filter(plan__number=number).order_by("id").first()
        if action is not None:
            Action.objects.filter(pk=action.pk).update(estimated_cost=Decimal(1000 + step))
        step += 1
        stop.wait(1.0)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    options = parser.parse_args()
    env = server_environment()
    email, key = migrate_and_create_key(env)
    numbers = []
    started = time.perf_counter()
    for _ in range(options.plans):
        out = manage(
            env, "generate_plan", "--nodes", "2000", "--actions", "10000", "--owner", email
        )
        numbers.append(int(out.strip().splitlines()[-1]))
    out = manage(env, "generate_plan", "--nodes", "20000", "--actions", "100000", "--owner", email)
    big = int(out.strip().splitlines()[-1])
    print(
        f"generated {options.plans} plans of 2,000/10,000 and one of 20,000/100,000 "
        f"in {time.perf_counter() - started:.0f} s"
    )
    port = free_port()
    log = Path(tempfile.mkdtemp()) / "gunicorn.log"
    server = start_gunicorn(env, port, log, "--workers", "2")
    auth = {"Authorization": f"Bearer {key}"}
    try:
        # First list of every plan: its first sync, and the ETag to poll with.
        etags = {}
        for number in [*numbers, big]:
            _ms, status, headers = _request(
                port, "GET", f"/api/v1/platform/plans/{number}/suggestions?limit=100", auth
            )
            assert status == 200, status
            etags[number] = headers["etag"]

        stop = threading.Event()
        changer = threading.Thread(target=_changer, args=(env, numbers, stop), daemon=True)
        changer.start()
        polls: list[float] = []
        not_modified = 0
        poll_started = time.perf_counter()
        for _ in range(options.rounds):
            for number in numbers:
                path = f"/api/v1/platform/plans/{number}/suggestions?limit=100"
                ms, status, headers = _request(
                    port, "GET", path, {**auth, "If-None-Match": etags[number]}
                )
                if status == 304:
                    polls.append(ms)
                    not_modified += 1
                else:
                    etags[number] = headers.get("etag", etags[number])
        poll_seconds = time.perf_counter() - poll_started

        checks = []
        check_started = time.perf_counter()
        for _ in range(len(polls) or 50):
            ms, status, _ = _request(
                port,
                "POST",
                "/api/v1/auth/session/api-key",
                {**auth, "Content-Type": "application/json"},
                b"{}",
            )
            checks.append(ms)
        check_seconds = time.perf_counter() - check_started
        # The editor kept changing plans during the session checks too: both rates are
        # measured under the same load.
        stop.set()
        changer.join()

        plans_list = [_request(port, "GET", "/api/v1/platform/plans", auth)[0] for _ in range(30)]
        actions = [
            _request(port, "GET", f"/api/v1/platform/plans/{big}/actions?limit=100", auth)[0]
            for _ in range(30)
        ]
    finally:
        server.terminate()
        server.wait()

    print(
        f"304 polling: {not_modified} of {options.rounds * len(numbers)} answers were 304, "
        f"p50 {statistics.median(polls):.1f} ms, p99 {percentile(polls, 0.99):.1f} ms, "
        f"{not_modified / poll_seconds:.0f}/s (including the changed plans' 200s)"
    )
    print(
        f"session check: p50 {statistics.median(checks):.1f} ms, "
        f"{len(checks) / check_seconds:.0f}/s"
    )
    print(f"plans list ({options.plans + 1} plans): p50 {statistics.median(plans_list):.1f} ms")
    print(f"actions page of 100 (20,000/100,000): p50 {statistics.median(actions):.1f} ms")


if __name__ == "__main__":
    main()

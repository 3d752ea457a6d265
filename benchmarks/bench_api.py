"""Benchmark: the platform API on a portfolio, under gunicorn on PostgreSQL.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_api.py [--plans 20]

Generates PLANS plans of 2,000 nodes / 10,000 actions (the issue's portfolio is 200 of them;
the default is smaller so a run takes minutes) and one of 20,000 / 100,000, starts gunicorn
(2 sync workers, production settings) and measures from loopback:

- polling: every plan's suggestions with `If-None-Match` of its ETag, round after round, while
  another thread changes one plan a second (`QuerySet.update()` of an action's cost): the 304s'
  p50/p99 and their throughput (over the time the 304s took; the changed plans' 200s apart),
  against the session check's throughput, measured under the same editor (targets: 304 p50 <=
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
    parser.add_argument("--rounds", type=int, default=10)
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
        # Rounds alternate the two routes (a pass over every plan, then as many session
        # checks), so both meet the same machine: the editor, the database's autovacuum after
        # the generation, the workers' state.
        polls: list[float] = []
        changed: list[float] = []  # the 200s of plans the editor changed
        checks: list[float] = []
        poll_rates, poll_rates_with_200s, check_rates = [], [], []
        for _ in range(options.rounds):
            round_polls, round_changed = [], []
            poll_started = time.perf_counter()
            for number in numbers:
                path = f"/api/v1/platform/plans/{number}/suggestions?limit=100"
                ms, status, headers = _request(
                    port, "GET", path, {**auth, "If-None-Match": etags[number]}
                )
                if status == 304:
                    round_polls.append(ms)
                else:
                    round_changed.append(ms)
                    etags[number] = headers.get("etag", etags[number])
            poll_seconds = time.perf_counter() - poll_started
            # The 304s' throughput is over the time the 304s took (one at a time, client
            # included, as the session checks'); the changed plans' 200s (a sync and a page of
            # 100) are shown apart, and the rate with them in.
            poll_rates.append(len(round_polls) / (poll_seconds - sum(round_changed) / 1000))
            poll_rates_with_200s.append(len(round_polls) / poll_seconds)
            polls += round_polls
            changed += round_changed
            check_started = time.perf_counter()
            for _ in range(len(numbers)):
                ms, status, _ = _request(
                    port,
                    "POST",
                    "/api/v1/auth/session/api-key",
                    {**auth, "Content-Type": "application/json"},
                    b"{}",
                )
                checks.append(ms)
            check_rates.append(len(numbers) / (time.perf_counter() - check_started))
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

    rate_304, rate_check = statistics.median(poll_rates), statistics.median(check_rates)
    print(
        f"304 polling: {len(polls)} of {options.rounds * len(numbers)} answers were 304, "
        f"p50 {statistics.median(polls):.1f} ms, p99 {percentile(polls, 0.99):.1f} ms, "
        f"{rate_304:.0f}/s ({statistics.median(poll_rates_with_200s):.0f}/s with the changed "
        "plans' 200s in; medians of the rounds)"
    )
    if changed:
        print(
            f"  {len(changed)} changed plans answered 200 (a sync and a page of 100): "
            f"p50 {statistics.median(changed):.0f} ms, max {max(changed):.0f} ms"
        )
    print(
        f"session check: p50 {statistics.median(checks):.1f} ms, p99 "
        f"{percentile(checks, 0.99):.1f} ms, {rate_check:.0f}/s"
    )
    print(f"304 rate / session check rate: {rate_304 / rate_check:.2f} (target >= 0.8)")
    print(f"plans list ({options.plans + 1} plans): p50 {statistics.median(plans_list):.1f} ms")
    print(f"actions page of 100 (20,000/100,000): p50 {statistics.median(actions):.1f} ms")


if __name__ == "__main__":
    main()

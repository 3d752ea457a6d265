"""Benchmark: a conditional poll (304) of a plan's suggestions against the session check.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_poll.py [--plans 5]

A small portfolio (PLANS plans of 200 nodes / 1,000 actions: the 304 reads no suggestion, so
the plans' size does not matter to it; benchmarks/bench_api.py measures the issue's portfolio)
under gunicorn (2 sync workers, production settings) on PostgreSQL. Rounds alternate the two
routes, each request on its own connection from loopback, one at a time, as bench_api.py does:

- `GET /api/v1/platform/plans/{n}/suggestions?limit=100` with `If-None-Match` of its ETag
  (every plan in turn; each answer must be 304);
- `POST /api/v1/auth/session/api-key`.

It prints each route's requests/s, p50 and the gunicorn workers' CPU per request, and the
ratio of the 304 rate to the session check's (target >= 0.8).
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_session_check import server_cpu_seconds
from benchmarks.harness import (
    free_port,
    manage,
    migrate_and_create_key,
    server_environment,
    start_gunicorn,
)

SESSION_PATH = "/api/v1/auth/session/api-key"


def _request(
    port: int, method: str, path: str, headers: dict[str, str], body: bytes | None = None
) -> tuple[float, int, dict[str, str]]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
    started = time.perf_counter()
    connection.request(method, path, body=body, headers={**headers, "Connection": "close"})
    response = connection.getresponse()
    response.read()
    elapsed = (time.perf_counter() - started) * 1000
    connection.close()
    return elapsed, response.status, {k.lower(): v for k, v in response.getheaders()}


def _run(
    port: int,
    server_pid: int,
    requests: list[tuple[str, str, dict[str, str], bytes | None]],
    expected: int,
) -> tuple[float, float, float]:
    """requests/s, p50 ms and server CPU ms per request of `requests`, sent one at a time."""
    times = []
    cpu_before = server_cpu_seconds(server_pid)
    started = time.perf_counter()
    for method, path, headers, body in requests:
        ms, status, _ = _request(port, method, path, headers, body)
        if status != expected:
            raise SystemExit(f"{method} {path} answered {status}, not {expected}")
        times.append(ms)
    seconds = time.perf_counter() - started
    cpu = server_cpu_seconds(server_pid) - cpu_before
    return len(times) / seconds, statistics.median(times), cpu * 1000 / len(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--requests", type=int, default=300, help="per route and round")
    options = parser.parse_args()
    env = server_environment()
    email, key = migrate_and_create_key(env)
    numbers = []
    for _ in range(options.plans):
        out = manage(env, "generate_plan", "--nodes", "200", "--actions", "1000", "--owner", email)
        numbers.append(int(out.strip().splitlines()[-1]))
    port = free_port()
    log = Path(tempfile.mkdtemp()) / "gunicorn.log"
    server = start_gunicorn(env, port, log, "--workers", "2")
    auth = {"Authorization": f"Bearer {key}"}
    polls: list[tuple[float, float, float]] = []
    checks: list[tuple[float, float, float]] = []
    try:
        etags = {}
        for number in numbers:
            path = f"/api/v1/platform/plans/{number}/suggestions?limit=100"
            _ms, status, headers = _request(port, "GET", path, auth)
            assert status == 200, status
            etags[number] = headers["etag"]
        poll_requests = [
            (
                "GET",
                f"/api/v1/platform/plans/{number}/suggestions?limit=100",
                {**auth, "If-None-Match": etags[number]},
                None,
            )
            for number in numbers
        ]
        check = ("POST", SESSION_PATH, {**auth, "Content-Type": "application/json"}, b"{}")
        polls_of_round = (poll_requests * options.requests)[: options.requests]
        # Warm both routes in both workers.
        _run(port, server.pid, polls_of_round[:50], 304)
        _run(port, server.pid, [check] * 50, 200)
        for _ in range(options.rounds):
            polls.append(_run(port, server.pid, polls_of_round, 304))
            checks.append(_run(port, server.pid, [check] * options.requests, 200))
    finally:
        server.terminate()
        server.wait()

    def line(name: str, runs: list[tuple[float, float, float]]) -> None:
        rate, p50, cpu = (statistics.median(r[i] for r in runs) for i in range(3))
        print(f"{name:<14} {rate:7.0f}/s  p50 {p50:5.2f} ms  server CPU {cpu:5.2f} ms/request")

    print(
        f"{options.plans} plans, {options.rounds} rounds x {options.requests} requests per "
        "route, one at a time, a new connection each"
    )
    line("304 poll", polls)
    line("session check", checks)
    ratios = [p[0] / c[0] for p, c in zip(polls, checks, strict=True)]
    print(f"304 rate / session check rate: {statistics.median(ratios):.2f} (target >= 0.8)")
    print(
        "by server CPU per request: "
        f"{statistics.median(c[2] for c in checks) / statistics.median(p[2] for p in polls):.2f}"
    )


if __name__ == "__main__":
    main()

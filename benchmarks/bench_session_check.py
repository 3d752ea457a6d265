"""Benchmark: the API-key session check against a bare Django view doing one indexed query.

Run it against a throwaway PostgreSQL cluster on loopback:

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_session_check.py

It migrates the database named by DATABASE_URL, creates a user with API access and a key,
starts gunicorn (production settings: DEBUG off, persistent database connections) on a free
loopback port, and drives both routes with the same load, alternating them over several
rounds:

- ``POST /api/v1/auth/session/api-key`` (the product: DRF, Bearer authentication, per-key
  throttle, envelope, request log line);
- ``POST /bench/bare`` (benchmarks.bare_views: hash the token, one indexed query for key and
  owner, a JsonResponse; same middleware, same log line).

Load comes from ``wrk`` when it is installed, else from a bounded Python client (threads, one
keep-alive ``http.client`` connection each). It prints requests/s and p50/p99 latency per route
and the ratio; the targets are >= 90% of the bare view's throughput and p99 <= 50 ms.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    free_port,
    migrate_and_create_key,
    percentile,
    server_environment,
    start_gunicorn,
)

SESSION_PATH = "/api/v1/auth/session/api-key"
BARE_PATH = "/bench/bare"


@dataclass
class Result:
    route: str
    requests_per_second: float
    p50_ms: float
    p99_ms: float
    errors: int
    requests: int
    server_cpu_ms_per_request: float = 0.0


def check_route(port: int, path: str, raw_key: str) -> None:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request("POST", path, body=b"{}", headers=request_headers(raw_key))
    response = connection.getresponse()
    body = response.read()
    connection.close()
    if response.status != 200:
        raise SystemExit(f"{path} answered {response.status}: {body[:500]!r}")


def request_headers(raw_key: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {raw_key}", "Content-Type": "application/json"}


def load_python(
    port: int, path: str, raw_key: str, connections: int, seconds: float
) -> tuple[float, list[float], int]:
    """Bounded closed-loop load: `connections` threads, each one keep-alive connection."""
    latencies: list[list[float]] = [[] for _ in range(connections)]
    errors = [0] * connections
    stop_at = time.perf_counter() + seconds
    headers = request_headers(raw_key)

    def worker(slot: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        while (started := time.perf_counter()) < stop_at:
            try:
                connection.request("POST", path, body=b"{}", headers=headers)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    errors[slot] += 1
            except (OSError, http.client.HTTPException):
                errors[slot] += 1
                connection.close()
                continue
            latencies[slot].append(time.perf_counter() - started)
        connection.close()

    threads = [threading.Thread(target=worker, args=(slot,)) for slot in range(connections)]
    began = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    merged = [value for values in latencies for value in values]
    return len(merged) / elapsed, merged, sum(errors)


_WRK_SCRIPT = """
wrk.method = "POST"
wrk.body = "{}"
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer %s"
done = function(summary, latency, requests)
  io.write(string.format("RESULT %%f %%f %%f %%d %%d\\n",
    summary.requests / (summary.duration / 1e6),
    latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status + summary.errors.connect + summary.errors.read
      + summary.errors.write + summary.errors.timeout,
    summary.requests))
end
"""


def load_wrk(
    wrk: str, port: int, path: str, raw_key: str, connections: int, seconds: float, script: Path
) -> Result:
    script.write_text(_WRK_SCRIPT % raw_key)
    output = subprocess.run(
        [
            wrk,
            "-t",
            "1",
            "-c",
            str(connections),
            "-d",
            f"{max(1, round(seconds))}s",
            "-s",
            str(script),
            f"http://127.0.0.1:{port}{path}",
        ],
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    match = re.search(r"^RESULT (\S+) (\S+) (\S+) (\d+) (\d+)$", output, re.MULTILINE)
    if match is None:
        raise SystemExit(f"could not read wrk's output:\n{output}")
    rps, p50, p99, errors, total = match.groups()
    return Result(path, float(rps), float(p50), float(p99), int(errors), int(total))


def server_cpu_seconds(master_pid: int) -> float:
    """User + system CPU time of gunicorn's master and workers so far (Linux /proc)."""
    pids = [master_pid]
    for task in Path(f"/proc/{master_pid}/task").iterdir():
        pids += [int(pid) for pid in (task / "children").read_text().split()]
    ticks = 0
    for pid in pids:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def measure(
    args: argparse.Namespace, port: int, path: str, raw_key: str, tmp: Path, server_pid: int
) -> Result:
    wrk = None if args.python_client else shutil.which("wrk")
    cpu_before = server_cpu_seconds(server_pid)
    if wrk:
        result = load_wrk(
            wrk, port, path, raw_key, args.connections, args.seconds, tmp / "post.lua"
        )
    else:
        rps, latencies, errors = load_python(port, path, raw_key, args.connections, args.seconds)
        latencies.sort()
        p50, p99 = percentile(latencies, 0.50) * 1000, percentile(latencies, 0.99) * 1000
        result = Result(path, rps, p50, p99, errors, len(latencies))
    cpu = server_cpu_seconds(server_pid) - cpu_before
    result.server_cpu_ms_per_request = cpu * 1000 / max(result.requests, 1)
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=5.0, help="duration of one run")
    parser.add_argument("--rounds", type=int, default=8, help="alternating runs per route")
    parser.add_argument("--connections", type=int, default=4, help="concurrent connections")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--worker-class", default="gthread", choices=["gthread", "sync"])
    parser.add_argument("--threads", type=int, default=2, help="threads per gthread worker")
    parser.add_argument(
        "--python-client", action="store_true", help="use the Python client even if wrk exists"
    )
    args = parser.parse_args()

    if not os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")):
        raise SystemExit(
            "DATABASE_URL must name a PostgreSQL database; run "
            "`scripts/with-postgres.sh .venv/bin/python benchmarks/bench_session_check.py`."
        )
    env = server_environment("benchmarks.bare_settings")
    _email, raw_key = migrate_and_create_key(env)
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="bench-session-") as tmp_name:
        tmp = Path(tmp_name)
        server = start_gunicorn(
            env,
            port,
            tmp / "gunicorn.log",
            *("--workers", str(args.workers), "--worker-class", args.worker_class),
            *("--threads", str(args.threads), "--keep-alive", "30"),
        )
        try:
            for path in (BARE_PATH, SESSION_PATH):
                check_route(port, path, raw_key)
            warmup = argparse.Namespace(**{**vars(args), "seconds": 2.0})
            for path in (BARE_PATH, SESSION_PATH):
                measure(warmup, port, path, raw_key, tmp, server.pid)
            results: dict[str, list[Result]] = {BARE_PATH: [], SESSION_PATH: []}
            for _round in range(args.rounds):
                for path in (BARE_PATH, SESSION_PATH):
                    results[path].append(measure(args, port, path, raw_key, tmp, server.pid))
        finally:
            server.terminate()
            server.wait(timeout=30)
    report(args, results)


def report(args: argparse.Namespace, results: dict[str, list[Result]]) -> None:
    client = "Python threads" if args.python_client or not shutil.which("wrk") else "wrk"
    print(
        f"gunicorn: {args.workers} {args.worker_class} workers"
        f"{f' x {args.threads} threads' if args.worker_class == 'gthread' else ''}; "
        f"load: {client}, {args.connections} connections, {args.rounds} rounds x "
        f"{args.seconds:g} s per route (alternating); CPUs: {os.cpu_count()}, load average "
        f"{' '.join(f'{value:.2f}' for value in os.getloadavg())}"
    )
    print(
        f"{'route':<30} {'round':>5} {'req/s':>7} {'p50 ms':>7} {'p99 ms':>7} {'errors':>6} "
        f"{'server CPU ms/req':>17}"
    )
    summary = {}
    for path, runs in results.items():
        for number, run in enumerate(runs, start=1):
            print(
                f"{path:<30} {number:>5} {run.requests_per_second:>7.0f} {run.p50_ms:>7.2f} "
                f"{run.p99_ms:>7.2f} {run.errors:>6} {run.server_cpu_ms_per_request:>17.3f}"
            )
        summary[path] = {
            "requests_per_second": round(statistics.median(r.requests_per_second for r in runs)),
            "p50_ms": round(statistics.median(r.p50_ms for r in runs), 2),
            "p99_ms": round(statistics.median(r.p99_ms for r in runs), 2),
            "worst_p99_ms": round(max(r.p99_ms for r in runs), 2),
            "server_cpu_ms_per_request": round(
                statistics.median(r.server_cpu_ms_per_request for r in runs), 3
            ),
            "errors": sum(r.errors for r in runs),
        }
    session, bare = summary[SESSION_PATH], summary[BARE_PATH]
    # Each round runs the bare view, then the session check: the ratio within a round is the
    # steadiest figure when other processes load the machine unevenly over time.
    throughput_ratio = statistics.median(
        s.requests_per_second / b.requests_per_second
        for b, s in zip(results[BARE_PATH], results[SESSION_PATH], strict=True)
    )
    cpu_ratio = bare["server_cpu_ms_per_request"] / session["server_cpu_ms_per_request"]
    print("medians over the rounds:")
    print(
        json.dumps(
            {
                "bare_view": bare,
                "session_check": session,
                # Median of the per-round ratios of measured throughput, and the ratio of the
                # server CPU cost per request (what throughput a CPU-bound server allows).
                "session_vs_bare_throughput": round(throughput_ratio, 3),
                "session_vs_bare_by_server_cpu": round(cpu_ratio, 3),
                "throughput_target_met": throughput_ratio >= 0.9,
                "p99_target_met": session["p99_ms"] <= 50,
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()

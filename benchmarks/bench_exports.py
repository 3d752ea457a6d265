"""Benchmark: the exports of a large plan under gunicorn, as a browser downloads them.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_exports.py

Migrates the database of DATABASE_URL, generates a plan (default 20,000 nodes / 100,000
actions, `manage.py generate_plan`), starts gunicorn (1 sync worker, production settings) and
downloads, `--requests` times each after one warm-up: the actions as CSV and XLSX, the budget
as XLSX, and the plan as an Excel workbook in the import format. Per download: the time to the
first byte and to the last (p50), the size, and the worker's peak RSS (VmHWM of the worker
process, read after the downloads of that kind).

Targets (issue 26): first byte (or a progress page) <= 1 s, the XLSX of 100,000 actions done
in <= 6 s, the worker <= 300 MB; issue 43: the actions XLSX's first byte <= 0.5 s.
"""

from __future__ import annotations

import argparse
import http.client
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.bench_pages import prepare
from benchmarks.harness import free_port, manage, percentile, server_environment, start_gunicorn


def download(port: int, path: str, session_key: str) -> tuple[float, float, int]:
    """Time to the first byte of the body, to the last, and the body's size."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Cookie": f"sessionid={session_key}"})
    response = connection.getresponse()
    if response.status != 200:
        raise SystemExit(f"{path} answered {response.status}")
    first = response.read1(65536)  # the first piece of the body
    first_byte = time.perf_counter() - started
    size = len(first) + len(response.read())
    elapsed = time.perf_counter() - started
    connection.close()
    return first_byte, elapsed, size


def worker_peak_mb(master_pid: int) -> float:
    """The highest VmHWM among the gunicorn master's children (its workers)."""
    peaks = []
    for status in Path("/proc").glob("[0-9]*/status"):
        try:
            fields = dict(
                line.split(":", 1) for line in status.read_text().splitlines() if ":" in line
            )
        except OSError:
            continue
        if fields.get("PPid", "").strip() == str(master_pid) and "VmHWM" in fields:
            peaks.append(int(fields["VmHWM"].split()[0]) / 1024)
    return max(peaks, default=float("nan"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--requests", type=int, default=3)
    arguments = parser.parse_args()
    env = server_environment()
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    session_key, number = prepare(env, arguments.nodes, arguments.actions, 0, [])
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"bench-exports-{port}.log"
    server = start_gunicorn(env, port, log, "--workers", "1", "--timeout", "300")
    downloads = {
        "actions CSV": f"/plans/{number}/export/actions.csv",
        "actions XLSX": f"/plans/{number}/export/actions.xlsx",
        "budget XLSX": f"/plans/{number}/export/budget.xlsx",
        "plan workbook": f"/plans/{number}/export/plan.xlsx",
    }
    rows = []
    try:
        for name, path in downloads.items():
            download(port, path, session_key)  # warm-up (the first also syncs the plan)
            measured = [download(port, path, session_key) for _ in range(arguments.requests)]
            rows.append(
                (
                    name,
                    percentile([m[0] for m in measured], 0.5),
                    percentile([m[1] for m in measured], 0.5),
                    measured[-1][2],
                    worker_peak_mb(server.pid),
                )
            )
    finally:
        server.terminate()
        server.wait(timeout=30)
    print(f"\nplan {arguments.nodes:,} nodes / {arguments.actions:,} actions")
    print(f"{'download':<15} {'first byte':>10} {'done':>8} {'size':>10} {'worker peak':>12}")
    for name, first, done, size, peak in rows:
        print(f"{name:<15} {first:9.2f}s {done:7.2f}s {size / 1e6:8.1f}MB {peak:10.0f}MB")


if __name__ == "__main__":
    main()

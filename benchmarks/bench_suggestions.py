"""Benchmark: the suggestions list (sync + list) on large plans under gunicorn.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_suggestions.py

Migrates the database of DATABASE_URL, creates a user with API access and a key, and for each
size (default 2,000 nodes / 10,000 actions, then 20,000 / 100,000) generates a plan
(`manage.py generate_plan`), starts gunicorn (2 sync workers, production settings) on a free
loopback port and measures, from a client on loopback:

- first sync: `generate_plan` runs the plan's first sync, as every import does (it creates every
  suggestion): its own duration from its log line, and with its events and commit;
- cold: the first list request after it, on warmed-up workers (whole list, gzip accepted);
- warm: the full list with no data change, gzip accepted (p50/p99);
- page: the first page of 100 (`limit=100`) (p50/p99); later pages: the pages after it, walking
  on with each `next_cursor`;
- 304: the full list with `If-None-Match` of its ETag (p50/p99);
- after one action changed / after one node's code changed: a page of 100, each request after
  one such change made with `QuerySet.update()` (so every sync re-derives a scope) (p50/p99);
- the peak RSS (VmHWM) of the gunicorn workers;
- with `--budget AMOUNT`, all of it for a plan with that annual budget (rule 6 re-derives every
  year on each sync after a change);
- the time merely to read the plan's nodes and actions (every column, as tuples) in this
  process, and the ratios after-change p50 / that read time and warm full list p50 / that time.

Targets (20,000 / 100,000): after one change p50 <= 300 ms, page p50 <= 50 ms, 304 p50 <= 30 ms
(issue 43: <= 5 ms), warm full list p50 <= 600 ms (issue 43: <= 0.1 x the read), first sync
and cold first list <= 2 s each, RSS <= 300 MB; (2,000 / 10,000): after one change p50 <= 80 ms,
warm list p50 <= 60 ms.
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import statistics
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    free_port,
    manage,
    migrate_and_create_key,
    percentile,
    server_environment,
    start_gunicorn,
)


def prepare(env: dict[str, str], nodes: int, actions: int) -> tuple[str, int, dict[str, Any]]:
    """Migrates, creates the owner and a key, generates the plan (which, as every import does,
    runs the plan's first sync); returns (raw key, number, the first sync's log line)."""
    email, raw_key = migrate_and_create_key(env)
    started = time.perf_counter()
    output = manage(
        env, "generate_plan", "--nodes", str(nodes), "--actions", str(actions), "--owner", email
    )
    lines = output.strip().splitlines()
    print(f"generated the plan in {time.perf_counter() - started:.1f}s: {lines[-2]}")
    (first_sync,) = sync_lines(lines)
    return raw_key, int(lines[-1]), first_sync


def worker_pids(master: int) -> list[int]:
    children = Path(f"/proc/{master}/task/{master}/children")
    return [int(pid) for pid in children.read_text().split()] if children.exists() else []


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Client:
    def __init__(self, port: int, raw_key: str, number: int) -> None:
        self.port = port
        self.headers = {"Authorization": f"Bearer {raw_key}", "Connection": "close"}
        self.path = f"/api/v1/platform/plans/{number}/suggestions"

    def warm_up(self) -> None:
        """Session checks, so the cold list measures the list and not a worker's first request
        (imports, database connection)."""
        for _ in range(6):
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
            connection.request(
                "POST",
                "/api/v1/auth/session/api-key",
                body=b"{}",
                headers={**self.headers, "Content-Type": "application/json"},
            )
            connection.getresponse().read()
            connection.close()

    def get(
        self, query: str = "", headers: dict[str, str] | None = None, expect: int = 200
    ) -> tuple[float, Any, dict[str, str]]:
        # A new connection per request, so gunicorn's two workers share the load.
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
        started = time.perf_counter()
        connection.request("GET", self.path + query, headers={**self.headers, **(headers or {})})
        response = connection.getresponse()
        body = response.read()
        elapsed = time.perf_counter() - started
        connection.close()
        if response.status != expect:
            raise SystemExit(f"GET {self.path}{query}: {response.status} {body[:300]!r}")
        if response.getheader("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
        payload = json.loads(body) if body else None
        return elapsed * 1000, payload, {k.lower(): v for k, v in response.getheaders()}


def later_pages(client: Client, count: int, headers: dict[str, str]) -> list[float]:
    """The times of `count` pages of 100 after the first, walking on (from the start again at
    the list's end)."""
    times: list[float] = []
    cursor = None
    while len(times) < count:
        query = "?limit=100" + (f"&cursor={cursor}" if cursor else "")
        elapsed, body, _ = client.get(query, headers=headers)
        if cursor:
            times.append(elapsed)
        cursor = body["data"]["next_cursor"]
    return times


def read_time_ms(number: int, rounds: int) -> float:
    """Median time to read the plan's nodes and actions, every column, as tuples."""
    from django.db import connection

    from planning.models import Action, Plan, StructureNode

    plan = Plan.objects.get(number=number)
    timings = []
    for _ in range(rounds):
        started = time.perf_counter()
        nodes = list(StructureNode.objects.filter(plan=plan).order_by().values_list())
        actions = list(Action.objects.filter(plan=plan).order_by().values_list())
        timings.append((time.perf_counter() - started) * 1000)
    connection.close()
    print(f"read {len(nodes)} nodes and {len(actions)} actions")
    return statistics.median(timings)


def change_one_action(number: int, step: int) -> None:
    from planning.models import Action

    action = Action.objects.filter(plan__number=number, kind="replacement").order_by("id").first()
    assert action is not None
    # Alternating costs far from any reference: the cost deviation's body changes every time.
    Action.objects.filter(pk=action.pk).update(estimated_cost=Decimal(1_000_000 + step))


def change_one_code(number: int, step: int) -> None:
    from planning.models import Code, StructureNode

    node = (
        StructureNode.objects.filter(plan__number=number, kind="component", actions__isnull=False)
        .order_by("id")
        .first()
    )
    codes = list(Code.objects.order_by("code").values_list("pk", flat=True)[:2])
    assert node is not None
    StructureNode.objects.filter(pk=node.pk).update(code=codes[step % 2])


def sync_lines(lines: list[str]) -> list[dict[str, Any]]:
    """The sync's log lines among `lines` (JSON, logger maintplan.sync)."""
    found = []
    for line in lines:
        if '"maintplan.sync"' in line:
            try:
                found.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return found


def sync_durations(log: Path) -> list[dict[str, Any]]:
    return sync_lines(log.read_text().splitlines())


def p50(values: list[float]) -> float:
    return statistics.median(values)


def run_size(
    env: dict[str, str], nodes: int, actions: int, workers: int, requests: int, budget: str
) -> None:
    from django.db import connection

    from planning.models import Plan

    raw_key, number, first_sync = prepare(env, nodes, actions)
    if budget:  # rule 6 (budget_peak) then runs in every sync after a change
        Plan.objects.filter(number=number).update(annual_budget=Decimal(budget))
        print(f"  annual budget {budget}")
    with connection.cursor() as cursor:  # fresh statistics, as autovacuum would soon give
        cursor.execute("ANALYZE")
    read_ms = read_time_ms(number, rounds=10)
    gzip_ok = {"Accept-Encoding": "gzip"}
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "gunicorn.log"
        port = free_port()
        server = start_gunicorn(env, port, log, "--workers", str(workers), "--timeout", "300")
        try:
            client = Client(port, raw_key, number)
            client.warm_up()
            cold_ms, body, _ = client.get(headers=gzip_ok)
            open_count = body["data"]["open_count"]
            cold_syncs = sync_durations(log)  # none: the import ran the first sync
            with connection.cursor() as cursor:  # what autovacuum does within a minute of it
                cursor.execute("ANALYZE")
            for _ in range(4):  # both workers warm (imports, connections)
                client.get(headers=gzip_ok)
            warm = [client.get(headers=gzip_ok)[0] for _ in range(max(requests // 4, 10))]
            _, _, headers = client.get(headers=gzip_ok)
            size = len(json.dumps(body).encode())
            etag = headers["etag"]
            not_modified = [
                client.get(headers={**gzip_ok, "If-None-Match": etag}, expect=304)[0]
                for _ in range(requests)
            ]
            page = [client.get("?limit=100", headers=gzip_ok)[0] for _ in range(requests)]
            later = later_pages(client, requests, gzip_ok)
            after_action, after_code = [], []
            for step in range(requests // 2):
                change_one_action(number, step)
                after_action.append(client.get("?limit=100", headers=gzip_ok)[0])
                change_one_code(number, step)
                after_code.append(client.get("?limit=100", headers=gzip_ok)[0])
            syncs = sync_durations(log)
            assert not syncs[-1]["full_sync"], syncs[-1]
            rss = {pid: peak_rss_mb(pid) for pid in worker_pids(server.pid)}
        finally:
            server.terminate()
            server.wait(timeout=30)

    changed_p50 = p50(after_action)
    print(f"plan #{number}: {nodes} nodes, {actions} actions, {open_count} open, body {size} B")
    print(
        f"  first sync (run by generate_plan, as by every import): "
        f"{first_sync['duration_ms']} ms, {first_sync['total_ms']} ms with its events and "
        f"commit, {first_sync['created_count']} created"
    )
    print(f"  cold first list after it: {cold_ms:.0f} ms ({len(cold_syncs)} syncs in it)")
    for label, values in (
        ("warm full list (gzip)", warm),
        ("page of 100", page),
        ("later page of 100 (pages 2..)", later),
        ("304", not_modified),
        ("after one action changed (page)", after_action),
        ("after one node's code changed (page)", after_code),
    ):
        print(f"  {label}: p50 {p50(values):.1f} ms, p99 {percentile(values, 0.99):.1f} ms")
    print("  worker peak RSS: " + ", ".join(f"{mb:.0f} MB" for mb in rss.values()))
    print(
        f"  read nodes + actions: {read_ms:.1f} ms; after-change p50 / read = "
        f"{changed_p50 / read_ms:.2f}; warm full list p50 / read = {p50(warm) / read_ms:.2f}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes", default="2000:10000,20000:100000", help="nodes:actions, comma-separated"
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--requests", type=int, default=60)
    parser.add_argument(
        "--budget", default="", help="an annual budget for the plan (rule 6 runs on every sync)"
    )
    args = parser.parse_args()

    env = server_environment()
    os.environ.update(env)
    import django

    django.setup()
    for size in args.sizes.split(","):
        nodes, actions = (int(part) for part in size.split(":"))
        run_size(env, nodes, actions, args.workers, args.requests, args.budget)


if __name__ == "__main__":
    main()

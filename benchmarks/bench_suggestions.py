"""Benchmark: the suggestions list (sync + list) on a large plan under gunicorn.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_suggestions.py

Migrates the database of DATABASE_URL, creates a user with API access and a key, generates a
plan of 2,000 nodes and 10,000 actions (`manage.py generate_plan`), starts gunicorn (2 sync
workers, production settings) on a free loopback port and measures, from a client on loopback:

- cold: the first list request (the first sync creates every suggestion) on warmed-up workers,
  with the sync's own duration from its log line;
- warm: sequential list requests with no data change (p50/p99);
- changed: sequential list requests, each after one action's cost was changed (so every sync
  updates one suggestion) (p50/p99);
- the peak RSS (VmHWM) of the gunicorn workers;
- the time merely to read the plan's nodes and actions (every column, as tuples) in this
  process, and the ratio warm p50 / that read time.

Targets: warm p50 <= 150 ms, cold <= 2 s, warm p50 within 3x of the read time.
"""

from __future__ import annotations

import argparse
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


def prepare(env: dict[str, str], nodes: int, actions: int) -> tuple[str, int]:
    """Migrates, creates the owner and a key, generates the plan; returns (raw key, number)."""
    email, raw_key = migrate_and_create_key(env)
    started = time.perf_counter()
    output = manage(
        env, "generate_plan", "--nodes", str(nodes), "--actions", str(actions), "--owner", email
    )
    print(f"generated the plan in {time.perf_counter() - started:.1f}s: {output.splitlines()[0]}")
    return raw_key, int(output.strip().splitlines()[-1])


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
        """Session checks, so the cold list measures the sync and not a worker's first request
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

    def get(self) -> tuple[float, dict[str, Any]]:
        # A new connection per request, so gunicorn's two workers share the load.
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
        started = time.perf_counter()
        connection.request("GET", self.path, headers=self.headers)
        response = connection.getresponse()
        body = response.read()
        elapsed = time.perf_counter() - started
        connection.close()
        if response.status != 200:
            raise SystemExit(f"GET {self.path}: {response.status} {body[:300]!r}")
        return elapsed * 1000, json.loads(body)


def read_time_ms(number: int, rounds: int) -> float:
    """Median time to read the plan's nodes and actions, every column, as tuples."""
    import django

    django.setup()
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
    from django.db.models import F

    from planning.models import Action

    action = Action.objects.filter(plan__number=number, kind="replacement").order_by("id").first()
    # Alternating costs far from any reference: the cost deviation's body changes every time.
    Action.objects.filter(pk=action.pk).update(
        estimated_cost=Decimal(1_000_000 + step), updated_at=F("updated_at")
    )


def sync_durations(log: Path) -> list[dict[str, Any]]:
    lines = []
    for line in log.read_text().splitlines():
        if '"maintplan.sync"' in line:
            try:
                lines.append(json.loads(line))
            except json.JSONDecodeError:
                continue
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=10000)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()

    env = server_environment()
    os.environ.update(env)
    raw_key, number = prepare(env, args.nodes, args.actions)
    read_ms = read_time_ms(number, rounds=20)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "gunicorn.log"
        port = free_port()
        server = start_gunicorn(env, port, log, "--workers", str(args.workers), "--timeout", "120")
        try:
            client = Client(port, raw_key, number)
            client.warm_up()
            cold_ms, body = client.get()
            open_count = body["data"]["open_count"]
            cold_sync = sync_durations(log)[-1]
            for _ in range(5):  # both workers warm (imports, connections)
                client.get()
            warm = [client.get()[0] for _ in range(args.requests)]
            changed = []
            for step in range(args.requests // 2):
                change_one_action(number, step)
                changed.append(client.get()[0])
            syncs = sync_durations(log)
            assert syncs[-1]["updated_count"] >= 1, syncs[-1]
            rss = {pid: peak_rss_mb(pid) for pid in worker_pids(server.pid)}
        finally:
            server.terminate()
            server.wait(timeout=30)

    warm_p50 = statistics.median(warm)
    print(f"plan #{number}: {args.nodes} nodes, {args.actions} actions, {open_count} open")
    print(
        f"cold first list: {cold_ms:.0f} ms (sync {cold_sync['duration_ms']} ms, "
        f"{cold_sync['created_count']} created)"
    )
    print(f"warm list, no change: p50 {warm_p50:.1f} ms, p99 {percentile(warm, 0.99):.1f} ms")
    print(
        f"after one action changed: p50 {statistics.median(changed):.1f} ms, "
        f"p99 {percentile(changed, 0.99):.1f} ms"
    )
    print("worker peak RSS: " + ", ".join(f"{mb:.0f} MB" for mb in rss.values()))
    print(f"read nodes + actions: {read_ms:.1f} ms; warm p50 / read = {warm_p50 / read_ms:.2f}")
    print(
        "targets: warm p50 <= 150 ms "
        f"[{'ok' if warm_p50 <= 150 else 'MISSED'}], cold <= 2000 ms "
        f"[{'ok' if cold_ms <= 2000 else 'MISSED'}], warm within 3x of read "
        f"[{'ok' if warm_p50 <= 3 * read_ms else 'MISSED'}]"
    )


if __name__ == "__main__":
    main()

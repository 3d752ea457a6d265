"""Benchmark: the nodes list's `updated_since` on a big plan.

    .venv/bin/python benchmarks/bench_updated_since.py [--nodes 20000] [--requests 200]
    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_updated_since.py

Against a fresh SQLite database in a temporary data folder, or the PostgreSQL of DATABASE_URL
when it names one (scripts/with-postgres.sh). A plan with `--nodes` nodes (buildings of 100
components each, imported in one bulk insert as an import writes them); in this process, the
whole API stack (key, envelope, ETag):

1. `GET .../nodes?updated_since=<tomorrow>` (an empty answer) `--requests` times, with the
   index on (plan, updated_at) and with it dropped (what the index is worth);
2. the same with `updated_since` just before one node was renamed (one node answered);
3. for scale, the list's first page (100 nodes) without `updated_since`.

Reported: p50 and p99 of each, in ms.
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def _environment() -> dict[str, str]:
    env = dict(os.environ)
    if not env.get("DATABASE_URL", "").startswith("postgres"):
        data_dir = tempfile.mkdtemp(prefix="bench-updated-since-")
        env.update(MAINTPLAN_DATA_DIR=data_dir, DATABASE_URL=f"sqlite:///{data_dir}/bench.sqlite3")
    env.update(
        API_KEY_THROTTLE_RATE="1000000/minute",
        API_USER_THROTTLE_RATE="1000000/minute",
        DJANGO_SETTINGS_MODULE="config.settings",
    )
    return env


def _percentiles(timings: list[float]) -> str:
    timings = sorted(timings)
    return (
        f"p50 {statistics.median(timings):.1f} ms, "
        f"p99 {timings[min(len(timings) - 1, int(len(timings) * 0.99))]:.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--requests", type=int, default=200)
    args = parser.parse_args()
    env = _environment()
    os.environ.update(env)
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    import django

    django.setup()
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from apikeys.services import api_access_set, api_key_create
    from planning.models import NodeKind, PlanRole, StructureNode
    from planning.plans.services.nodes import node_rename
    from planning.tree.paths import child_fields
    from platform_api.params import changed_since
    from tests.factories import PlanFactory, PlanMembershipFactory, UserFactory

    user = UserFactory.create()
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="bench")
    auth = {"Authorization": f"Bearer {raw}"}
    plan = PlanFactory.create(organisation__api_access_enabled=True)
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)

    rows: list[StructureNode] = []
    building: tuple[uuid.UUID, str, uuid.UUID | None] | None = None
    for index in range(args.nodes):
        node_id = uuid.uuid4()
        if index % 101 == 0:
            kind, parent_id, parent_path, parent_building = NodeKind.BUILDING, None, "", None
        else:
            assert building is not None
            kind, (parent_id, parent_path, parent_building) = NodeKind.COMPONENT, building
        path, building_id = child_fields(
            node_id=node_id,
            kind=kind,
            parent_id=parent_id,
            parent_path=parent_path,
            parent_building=parent_building,
        )
        if kind == NodeKind.BUILDING:
            building = (node_id, path, building_id)
        rows.append(
            StructureNode(
                id=node_id,
                plan=plan,
                parent_id=parent_id,
                name=f"Node {index}",
                kind=kind,
                path=path,
                building_id=building_id,
            )
        )
    StructureNode.objects.bulk_create(rows, batch_size=2000)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    client = Client()
    url = f"/api/v1/platform/plans/{plan.number}/nodes"

    def timed(params: dict[str, Any], check: Callable[[list[Any]], bool]) -> list[float]:
        timings = []
        for _ in range(args.requests):
            began = time.perf_counter()
            response = client.get(url, params, headers=auth)
            timings.append((time.perf_counter() - began) * 1000)
            assert response.status_code == 200 and check(response.json()["data"]["nodes"])
        return timings

    tomorrow = timezone.now() + datetime.timedelta(days=1)
    plan_of_query = (
        StructureNode.objects.filter(changed_since(tomorrow), plan=plan).order_by("pk")[:101]
    ).explain()
    empty = timed({"updated_since": tomorrow.isoformat()}, lambda nodes: nodes == [])
    since = timezone.now().isoformat()
    node_rename(node=rows[5], name="Renamed")
    one = timed({"updated_since": since}, lambda nodes: len(nodes) == 1)
    page = timed({}, lambda nodes: len(nodes) == 100)
    with connection.cursor() as cursor:
        cursor.execute("DROP INDEX structure_node_plan_updated")
    unindexed = timed({"updated_since": tomorrow.isoformat()}, lambda nodes: nodes == [])

    print(f"{connection.vendor}, {args.nodes:,} nodes, {args.requests} requests each")
    print(f"  the empty answer's query plan: {plan_of_query}")
    print(f"  updated_since, empty answer: {_percentiles(empty)}")
    print(f"  updated_since, one node changed: {_percentiles(one)}")
    print(f"  updated_since, empty answer, index dropped: {_percentiles(unindexed)}")
    print(f"  no updated_since, first page of 100: {_percentiles(page)}")


if __name__ == "__main__":
    main()

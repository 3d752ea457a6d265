"""Benchmark: the change history and adopted versions (docs/subsystems/history.md "History",
docs/subsystems/versions.md "Versions").

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_history.py
    .venv/bin/python benchmarks/bench_history.py --sqlite   # a throwaway SQLite file instead

Runs in this process against a fresh database (PostgreSQL of DATABASE_URL, or a temporary
SQLite file) and prints:

- writes with history on and off: an import of NODES nodes and ACTIONS actions
  (`manage.py generate_plan`'s import), and EDITS single action edits through the service, each
  its own transaction with a person acting; "off" drops the history triggers for the run and
  puts them back after (targets: at most 25 % slower with history on);
- the History tab with ENTRIES history rows in the database, all of one plan: server time p50
  of the first page, a page filtered by person and an older page (target p50 <= 200 ms);
- adopting the plan (target <= 5 s) and comparing the version with the plan after EDITS
  changes (target <= 1 s).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import tempfile
import time
from decimal import Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--edits", type=int, default=1_000)
    parser.add_argument("--entries", type=int, default=1_000_000)
    parser.add_argument("--sqlite", action="store_true")
    options = parser.parse_args()
    if options.sqlite:
        os.environ["DATABASE_URL"] = f"sqlite:///{tempfile.mkdtemp()}/bench.sqlite3"
    elif not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("run under scripts/with-postgres.sh, or pass --sqlite")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    run(options)


def _triggers(on: bool) -> None:
    from django.db import connection

    from planning.db.history_triggers import history_triggers, history_triggers_drop
    from planning.db.tracked import TRACKED

    sql = history_triggers(TRACKED) if on else history_triggers_drop(TRACKED)
    with connection.cursor() as cursor:
        for statement in sql.statements(connection.vendor):
            cursor.execute(statement)


def _import_seconds(owner: str, nodes: int, actions: int) -> tuple[float, int]:
    import io

    from django.core.management import call_command

    out = io.StringIO()
    started = time.perf_counter()
    call_command(
        "generate_plan", nodes=nodes, actions=actions, owner=owner, stdout=out, stderr=io.StringIO()
    )
    seconds = time.perf_counter() - started
    number = int(out.getvalue().strip().splitlines()[-1])
    return seconds, number


def _edits(plan_number: int, count: int, user: object) -> float:
    from accounts.actor import Actor, acting
    from planning.models import Action
    from planning.plans.services.actions import action_update

    rng = random.Random(count)
    ids = list(Action.objects.filter(plan__number=plan_number).values_list("pk", flat=True)[:5000])
    started = time.perf_counter()
    with acting(Actor.user(user)):
        for _ in range(count):
            action = Action.objects.select_related("node").get(pk=rng.choice(ids))
            action_update(
                action=action,
                node=action.node,
                title=action.title,
                kind=action.kind,
                planned_year=action.planned_year,
                estimated_cost=action.estimated_cost + Decimal(1),
                interval_years=action.interval_years,
            )
    return time.perf_counter() - started


def _entries(plan_id: object, count: int, user: object) -> None:
    """`count` history rows for the plan, written in bulk (the triggers' shape)."""
    from django.utils import timezone

    from planning.models import HistoryEntry

    now = timezone.now()
    batch = []
    people = [user.email, "colleague@example.com", "auditor@example.com"]  # type: ignore[attr-defined]
    for index in range(count):
        batch.append(
            HistoryEntry(
                plan_id=plan_id,
                at=now,
                actor_kind="user",
                actor_label=people[index % 3],
                entity="action",
                entity_label=f"Action {index}",
                operation="update",
                changes={"estimated_cost": [index, index + 1]},
            )
        )
        if len(batch) == 10_000:
            HistoryEntry.objects.bulk_create(batch)
            batch = []
    HistoryEntry.objects.bulk_create(batch)


def _page_p50(client: object, url: str, rounds: int = 25) -> float:
    times = []
    for _ in range(rounds):
        started = time.perf_counter()
        response = client.get(url)  # type: ignore[attr-defined]
        times.append((time.perf_counter() - started) * 1000)
        assert response.status_code == 200, response.status_code
    return statistics.median(times)


def run(options: argparse.Namespace) -> None:
    from django.test import Client

    from accounts.models import User
    from planning.models import HistoryEntry, Plan
    from planning.records.adoption import plan_adopt
    from planning.records.comparison import Side, versions_compare

    user = User.objects.create_user(email="bench@example.com", password="bench-password-1234")
    size = f"{options.nodes:,} nodes / {options.actions:,} actions"

    on_import, number = _import_seconds(user.email, options.nodes, options.actions)
    plan = Plan.objects.get(number=number)
    started = time.perf_counter()
    version = plan_adopt(plan=plan, name="Benchmark")
    print(f"adopting the plan ({size}): {time.perf_counter() - started:.2f} s")
    _triggers(on=False)
    off_import, _ = _import_seconds(user.email, options.nodes, options.actions)
    off_edits = _edits(number, options.edits, user)
    _triggers(on=True)
    on_edits = _edits(number, options.edits, user)
    print(
        f"import of {size}: history on {on_import:.1f} s, off {off_import:.1f} s "
        f"({(on_import / off_import - 1) * 100:+.0f} %)"
    )
    print(
        f"{options.edits:,} single edits: history on {on_edits:.2f} s, off {off_edits:.2f} s "
        f"({(on_edits / off_edits - 1) * 100:+.0f} %)"
    )
    this_year = version.decided_on.year
    started = time.perf_counter()
    comparison = versions_compare(
        old=Side(plan, version), new=Side(plan), years=list(range(this_year, this_year + 10))
    )
    print(
        f"comparing it with the plan after the edits: {time.perf_counter() - started:.2f} s "
        f"({comparison.count('changed')} changed)"
    )

    started = time.perf_counter()
    _entries(plan.pk, options.entries - HistoryEntry.objects.count(), user)
    total = HistoryEntry.objects.count()
    print(f"wrote history rows up to {total:,} in {time.perf_counter() - started:.0f} s")
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE planning_historyentry")
    client = Client()
    client.force_login(user)
    base = f"/plans/{number}/history/"
    middle = HistoryEntry.objects.filter(plan_id=plan.pk).order_by("id")[total // 2].pk
    for label, url in (
        ("first page", base),
        ("filtered by person", base + "?person=colleague"),
        ("filtered by entity kind", base + "?entity=action"),
        ("an older page", base + f"?before={middle}"),
    ):
        print(f"history tab, {label}: p50 {_page_p50(client, url):.0f} ms")


if __name__ == "__main__":
    main()

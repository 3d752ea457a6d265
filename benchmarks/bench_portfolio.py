"""Benchmark: an organisation's portfolio page (docs/subsystems/portfolio.md) over many plans.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_portfolio.py

Migrates the database of DATABASE_URL, creates a user with a session and an API key, and gives
its organisation `--plans` plans (default 200) of `--nodes` nodes and `--actions` actions each
(default 2,000 / 4,000, a third recurring: the document of `manage.py generate_plan`, imported
once per plan), every building with a floor area, the organisation a value per m2, every other
plan an annual budget. Starts gunicorn (2 sync workers, production settings) on a free loopback
port and measures the time to the last byte (from a client on loopback):

- cold: the first request, every plan's figures computed (p50 of `--cold` requests, each after
  the figures' cache entries are dropped by a change of the value per m2);
- the page (first page of 50, by name), sorted by FCI, its second page, filtered by name, the
  CSV of every plan, and `GET /api/v1/platform/portfolio`: p50 / p90 of `--requests` requests
  after one warm-up (the figures cached per plan);
- after a change: each request right after one plan changed through its services (one plan's
  figures computed afresh).

Target: 200 plans of 2,000 nodes, the page's server p50 <= 300 ms, paged, no per-plan query
loop (tests/planning/test_portfolio.py holds the page's query count).

Measured when this was written (2 CPU cores shared with other work, load average about 11,
PostgreSQL 15, 200 plans of 2,000 nodes / 4,000 actions, 20 requests each), server p50 / p90:
page 1 by name 108 / 171 ms, by FCI 158 / 180 ms, page 2 by cost 123 / 135 ms, filtered 116 /
140 ms, CSV of every plan 76 / 100 ms, the API's first page 100 / 121 ms, the page after one
plan changed 261 / 316 ms; cold (every plan's figures computed: 800,000 actions grouped) 3.6 s.
"""

from __future__ import annotations

import argparse
import http.client
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.harness import (
    free_port,
    manage,
    percentile,
    server_environment,
    start_gunicorn,
)

SETUP_SCRIPT = """
import time
from decimal import Decimal
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from django.utils import timezone
from accounts.models import User
from apikeys.services import api_access_set, api_key_create
from planning.management.commands.generate_plan import synthetic_plan_document
from planning.models import Code, NodeKind, Plan, StructureNode
from planning.transfer.imports.plan_document import plan_import_document
from planning.transfer.imports.write import statistics_refresh
user = User.objects.create_user(email={email!r}, password=None, name="Bench")
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
api_access_set(user=user, enabled=True)
_key, raw = api_key_create(user=user, name="bench")
organisation = user.personal_organisation
organisation.value_per_m2 = Decimal("25000")
organisation.save()
document = synthetic_plan_document(
    nodes={nodes}, actions={actions}, seed=1, year=timezone.now().year,
    codes=list(Code.objects.order_by("code")), recurring=0.33,
)
started = time.perf_counter()
for index in range({plans}):
    plan = plan_import_document(
        owner=user, organisation=organisation, document=document, name=f"Estate {{index}}",
        source="generated",
    )
    if index % 2:
        Plan.objects.filter(pk=plan.pk).update(annual_budget=Decimal("400000"))
    if index % 20 == 19:
        print(f"{{index + 1}} plans in {{time.perf_counter() - started:.0f}}s", flush=True)
StructureNode.objects.filter(plan__organisation=organisation, kind=NodeKind.BUILDING).update(
    gross_floor_area_m2=Decimal("1200")
)
statistics_refresh(rows={plans} * ({nodes} + {actions}))
print(organisation.slug)
print(session.session_key)
print(raw)
"""

VALUE_SCRIPT = """
from decimal import Decimal
from organisations.models import Organisation
Organisation.objects.filter(slug={slug!r}).update(value_per_m2=Decimal({value!r}))
"""

CHANGE_SCRIPT = """
from decimal import Decimal
from planning.models import Action, Plan
from planning.plans.services.actions import action_update
plan = Plan.objects.filter(organisation__slug={slug!r}).order_by("number")[{index}]
action = Action.objects.filter(plan=plan, status="planned").order_by("id").first()
action_update(
    action=action, node=action.node, title=action.title, kind=action.kind,
    planned_year=action.planned_year, estimated_cost=action.estimated_cost + Decimal("1"),
    interval_years=action.interval_years, project=action.project,
)
"""


def fetch(port: int, path: str, headers: dict[str, str]) -> tuple[int, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=300)
    started = time.perf_counter()
    connection.request("GET", path, headers=headers)
    response = connection.getresponse()
    response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    return response.status, elapsed


def times(port: int, path: str, headers: dict[str, str], requests: int) -> list[float]:
    status, _ = fetch(port, path, headers)  # warm-up
    if status != 200:
        raise SystemExit(f"{path} answered {status}")
    return [fetch(port, path, headers)[1] for _ in range(requests)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--plans", type=int, default=200)
    parser.add_argument("--nodes", type=int, default=2000)
    parser.add_argument("--actions", type=int, default=4000)
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--cold", type=int, default=3)
    parser.add_argument("--changes", type=int, default=5)
    arguments = parser.parse_args()
    env = server_environment()
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")
    started = time.perf_counter()
    script = SETUP_SCRIPT.format(
        email=f"portfolio-{time.time_ns()}@example.com",
        plans=arguments.plans,
        nodes=arguments.nodes,
        actions=arguments.actions,
    )
    *_progress, slug, session_key, raw_key = manage(env, "shell", "-v", "0", "-c", script).split()
    print(f"{arguments.plans} plans generated in {time.perf_counter() - started:.0f}s")
    page = f"/organisations/{slug}/portfolio/"
    session = {"Cookie": f"sessionid={session_key}"}
    key = {"Authorization": f"Bearer {raw_key}"}
    port = free_port()
    log = Path(tempfile.gettempdir()) / f"bench-portfolio-{port}.log"
    server = start_gunicorn(env, port, log, "--workers", "2", "--timeout", "300")
    results: list[tuple[str, list[float]]] = []
    try:
        cold = []
        for index in range(arguments.cold):
            value = f"{25000 + index + 1}"
            manage(env, "shell", "-v", "0", "-c", VALUE_SCRIPT.format(slug=slug, value=value))
            status, elapsed = fetch(port, page, session)
            assert status == 200, status
            cold.append(elapsed)
        results.append(("page, cold (every plan computed)", cold))
        for name, path, headers in (
            ("page 1, by name", page, session),
            ("page 1, by FCI", f"{page}?sort=-fci", session),
            ("page 2, by cost", f"{page}?sort=-cost&page=2", session),
            ("filtered by name", f"{page}?q=Estate+1", session),
            ("CSV, every plan", f"/organisations/{slug}/portfolio.csv", session),
            ("API, first page", f"/api/v1/platform/portfolio?organisation={slug}", key),
        ):
            results.append((name, times(port, path, headers, arguments.requests)))
        changed = []
        for index in range(arguments.changes):
            manage(env, "shell", "-v", "0", "-c", CHANGE_SCRIPT.format(slug=slug, index=index))
            changed.append(fetch(port, page, session)[1])
        results.append(("page after one plan changed", changed))
    finally:
        server.terminate()
        server.wait(timeout=30)
    print()
    print(f"{arguments.plans} plans of {arguments.nodes:,} nodes / {arguments.actions:,} actions")
    print(f"{'request':<36} {'server p50':>10} {'p90':>8}")
    for name, measured in results:
        p50, p90 = percentile(measured, 0.5) * 1000, percentile(measured, 0.9) * 1000
        print(f"{name:<36} {p50:8.0f}ms {p90:6.0f}ms")


if __name__ == "__main__":
    main()

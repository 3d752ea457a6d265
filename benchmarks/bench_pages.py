"""Benchmark: the plan's web pages on large plans, under gunicorn and in Chromium.

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_pages.py

Migrates the database of DATABASE_URL, creates a user with a session, and for each size
(default 2,000 nodes / 10,000 actions, then 20,000 / 100,000) generates a plan
(`manage.py generate_plan`), starts gunicorn (2 sync workers, production settings) on a free
loopback port, opens the planning page once (its first sync creates every suggestion), and then
measures per page (the plan page, page 1 of the actions list, the action-planning view):

- server: the time to the last byte of the response, from a client on loopback (p50/p90 of
  `--requests` requests after one warm-up request);
- load and elements: in Debian's headless Chromium (1366 x 900), the time from navigation to
  the load event (p50 of 5 loads) and the number of DOM elements;
- planning page after a change: each request made right after one action's cost changed with
  `QuerySet.update()`, so the page's sync takes in a change and its cached figures (budget,
  counts) are computed afresh (p50 of `--changes` requests);
- the budget exports (CSV and XLSX): server time only.

`--plans N` gives the owner N - 1 more plans in the same organisation (60 actions each, a
third recurring) and measures the plan list (`/plans/`, its first page of 50, each row's
ten-year figure computed) as "plan list" (docs/subsystems/figures.md "One truth for every figure").

`--query` adds a query string to the planning page and the budget exports (`prices=nominal`),
`--no-browser` skips Chromium, `--generate` passes options on to `generate_plan`, `--money`
gives the plan an index rate of 2.5 %, 10 % overhead and 19 % VAT.

Targets: 2,000 nodes: server p50 <= 300 ms, load <= 1 s, <= 4,000 elements; 20,000 nodes:
server p50 <= 600 ms, load <= 1.5 s, <= 4,000 elements.
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

CHROMIUM = "/usr/bin/chromium"
SESSION_SCRIPT = """
from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY
from django.contrib.sessions.backends.db import SessionStore
from accounts.models import User
user = User.objects.create_user(email={email!r}, password=None, name="Bench")
session = SessionStore()
session[SESSION_KEY] = str(user.pk)
session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
session[HASH_SESSION_KEY] = user.get_session_auth_hash()
session.create()
print(session.session_key)
"""


def prepare(
    env: dict[str, str], nodes: int, actions: int, index: int, generate: list[str]
) -> tuple[str, int]:
    """Creates the owner with a session and generates the plan; returns (session key, number)."""
    email = f"pages-{index}-{time.time_ns()}@example.com"
    session_key = manage(env, "shell", "-v", "0", "-c", SESSION_SCRIPT.format(email=email))
    started = time.perf_counter()
    output = manage(
        env,
        "generate_plan",
        "--nodes",
        str(nodes),
        "--actions",
        str(actions),
        "--owner",
        email,
        *generate,
    )
    print(f"generated the plan in {time.perf_counter() - started:.1f}s: {output.splitlines()[0]}")
    return session_key.strip().splitlines()[-1], int(output.strip().splitlines()[-1])


MONEY_SCRIPT = """
from decimal import Decimal
from planning.models import Plan
from planning.plans.services.plans import plan_money_update
plan = Plan.objects.get(number={number})
plan_money_update(plan=plan, price_base_year=plan.price_base_year,
    index_rate_percent=Decimal("2.5"), overhead_percent=Decimal("10"),
    vat_percent=Decimal("19"), annual_budget=None)
"""


PLANS_SCRIPT = """
import datetime
from decimal import Decimal
from planning.models import Action, NodeKind, Plan
from planning.plans.services.nodes import node_create
from planning.plans.services.plans import plan_create
home = Plan.objects.get(number={number}).organisation
owner = home.memberships.filter(role="owner").order_by("pk").first().user
year = datetime.date.today().year
for index in range({count}):
    plan = plan_create(owner=owner, name=f"Estate {{index}}", organisation=home)
    house = node_create(plan=plan, name="House", kind=NodeKind.BUILDING)
    roof = node_create(plan=plan, name="Roof", kind=NodeKind.COMPONENT, parent=house)
    Action.objects.bulk_create(
        Action(plan=plan, node=roof, title=f"Work {{n}}", kind="repair",
               planned_year=year - 2 + n % 14, estimated_cost=Decimal(100 + n * 7),
               interval_years=(3 + n % 5) if n % 3 == 0 else None)
        for n in range(60)
    )
"""


def fetch(port: int, path: str, session_key: str) -> tuple[int, float]:
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
    started = time.perf_counter()
    connection.request("GET", path, headers={"Cookie": f"sessionid={session_key}"})
    response = connection.getresponse()
    response.read()
    elapsed = time.perf_counter() - started
    connection.close()
    return response.status, elapsed


def server_times(port: int, path: str, session_key: str, requests: int) -> list[float]:
    status, _ = fetch(port, path, session_key)  # warm-up
    if status != 200:
        raise SystemExit(f"{path} answered {status}")
    return [fetch(port, path, session_key)[1] for _ in range(requests)]


CHANGE_SCRIPT = """
from decimal import Decimal
from planning.models import Action
action = Action.objects.filter(plan__number={number}, status="planned").order_by("id")[{index}]
Action.objects.filter(pk=action.pk).update(estimated_cost=action.estimated_cost + Decimal("1"))
"""


def after_change_times(
    env: dict[str, str], port: int, path: str, number: int, session_key: str, changes: int
) -> list[float]:
    times = []
    for index in range(changes):
        manage(env, "shell", "-v", "0", "-c", CHANGE_SCRIPT.format(number=number, index=index))
        times.append(fetch(port, path, session_key)[1])
    return times


def browser_figures(port: int, paths: list[str], session_key: str) -> dict[str, tuple[float, int]]:
    """path -> (p50 load seconds, DOM elements)."""
    from playwright.sync_api import sync_playwright

    figures: dict[str, tuple[float, int]] = {}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(viewport={"width": 1366, "height": 900})
        context.add_cookies(
            [{"name": "sessionid", "value": session_key, "url": f"http://127.0.0.1:{port}"}]
        )
        page = context.new_page()
        for path in paths:
            loads = []
            for _ in range(5):
                started = time.perf_counter()
                page.goto(f"http://127.0.0.1:{port}{path}", wait_until="load")
                loads.append(time.perf_counter() - started)
            elements = int(page.evaluate("document.getElementsByTagName('*').length"))
            figures[path] = (percentile(loads, 0.5), elements)
        browser.close()
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--sizes",
        default="2000:10000,20000:100000",
        help="nodes:actions pairs, comma-separated (default: %(default)s)",
    )
    parser.add_argument("--requests", type=int, default=20)
    parser.add_argument("--changes", type=int, default=5)
    parser.add_argument("--query", default="", help="e.g. prices=nominal")
    parser.add_argument("--no-browser", action="store_true")
    parser.add_argument("--money", action="store_true")
    parser.add_argument("--plans", type=int, default=1, help="plans of the organisation")
    parser.add_argument(
        "--generate", default="", help="options for generate_plan, e.g. '--recurring 0.33'"
    )
    arguments = parser.parse_args()
    query = f"?{arguments.query}" if arguments.query else ""
    env = server_environment()
    manage(env, "migrate", "--noinput", "-v", "0")
    manage(env, "collectstatic", "--noinput", "-v", "0")  # debug off: hashed static files
    results = []
    for index, pair in enumerate(arguments.sizes.split(",")):
        nodes, actions = (int(part) for part in pair.split(":"))
        session_key, number = prepare(env, nodes, actions, index, arguments.generate.split())
        if arguments.money:
            manage(env, "shell", "-v", "0", "-c", MONEY_SCRIPT.format(number=number))
        if arguments.plans > 1:
            script = PLANS_SCRIPT.format(number=number, count=arguments.plans - 1)
            manage(env, "shell", "-v", "0", "-c", script)
        port = free_port()
        log = Path(tempfile.gettempdir()) / f"bench-pages-{port}.log"
        server = start_gunicorn(env, port, log, "--workers", "2", "--timeout", "300")
        try:
            pages = {
                "plan page": f"/plans/{number}/",
                "actions, page 1": f"/plans/{number}/actions/",
                "planning page": f"/plans/{number}/planning/{query}",
                "plan list": "/plans/",
            }
            downloads = {
                "budget CSV": f"/plans/{number}/export/budget.csv{query}",
                "budget XLSX": f"/plans/{number}/export/budget.xlsx{query}",
            }
            started = time.perf_counter()
            fetch(port, pages["planning page"], session_key)  # the first sync
            print(f"first planning page (first sync): {time.perf_counter() - started:.2f}s")
            browser = (
                {}
                if arguments.no_browser
                else browser_figures(port, list(pages.values()), session_key)
            )
            for name, path in {**pages, **downloads}.items():
                times = server_times(port, path, session_key, arguments.requests)
                load, elements = browser.get(path, (float("nan"), 0))
                results.append(
                    (
                        f"{nodes:,}/{actions:,}",
                        name,
                        percentile(times, 0.5) * 1000,
                        percentile(times, 0.9) * 1000,
                        load * 1000,
                        elements,
                    )
                )
            changed = after_change_times(
                env, port, pages["planning page"], number, session_key, arguments.changes
            )
            results.append(
                (
                    f"{nodes:,}/{actions:,}",
                    "planning, changed",
                    percentile(changed, 0.5) * 1000,
                    percentile(changed, 0.9) * 1000,
                    float("nan"),
                    0,
                )
            )
        finally:
            server.terminate()
            server.wait(timeout=30)
    print()
    print(f"{'plan':>15}  {'page':<17} {'server p50':>9} {'p90':>8} {'load':>8} {'elements':>9}")
    for size, name, p50, p90, load, elements in results:
        browser = f"{load:6.0f}ms {elements:9,}" if elements else f"{'-':>8} {'-':>9}"
        print(f"{size:>15}  {name:<17} {p50:7.0f}ms {p90:6.0f}ms {browser}")


if __name__ == "__main__":
    main()

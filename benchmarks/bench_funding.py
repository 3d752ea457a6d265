"""Benchmark: a fund's figures and its goals (docs/subsystems/funding.md "Measured").

    scripts/with-postgres.sh .venv/bin/python benchmarks/bench_funding.py
    .venv/bin/python benchmarks/bench_funding.py --sqlite   # a throwaway SQLite file instead

Runs in this process against a fresh database: imports a NODES-node / ACTIONS-action plan
(`manage.py generate_plan`, a third of the actions recurring), gives it an index, markups and a
fund, then over HORIZON years (40) prints, each the median of ROUNDS:

- the nominal cost per year E_t (the one pass over every live occurrence, uncached);
- the components of the fully funded balance (four queries) and FFB over the years;
- each goal solved (baseline, threshold amount, threshold percent, full), for a constant
  contribution and one rising 3 % a year, on the figures above (target <= 1 s each, the
  figures' reading included: the first number plus the second plus the solve);
- the whole `fund_figures` of the Funding tab, cold (the yearly costs and components read) and
  warm (both from the figures cache, as after the first visit; the goals solved afresh).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--actions", type=int, default=100_000)
    parser.add_argument("--horizon", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--sqlite", action="store_true")
    parser.add_argument(
        "--keep", metavar="FILE", help="with --sqlite: this database file, made on the first run"
    )
    options = parser.parse_args()
    if options.sqlite:
        path = options.keep or f"{tempfile.mkdtemp()}/bench.sqlite3"
        os.environ["DATABASE_URL"] = f"sqlite:///{path}"
    elif not os.environ.get("DATABASE_URL", "").startswith("postgres"):
        raise SystemExit("run under scripts/with-postgres.sh, or pass --sqlite")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("LOG_LEVEL", "WARNING")

    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    run(options)


def _median(rounds: int, work: Callable[[], Any]) -> tuple[float, Any]:
    times, result = [], None
    for _ in range(rounds):
        started = time.perf_counter()
        result = work()
        times.append(time.perf_counter() - started)
    return statistics.median(times), result


def _imported(options: argparse.Namespace) -> Any:
    import io

    from django.core.management import call_command

    from accounts.models import User
    from planning.models import Plan

    User.objects.create_user(email="bench@example.com", password="bench-password-1234")
    out = io.StringIO()
    started = time.perf_counter()
    call_command(
        "generate_plan",
        nodes=options.nodes,
        actions=options.actions,
        owner="bench@example.com",
        recurring=0.33,
        stdout=out,
        stderr=io.StringIO(),
    )
    print(f"import: {time.perf_counter() - started:.0f} s")
    return Plan.objects.get(number=int(out.getvalue().strip().splitlines()[-1]))


def run(options: argparse.Namespace) -> None:
    from django.core.cache import cache
    from django.utils import timezone

    from planning.figures.budget import plans_nominal_year_cents
    from planning.figures.funding import fund_figures
    from planning.figures.funding.ffb import ffb_years, funded_components
    from planning.figures.funding.goals import FundProblem, goal_solve
    from planning.models import Fund, FundingGoal, Plan

    plan = Plan.objects.order_by("number").last()
    if plan is not None:  # a kept database: its plan, its fund made afresh
        Fund.objects.filter(plan=plan).delete()
    else:
        plan = _imported(options)
    Plan.objects.filter(pk=plan.pk).update(
        index_rate_percent=Decimal("2.5"),
        markups=[{"name": "Overhead", "percent": "10.00"}, {"name": "VAT", "percent": "25.00"}],
    )
    plan.refresh_from_db()
    year = timezone.now().year
    years = list(range(year, year + options.horizon))
    size = f"{options.nodes:,} nodes / {options.actions:,} actions, {options.horizon} years"

    costs_s, costs = _median(
        options.rounds,
        lambda: plans_nominal_year_cents(plans=[plan], year_from=years[0], year_to=years[-1])[
            plan.pk
        ],
    )
    ffb_s, components = _median(options.rounds, lambda: funded_components([plan.pk])[plan.pk])
    years_s, ffb = _median(options.rounds, lambda: ffb_years(components.counted, years))
    print(f"{size}: E_t {costs_s * 1000:.0f} ms; FFB components {ffb_s * 1000:.0f} ms")
    print(
        f"  FFB over the years {years_s * 1000:.1f} ms "
        f"({len(components.counted):,} counted, {len(components.left_out):,} left out)"
    )
    # Opening at the first year's fully funded balance: 100 % funded at the start, so every goal
    # has an answer to search for (a first year below the threshold share has none).
    problem = FundProblem(
        opening_cents=ffb[0],
        start_year=year,
        interest_percent=Decimal("1.5"),
        costs=costs,
        ffb=ffb,
    )
    goals: list[tuple[FundingGoal, Decimal | None]] = [
        (FundingGoal.BASELINE, None),
        (FundingGoal.THRESHOLD_AMOUNT, Decimal(1_000_000)),
        (FundingGoal.THRESHOLD_PERCENT, Decimal(40)),
        (FundingGoal.FULL, None),
    ]
    for goal, threshold in goals:
        for increase in (Decimal(0), Decimal(3)):
            solve_s, solution = _median(
                options.rounds,
                partial(
                    goal_solve,
                    goal=goal,
                    threshold=threshold,
                    problem=problem,
                    increase_percent=increase,
                ),
            )
            found = solution.contribution_cents
            total = costs_s + ffb_s + years_s + solve_s
            print(
                f"  {goal.value} (+{increase} %/yr): solve {solve_s * 1000:.1f} ms, with the "
                f"figures {total * 1000:.0f} ms; contribution "
                f"{'none within the bound' if found is None else f'{found / 100:,.2f}'}"
            )
    fund = Fund.objects.create(
        plan=plan,
        opening_balance=Decimal(500_000),
        start_year=year,
        interest_percent=Decimal("1.5"),
        contribution=Decimal(2_000_000),
        contribution_increase_percent=Decimal(3),
        horizon_years=options.horizon,
        threshold_amount=Decimal(1_000_000),
        threshold_percent=Decimal(40),
    )

    def cold() -> Any:
        cache.clear()
        return fund_figures(fund=fund)

    tab_s, figures = _median(options.rounds, cold)
    warm_s, _ = _median(options.rounds, lambda: fund_figures(fund=fund))
    print(
        f"fund_figures (the Funding tab's, {len(figures.goals)} goals): cold cache "
        f"{tab_s * 1000:.0f} ms, warm {warm_s * 1000:.0f} ms"
    )


if __name__ == "__main__":
    main()

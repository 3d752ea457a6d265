"""Figures of the action-planning view and the budget export kept in the `default` cache under
the plan's `data_version`: the budget (per range and prices), the open count and the filter
counts. Never stale, since the page and the export sync first and every change of the plan's
data or suggestions raises the version (docs/subsystems/caching.md).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache
from django.db.models import Count

from planning.figures.budget import Budget, plan_budget, plan_budgets
from planning.figures.key_figures import PlanKeyFigures, PlanSummary, plan_key_figures
from planning.figures.prices import NOMINAL, TODAY
from planning.figures.totals import YEARS
from planning.models import Plan, Suggestion, SuggestionStatus

T = TypeVar("T")
# A plan nobody looks at any more gives its memory back.
CACHE_SECONDS = 30 * 60
# Bump when a cached figure changes shape: entries of the old shape are then never read.
FIGURES_FORMAT = 5  # 5: the portfolio's figures hold percent funded; 4: classes moved


def plan_figure(
    *, plan_id: Any, version: int, name: str, parts: tuple[Any, ...], compute: Callable[[], T]
) -> T:
    """`compute()`, or the value it gave for this plan, version and parameters."""
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:24]
    key = f"plan-figure:{FIGURES_FORMAT}:{name}:{plan_id}:{version}:{digest}"
    found: T | None = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, CACHE_SECONDS)
    return found


def budget_figure(*, plan: Plan, version: int, year_from: int, year_to: int, prices: str) -> Budget:
    """planning.figures.budget.plan_budget through the cache: the page and the export share it. The
    pass that computes a nominal budget gives today's on the way (plan_budgets), which is kept
    too: the page's annual budget and key figures, and the export, read it next."""

    def figure(prices: str, compute: Callable[[], Budget]) -> Budget:
        return plan_figure(
            plan_id=plan.pk,
            version=version,
            name="budget",
            parts=(year_from, year_to, prices),
            compute=compute,
        )

    if prices != NOMINAL:
        return figure(prices, lambda: plan_budget(plan=plan, year_from=year_from, year_to=year_to))

    def both() -> Budget:
        today, nominal = plan_budgets(plan=plan, year_from=year_from, year_to=year_to)
        figure(TODAY, lambda: today)
        return nominal

    return figure(NOMINAL, both)


def key_figures_figure(*, plan: Plan, version: int, year: int) -> PlanKeyFigures:
    """planning.figures.key_figures.plan_key_figures through the cache, on the cached ten-year
    budget (read only when the figures are computed)."""

    def compute() -> PlanKeyFigures:
        ten_years = budget_figure(
            plan=plan, version=version, year_from=year, year_to=year + YEARS - 1, prices=TODAY
        )
        return plan_key_figures(plan=plan, year=year, budget=ten_years)

    return plan_figure(
        plan_id=plan.pk, version=version, name="key_figures", parts=(year,), compute=compute
    )


def plan_key_figures_figure(*, plan: Plan, version: int, year: int) -> PlanSummary:
    """The plan's own key figures alone (the planning page's card): a small entry, so the page
    does not read every building's figures back on each visit."""
    return plan_figure(
        plan_id=plan.pk,
        version=version,
        name="plan_key_figures",
        parts=(year,),
        compute=lambda: key_figures_figure(plan=plan, version=version, year=year).summary(),
    )


def open_counts(plans: list[Plan]) -> dict[Any, int]:
    """Each plan's count of open suggestions, by plan id, under its `data_version` (as the plan
    instance holds it): one round trip to the cache, and one grouped count for the plans it
    does not hold (a list of 100 plans of thousands of suggestions each counted them all on
    every request: 204 ms at 200 plans)."""
    keys = {
        plan.pk: f"plan-figure:{FIGURES_FORMAT}:open:{plan.pk}:{plan.data_version}"
        for plan in plans
    }
    found = cache.get_many(list(keys.values()))
    counts = {pk: found[key] for pk, key in keys.items() if key in found}
    missing = [pk for pk in keys if pk not in counts]
    if missing:
        counted = dict(
            Suggestion.objects.filter(plan_id__in=missing, status=SuggestionStatus.OPEN)
            .order_by()
            .values("plan")
            .annotate(n=Count("pk"))
            .values_list("plan", "n")
        )
        fresh = {pk: counted.get(pk, 0) for pk in missing}
        cache.set_many({keys[pk]: n for pk, n in fresh.items()}, CACHE_SECONDS)
        counts.update(fresh)
    return counts

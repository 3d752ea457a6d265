"""An organisation's portfolio: the figures of many plans side by side, with totals
(docs/subsystems/portfolio.md "The portfolio's figures").

Per plan, for year Y (this year): the planned cost of Y .. Y + 9 (today's prices: the plan list's
figure, planning.figures.totals), the maintenance debt (the key figures', planning.figures
.key_figures), the area-weighted FCI (planning.figures.condition_index), the open critical
suggestions, the years of Y .. Y + 9 over the annual budget (today's prices, as on the
planning page) and, where the plan has a fund, its percent funded now.

Every figure is computed for a batch of plans in grouped queries, never one plan at a time, and
kept per plan in the cache under the plan's `data_version` and what the FCI reads besides (the
organisation's value per m2 and its catalog's currency): a page of the portfolio reads every
matching plan's entry in one round trip and computes only the missing ones (six queries
whatever their number). The totals are over every matching plan, not one page: money per
currency (a sum across currencies would mean nothing), the FCI area-weighted over all their
buildings (a ratio: the same in any currency).
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Count

from core.text_order import natural_key
from planning.figures.cache import CACHE_SECONDS, FIGURES_FORMAT
from planning.figures.condition_index import ConditionWeights, plans_condition
from planning.figures.funding.plans import percent_funded_now
from planning.figures.key_figures import plans_maintenance_debt
from planning.figures.totals import plans_year_cents, ten_years, years_over_budget
from planning.models import Plan, Severity, Suggestion, SuggestionStatus

# The orders a portfolio is listed in (a leading "-": descending); a plan without the figure
# (no FCI, no fund, no budget) comes last either way.
SORTS = ("name", "number", "cost", "debt", "fci", "funded", "critical", "over_budget")
SORT_DEFAULT = "name"


@dataclass(frozen=True)
class PlanPortfolioFigures:
    plan_id: uuid.UUID
    year: int  # Y: the costs are of Y .. Y + 9, the debt before Y
    ten_year_cost: Decimal
    debt: Decimal
    condition: ConditionWeights
    critical_open: int
    years_over_budget: int | None  # None: the plan has no annual budget
    percent_funded: Decimal | None  # planning.figures.funding.percent_funded_now; None: no fund


@dataclass(frozen=True)
class PortfolioRow:
    plan: Plan
    figures: PlanPortfolioFigures

    @property
    def percent_funded(self) -> Decimal | None:
        return self.figures.percent_funded

    @property
    def fci_percent(self) -> Decimal | None:
        return self.figures.condition.fci_percent


@dataclass
class PortfolioTotal:
    """The totals of the matching plans in one currency."""

    currency: str
    plans: int = 0
    ten_year_cost: Decimal = Decimal("0.00")
    debt: Decimal = Decimal("0.00")
    critical_open: int = 0
    years_over_budget: int = 0
    condition: ConditionWeights = field(default_factory=ConditionWeights)


@dataclass(frozen=True)
class Portfolio:
    year: int  # Y
    rows: list[PortfolioRow]  # every matching plan, in the chosen order
    totals: list[PortfolioTotal]  # one per currency, by currency
    condition: ConditionWeights  # over every matching plan's buildings
    fci_inputs: tuple[Any, ...] = ()  # what the FCI read besides the plans (a cache key)

    @property
    def year_span(self) -> str:
        year_from, year_to = ten_years(self.year)
        return f"{year_from}\u2013{year_to}"


def plans_portfolio_figures(
    *, plans: Sequence[Plan], year: int, fci_inputs: tuple[Any, ...]
) -> dict[Any, PlanPortfolioFigures]:
    """Each plan's portfolio figures for year Y = `year`, by plan id, from the cache where it
    holds them (keyed on the plan's `data_version` and `fci_inputs`: the organisation's value
    per m2 and catalog currency), the rest computed together."""
    keys = {
        plan.pk: f"plan-figure:{FIGURES_FORMAT}:portfolio:{plan.pk}:{plan.data_version}:{year}:"
        f"{'/'.join(str(part) for part in fci_inputs)}"
        for plan in plans
    }
    found = cache.get_many(list(keys.values()))
    figures = {pk: found[key] for pk, key in keys.items() if key in found}
    missing = [plan for plan in plans if plan.pk not in figures]
    if missing:
        fresh = _computed(missing, year)
        cache.set_many({keys[pk]: value for pk, value in fresh.items()}, CACHE_SECONDS)
        figures.update(fresh)
    return figures


def _computed(plans: Sequence[Plan], year: int) -> dict[Any, PlanPortfolioFigures]:
    ids = [plan.pk for plan in plans]
    year_from, year_to = ten_years(year)
    grid = plans_year_cents(plan_ids=ids, year_from=year_from, year_to=year_to)
    debts = plans_maintenance_debt(plan_ids=ids, year=year)
    conditions = plans_condition(plan_ids=ids, year=year)
    funded = percent_funded_now(ids, year=year)
    critical = dict(
        Suggestion.objects.filter(
            plan_id__in=ids, status=SuggestionStatus.OPEN, severity=Severity.CRITICAL
        )
        .order_by()
        .values("plan_id")
        .annotate(n=Count("pk"))
        .values_list("plan_id", "n")
    )
    figures = {}
    for plan in plans:
        over = None
        if plan.annual_budget is not None:
            over = len(
                years_over_budget(
                    years=grid.years, totals=grid.amounts(plan.pk), annual_budget=plan.annual_budget
                )
            )
        figures[plan.pk] = PlanPortfolioFigures(
            plan_id=plan.pk,
            year=year,
            ten_year_cost=grid.total(plan.pk),
            debt=debts[plan.pk],
            condition=conditions[plan.pk].weights,
            critical_open=critical.get(plan.pk, 0),
            years_over_budget=over,
            percent_funded=funded.get(plan.pk),
        )
    return figures


def _sort_key(name: str) -> Callable[[PortfolioRow], Any]:
    def figure(row: PortfolioRow) -> Any:
        return {
            "number": row.plan.number,
            "cost": row.figures.ten_year_cost,
            "debt": row.figures.debt,
            "fci": row.figures.condition.fci,
            "funded": row.percent_funded,
            "critical": row.figures.critical_open,
            "over_budget": row.figures.years_over_budget,
        }[name]

    if name == "name":
        return lambda row: (natural_key(row.plan.name), row.plan.number)
    return figure


def portfolio_sorted(rows: list[PortfolioRow], sort: str) -> list[PortfolioRow]:
    """`rows` in the order `sort` names (one of SORTS, "-" first for descending); ties and the
    rows without the figure (last) by name."""
    descending = sort.startswith("-")
    name = sort.lstrip("-")
    if name not in SORTS:
        name, descending = SORT_DEFAULT, False
    by_name = sorted(rows, key=_sort_key("name"))
    if name == "name":
        return by_name[::-1] if descending else by_name
    key = _sort_key(name)
    with_figure = [row for row in by_name if key(row) is not None]
    without = [row for row in by_name if key(row) is None]
    return sorted(with_figure, key=key, reverse=descending) + without


def portfolio_build(
    *,
    plans: Sequence[Plan],
    year: int,
    fci_inputs: tuple[Any, ...],
    sort: str = SORT_DEFAULT,
) -> Portfolio:
    """The portfolio of `plans` (every matching plan: the totals are theirs) for year Y =
    `year`, sorted."""
    figures = plans_portfolio_figures(plans=plans, year=year, fci_inputs=fci_inputs)
    rows = [PortfolioRow(plan, figures[plan.pk]) for plan in plans]
    totals: dict[str, PortfolioTotal] = {}
    condition = ConditionWeights()
    for row in rows:
        total = totals.setdefault(row.plan.currency, PortfolioTotal(row.plan.currency))
        total.plans += 1
        total.ten_year_cost += row.figures.ten_year_cost
        total.debt += row.figures.debt
        total.critical_open += row.figures.critical_open
        total.years_over_budget += row.figures.years_over_budget or 0
        total.condition += row.figures.condition
        condition += row.figures.condition
    return Portfolio(
        year=year,
        rows=portfolio_sorted(rows, sort),
        totals=[totals[currency] for currency in sorted(totals)],
        condition=condition,
        fci_inputs=fci_inputs,
    )

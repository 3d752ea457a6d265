"""One figure for a range of years: a plan's planned cost (the plan list's ten years, a
version's planned cost at adoption), a building's (its key figures). Today's prices, live
occurrences only, summed by planning.figures.occurrences as every other figure is; the years
default to this year and the nine after it (docs/subsystems/money.md)."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from decimal import Decimal
from typing import Any

from django.db.models import Max, Q, QuerySet, Sum
from django.db.models.functions import Coalesce

from planning.figures.occurrences import YearGrid, live_in_range, year_cents
from planning.models import Action, ActionStatus, Plan

YEARS = 10  # a figure's years when none are chosen: Y .. Y + 9
HORIZON_MAX = 30  # the most years a plan's horizon reaches (the board report's)


def ten_years(year: int) -> tuple[int, int]:
    """The default years of a figure read in `year`: that year and the nine after it."""
    return year, year + YEARS - 1


def chosen_years(*, year_from: int | None, year_to: int | None, year: int) -> tuple[int, int]:
    """The years of a figure for a filter that may name either end: the ten from `year` when it
    names none; an open end is ten years from the other. Both ends given are in order (the
    Actions tab's filter form refuses reversed years and drops the last)."""
    if year_from is None and year_to is None:
        return ten_years(year)
    if year_from is None:
        assert year_to is not None
        return min(year, year_to - YEARS + 1), year_to
    return year_from, year_to if year_to is not None else year_from + YEARS - 1


def plan_horizon(*, plan: Plan, year: int) -> tuple[int, int]:
    """A plan's whole horizon read in `year`: from `year` to the last year a live action is
    planned for (a recurring one's next occurrence; it recurs inside these years), at least the
    ten years from `year`, at most HORIZON_MAX."""
    last = Action.objects.filter(plan=plan, status=ActionStatus.PLANNED).aggregate(
        last=Max("planned_year")
    )["last"]
    return year, min(max(last or year, year + YEARS - 1), year + HORIZON_MAX - 1)


def planned_total(*, actions: QuerySet[Any], year_from: int, year_to: int) -> Decimal:
    """Today's prices of every live occurrence from `year_from` to `year_to` of `actions` (a
    plan's actions, a building's, or a version's snapshot): one grouped query."""
    live = live_in_range(actions, year_from=year_from, year_to=year_to)
    return year_cents(live, key=None, years=list(range(year_from, year_to + 1))).total(None)


def plans_planned_cost(
    *, plan_ids: Collection[Any], year_from: int, year_to: int
) -> dict[Any, Decimal]:
    """`planned_total` of each of these plans, by plan id (a plan without live occurrences in the
    range has 0.00): one grouped query for all of them (the plan list's page of plans)."""
    grid = plans_year_cents(plan_ids=plan_ids, year_from=year_from, year_to=year_to)
    return {plan_id: grid.total(plan_id) for plan_id in plan_ids}


def plans_year_cents(*, plan_ids: Collection[Any], year_from: int, year_to: int) -> YearGrid:
    """The grid `plans_planned_cost` sums: each plan's today's prices per year of the range,
    keyed by plan id (its years read against an annual budget: the portfolio's years over
    budget). One grouped query."""
    live = live_in_range(
        Action.objects.filter(plan_id__in=list(plan_ids)), year_from=year_from, year_to=year_to
    )
    return year_cents(live, key="plan_id", years=list(range(year_from, year_to + 1)))


def years_over_budget(
    *, years: Sequence[int], totals: Sequence[Decimal], annual_budget: Decimal | None
) -> list[int]:
    """The years whose planned cost (today's prices, as the annual budget is) is above the
    annual budget; none without a budget. The planning page, the board report and the
    portfolio read them here."""
    if annual_budget is None:
        return []
    return [year for year, total in zip(years, totals, strict=True) if total > annual_budget]


def project_cost() -> Coalesce:
    """A project's cost, for `Project` querysets to annotate: the estimated cost of its actions,
    each once (a project is one piece of work in its year, whatever an action's interval), done
    ones included, cancelled ones left out; today's prices. Summed by the database, as the
    grouped figures above are: one query for a page of projects."""
    return Coalesce(
        Sum("actions__estimated_cost", filter=~Q(actions__status=ActionStatus.CANCELLED)),
        Decimal(0),
    )

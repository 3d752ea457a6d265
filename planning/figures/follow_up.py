"""Follow-up of a plan: what was planned for a year against what was done and what it cost
(docs/subsystems/follow-up.md), per year and per building, in today's prices.

For each year y of the range:
- planned: the estimated cost of every occurrence planned for y, done or not: the live
  occurrences (planning.figures.budget, as the planning page counts them) plus the completions of
  occurrences planned for y (their estimate when done); cancelled actions count nowhere;
- done: the completions dated in y, with their estimate when done;
- actual: the actual cost recorded on those completions, and how many have one;
- variance: actual minus estimate, over the completions of y that have an actual cost (a
  completion without one is left out rather than counted as free).

Two reads: the budget of the range (grouped queries) and the completions of the range.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Q

from core.text_order import natural_key
from planning.figures.budget import NO_BUILDING, plan_budget
from planning.figures.prices import TODAY
from planning.models import Completion, Plan
from planning.tree.selectors import building_labels

ZERO = Decimal("0.00")


@dataclass
class FollowUpRow:
    label: str
    planned: Decimal = ZERO
    done: int = 0
    done_estimate: Decimal = ZERO
    actual: Decimal = ZERO
    with_actual: int = 0
    compared_estimate: Decimal = ZERO  # the estimate of the completions that have an actual cost
    building_id: Any = None

    @property
    def variance(self) -> Decimal | None:
        """Actual minus estimate over the completions with an actual cost (None: none has)."""
        if not self.with_actual:
            return None
        return self.actual - self.compared_estimate

    @property
    def variance_percent(self) -> Decimal | None:
        variance = self.variance
        if variance is None or not self.compared_estimate:
            return None
        return (variance * 100 / self.compared_estimate).quantize(Decimal("0.1"))

    def add_completion(self, completion: Mapping[str, Any]) -> None:
        estimate = completion["estimated_cost"] or ZERO
        self.done += 1
        self.done_estimate += estimate
        if completion["actual_cost"] is not None:
            self.with_actual += 1
            self.actual += completion["actual_cost"]
            self.compared_estimate += estimate


@dataclass
class FollowUp:
    year_from: int
    year_to: int
    years: list[FollowUpRow]
    buildings: list[FollowUpRow]  # every building with something planned or done, natural order
    total: FollowUpRow = field(default_factory=lambda: FollowUpRow(label="Total"))


def plan_follow_up(*, plan: Plan, year_from: int, year_to: int) -> FollowUp:
    budget = plan_budget(plan=plan, year_from=year_from, year_to=year_to, prices=TODAY)
    years = {year: FollowUpRow(label=str(year)) for year in range(year_from, year_to + 1)}
    buildings: dict[Any, FollowUpRow] = defaultdict(lambda: FollowUpRow(label=""))
    for year, year_total in zip(budget.years, budget.year_totals, strict=True):
        years[year].planned += year_total
    for budget_row in budget.rows:
        buildings[budget_row.building_id].planned += budget_row.total

    completions = (
        Completion.objects.filter(action__plan=plan)
        .filter(
            Q(planned_year__gte=year_from, planned_year__lte=year_to)
            | Q(completed_on__year__gte=year_from, completed_on__year__lte=year_to)
        )
        .values(
            "planned_year",
            "completed_on",
            "estimated_cost",
            "actual_cost",
            "action__node__building_id",
        )
    )
    for completion in completions:
        building = buildings[completion["action__node__building_id"]]
        if year_from <= completion["planned_year"] <= year_to:
            estimate = completion["estimated_cost"] or ZERO
            years[completion["planned_year"]].planned += estimate
            building.planned += estimate
        done_year = completion["completed_on"].year
        if year_from <= done_year <= year_to:
            years[done_year].add_completion(completion)
            building.add_completion(completion)

    labels = building_labels(plan=plan, building_ids=[key for key in buildings if key])
    for key, building_row in buildings.items():
        building_row.building_id = key
        building_row.label = labels.get(key, "") if key else NO_BUILDING
    year_rows = list(years.values())
    total = FollowUpRow(label="Total")
    for year_row in year_rows:
        total.planned += year_row.planned
        total.done += year_row.done
        total.done_estimate += year_row.done_estimate
        total.actual += year_row.actual
        total.with_actual += year_row.with_actual
        total.compared_estimate += year_row.compared_estimate
    return FollowUp(
        year_from=year_from,
        year_to=year_to,
        years=year_rows,
        buildings=sorted(
            buildings.values(), key=lambda row: (row.building_id is None, natural_key(row.label))
        ),
        total=total,
    )

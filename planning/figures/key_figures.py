"""Key figures of a plan and of each of its buildings (docs/subsystems/money.md), for the year Y
they are computed in (this year):

- planned cost per m2 per year: the mean over the ten years from Y of the planned cost (today's
  prices, every occurrence counted, as the budget counts them) divided by the building's
  `gross_floor_area_m2`; for the plan, the plan's mean divided by the sum of the areas of the
  buildings that have one;
- maintenance debt: the cost (today's prices) of the live actions planned before Y, a recurring
  one once (its next occurrence is overdue);
- debt per m2: the debt divided by the area (the plan's by the sum of the areas).

Ratios are rounded half up to the cent; a building without an area has none. Three reads for
the plan: the ten-year budget (planning.figures.budget, which the planning page caches), the
debt per building (one grouped query) and the buildings' areas; two grouped queries for one
building.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from django.db.models import Q, Sum

from core.text_order import natural_key
from planning.core.money import amount_round
from planning.figures.budget import NO_BUILDING, Budget, plan_budget
from planning.figures.totals import YEARS, planned_total
from planning.models import CENT, Action, ActionStatus, NodeKind, Plan, StructureNode
from planning.tree.selectors import building_labels


@dataclass(frozen=True)
class KeyFigures:
    year: int  # Y
    building_id: uuid.UUID | None  # None: the plan as a whole (or actions outside buildings)
    name: str
    area: Decimal | None  # m2; for the plan, the sum of the areas given
    ten_year_cost: Decimal  # today's prices, the years Y to Y + 9
    debt: Decimal

    @property
    def year_span(self) -> str:
        return f"{self.year}\u2013{self.year + YEARS - 1}"

    @property
    def cost_per_m2_year(self) -> Decimal | None:
        if not self.area:
            return None
        return amount_round(Fraction(self.ten_year_cost) / YEARS / Fraction(self.area))

    @property
    def debt_per_m2(self) -> Decimal | None:
        if not self.area:
            return None
        return amount_round(Fraction(self.debt) / Fraction(self.area))


@dataclass(frozen=True)
class PlanSummary:
    plan: KeyFigures
    buildings: int
    buildings_with_area: int


@dataclass(frozen=True)
class PlanKeyFigures:
    year: int  # Y
    plan: KeyFigures
    buildings: list[KeyFigures]  # every building of the plan, by label
    buildings_with_area: int

    def summary(self) -> PlanSummary:
        counted = sum(1 for figures in self.buildings if figures.building_id is not None)
        return PlanSummary(self.plan, counted, self.buildings_with_area)


def maintenance_debt_q(year: int) -> Q:
    """The actions the maintenance debt of year Y = `year` counts: the live ones planned before
    Y (a recurring one once, at its estimated cost: its one overdue occurrence)."""
    return Q(status=ActionStatus.PLANNED, planned_year__lt=year)


def plans_maintenance_debt(*, plan_ids: Collection[Any], year: int) -> dict[Any, Decimal]:
    """Each plan's maintenance debt for year Y = `year` (the plan's key figure), by plan id:
    one grouped query for all of them."""
    debts = {
        plan_id: Decimal(str(total or 0)).quantize(CENT)
        for plan_id, total in Action.objects.filter(maintenance_debt_q(year), plan_id__in=plan_ids)
        .order_by()
        .values_list("plan_id")
        .annotate(total=Sum("estimated_cost"))
    }
    return {plan_id: debts.get(plan_id, Decimal("0.00")) for plan_id in plan_ids}


def ten_year_budget(*, plan: Plan, year: int) -> Budget:
    """The budget the key figures read: today's prices, the ten years from `year`."""
    return plan_budget(plan=plan, year_from=year, year_to=year + YEARS - 1)


def plan_key_figures(*, plan: Plan, year: int, budget: Budget | None = None) -> PlanKeyFigures:
    """The key figures for year Y = `year`; `budget` is ten_year_budget's (read when None)."""
    budget = budget if budget is not None else ten_year_budget(plan=plan, year=year)
    ten_years: dict[Any, Decimal] = {row.building_id: row.total for row in budget.rows}
    debts: dict[Any, Decimal] = {
        _uuid(building_id): Decimal(str(total or 0)).quantize(CENT)
        for building_id, total in Action.objects.filter(maintenance_debt_q(year), plan=plan)
        .order_by()
        .values_list("node__building_id")
        .annotate(total=Sum("estimated_cost"))
    }
    areas = dict(
        StructureNode.objects.filter(plan=plan, kind=NodeKind.BUILDING).values_list(
            "id", "gross_floor_area_m2"
        )
    )
    labels = building_labels(plan=plan, building_ids=list(areas))
    zero = Decimal("0.00")
    buildings = [
        KeyFigures(
            year=year,
            building_id=building_id,
            name=labels.get(building_id, ""),
            area=area,
            ten_year_cost=ten_years.get(building_id, zero),
            debt=debts.get(building_id, zero),
        )
        for building_id, area in areas.items()
    ]
    buildings.sort(key=lambda figures: (natural_key(figures.name), str(figures.building_id)))
    given = [figures.area for figures in buildings if figures.area]
    outside = (ten_years.get(None, zero), debts.get(None, zero))
    if any(outside):
        buildings.append(KeyFigures(year, None, NO_BUILDING, None, *outside))
    return PlanKeyFigures(
        year=year,
        plan=KeyFigures(
            year=year,
            building_id=None,
            name=plan.name,
            area=sum(given, Decimal(0)) if given else None,
            ten_year_cost=budget.total,
            debt=sum(debts.values(), zero),
        ),
        buildings=buildings,
        buildings_with_area=len(given),
    )


def building_key_figures(*, node: StructureNode, year: int) -> KeyFigures:
    """The key figures of one building for year Y = `year` (the actions whose stored building it
    is, as the budget counts them)."""
    mine = {"node__building_id": node.pk}
    ten_years = planned_total(
        actions=Action.objects.filter(plan_id=node.plan_id, **mine),
        year_from=year,
        year_to=year + YEARS - 1,
    )
    debt = Action.objects.filter(maintenance_debt_q(year), plan_id=node.plan_id, **mine).aggregate(
        total=Sum("estimated_cost")
    )["total"]
    return KeyFigures(
        year=year,
        building_id=node.pk,
        name=node.name,
        area=node.gross_floor_area_m2,
        ten_year_cost=ten_years,
        debt=Decimal(str(debt or 0)).quantize(CENT),
    )


def _uuid(value: Any) -> uuid.UUID | None:
    if value is None or isinstance(value, uuid.UUID):
        return value
    return uuid.UUID(str(value))

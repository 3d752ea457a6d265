"""The facility condition index (docs/subsystems/portfolio.md "Facility condition index"), per
building and for a plan, for many plans at once.

For year Y (this year) a building's FCI = its need / its replacement value, where

- the need is the today's cost of its live actions planned before Y (the maintenance debt of
  planning.figures.key_figures, a recurring action once: its one overdue occurrence) plus the
  today's cost of the live actions planned from Y on for its components graded 3 (each once:
  its next occurrence); an action is counted once even when it is both;
- its replacement value is its own `replacement_value`, else its `gross_floor_area_m2` times
  the organisation's `value_per_m2` when both are given and the plan's currency is the
  organisation catalog's (a value is never converted between currencies); else it has none, and
  no FCI.

A building's actions are those whose stored building it is (a nested building has its own), as
the key figures count them. The plan's FCI is the area-weighted mean of its buildings' FCIs:
sum(FCI x area) / sum(area) over the buildings with an FCI and an area; a portfolio's is the
same over every plan's buildings (`ConditionWeights` adds up). The band is read from the exact
ratio: good below 5 %, fair below 10 %, poor below 30 %, else critical.

Three queries for any number of plans: the plans' currencies and values per m2, their
buildings, and the needs grouped per building.
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
from planning.catalog.currency import catalog_currency_default
from planning.core.money import amount_of, amount_round
from planning.figures.key_figures import maintenance_debt_q
from planning.figures.occurrences import sum_cents
from planning.models import Action, ActionStatus, NodeKind, Plan, StructureNode

GOOD, FAIR, POOR, CRITICAL = "good", "fair", "poor", "critical"
# The upper edges (exclusive) of the bands, as fractions of the replacement value.
BAND_EDGES: tuple[tuple[Fraction, str], ...] = (
    (Fraction(5, 100), GOOD),
    (Fraction(10, 100), FAIR),
    (Fraction(30, 100), POOR),
)
GRADE_SEVERE = 3


def fci_band(fci: Fraction | None) -> str | None:
    """The band of an FCI (None for none)."""
    if fci is None:
        return None
    for edge, band in BAND_EDGES:
        if fci < edge:
            return band
    return CRITICAL


def fci_percent(fci: Fraction | None) -> Decimal | None:
    """An FCI as a percentage, rounded half up to 2 decimals."""
    return None if fci is None else amount_round(fci * 100)


@dataclass(frozen=True)
class BuildingCondition:
    building_id: uuid.UUID
    plan_id: uuid.UUID
    name: str
    area: Decimal | None
    replacement_value: Decimal | None  # the one the FCI divides by
    value_from_area: bool  # True: area x the organisation's value per m2
    debt: Decimal  # live actions planned before Y
    severe: Decimal  # live actions from Y on for components graded 3

    @property
    def need(self) -> Decimal:
        return self.debt + self.severe

    @property
    def fci(self) -> Fraction | None:
        if not self.replacement_value:
            return None
        return Fraction(self.need) / Fraction(self.replacement_value)

    @property
    def fci_percent(self) -> Decimal | None:
        return fci_percent(self.fci)

    @property
    def band(self) -> str | None:
        return fci_band(self.fci)


@dataclass(frozen=True)
class ConditionWeights:
    """What an area-weighted FCI is made of: sum(FCI x area) and sum(area) over the buildings
    with both, and how many buildings there are (with and without). Adds up across plans."""

    weighted: Fraction = Fraction(0)
    area: Fraction = Fraction(0)
    counted: int = 0  # buildings with an FCI and an area
    buildings: int = 0

    def __add__(self, other: ConditionWeights) -> ConditionWeights:
        return ConditionWeights(
            self.weighted + other.weighted,
            self.area + other.area,
            self.counted + other.counted,
            self.buildings + other.buildings,
        )

    @property
    def fci(self) -> Fraction | None:
        return self.weighted / self.area if self.area else None

    @property
    def fci_percent(self) -> Decimal | None:
        return fci_percent(self.fci)

    @property
    def band(self) -> str | None:
        return fci_band(self.fci)


@dataclass(frozen=True)
class PlanCondition:
    plan_id: uuid.UUID
    year: int  # Y
    buildings: list[BuildingCondition]  # by name

    @property
    def weights(self) -> ConditionWeights:
        weighted, area, counted = Fraction(0), Fraction(0), 0
        for building in self.buildings:
            fci = building.fci
            if fci is not None and building.area:
                weighted += fci * Fraction(building.area)
                area += Fraction(building.area)
                counted += 1
        return ConditionWeights(weighted, area, counted, len(self.buildings))

    def building(self, building_id: Any) -> BuildingCondition | None:
        return next((b for b in self.buildings if b.building_id == building_id), None)


def plans_condition(
    *, plan_ids: Collection[Any], year: int, building_ids: Collection[Any] | None = None
) -> dict[Any, PlanCondition]:
    """Each plan's buildings' FCI for year Y = `year`, by plan id (every plan asked for has an
    entry); `building_ids` keeps only these buildings (a building's page). Three queries."""
    plan_ids = list(plan_ids)
    values: dict[Any, Decimal | None] = {}
    for plan_id, currency, per_m2, catalog_currency in Plan.objects.filter(
        pk__in=plan_ids
    ).values_list(
        "pk", "currency", "organisation__value_per_m2", "organisation__catalog__currency"
    ):
        same = currency == (catalog_currency or catalog_currency_default())
        values[plan_id] = per_m2 if same else None
    nodes = StructureNode.objects.filter(plan_id__in=plan_ids, kind=NodeKind.BUILDING)
    actions = Action.objects.filter(
        plan_id__in=plan_ids, status=ActionStatus.PLANNED, node__building__isnull=False
    )
    if building_ids is not None:
        nodes = nodes.filter(pk__in=list(building_ids))
        actions = actions.filter(node__building_id__in=list(building_ids))
    overdue = maintenance_debt_q(year)
    severe = Q(node__condition_grade=GRADE_SEVERE) & ~overdue
    needs = {
        building_id: (sum_cents(debt), sum_cents(graded))
        for building_id, debt, graded in actions.filter(overdue | severe)
        .order_by()
        .values_list("node__building_id")
        .annotate(
            debt=Sum("estimated_cost", filter=overdue), graded=Sum("estimated_cost", filter=severe)
        )
    }
    buildings: dict[Any, list[BuildingCondition]] = {plan_id: [] for plan_id in plan_ids}
    for building_id, plan_id, name, area, own_value in nodes.order_by().values_list(
        "pk", "plan_id", "name", "gross_floor_area_m2", "replacement_value"
    ):
        per_m2 = values.get(plan_id)
        value, from_area = own_value, False
        if own_value is None and area is not None and per_m2 is not None:
            value, from_area = amount_round(Fraction(area) * Fraction(per_m2)), True
        debt, graded = needs.get(building_id, (0, 0))
        buildings.setdefault(plan_id, []).append(
            BuildingCondition(
                building_id=building_id,
                plan_id=plan_id,
                name=name,
                area=area,
                replacement_value=value,
                value_from_area=from_area,
                debt=amount_of(debt),
                severe=amount_of(graded),
            )
        )
    return {
        plan_id: PlanCondition(
            plan_id=plan_id,
            year=year,
            buildings=sorted(found, key=lambda b: (natural_key(b.name), str(b.building_id))),
        )
        for plan_id, found in buildings.items()
    }


def plan_condition(*, plan: Plan, year: int) -> PlanCondition:
    """One plan's `plans_condition`."""
    return plans_condition(plan_ids=[plan.pk], year=year)[plan.pk]


def building_condition(*, node: StructureNode, year: int) -> BuildingCondition | None:
    """One building's FCI figures (None for a node that is no building)."""
    if node.kind != NodeKind.BUILDING:
        return None
    found = plans_condition(plan_ids=[node.plan_id], year=year, building_ids=[node.pk])
    return found[node.plan_id].building(node.pk)

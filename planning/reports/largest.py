"""The board report's largest occurrences (docs/subsystems/board-report.md): the LARGEST_ACTIONS
costliest occurrences of planned actions in the horizon's first LARGEST_ACTIONS_YEARS years, a
recurring action once per occurrence, in the report's prices, found in one pass over the live
actions with a heap (planning.figures.occurrences expands them as every figure does)."""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from planning.core.money import amount_of, cents_of
from planning.figures.occurrences import live_actions, occurrence_years
from planning.figures.prices import NOMINAL, PriceIndex
from planning.models import Action, Plan, StructureNode
from planning.tree.selectors import building_labels

LARGEST_ACTIONS = 20
LARGEST_ACTIONS_YEARS = 5


@dataclass(frozen=True)
class Occurrence:
    """One occurrence of a planned action in a year, at its cost in the report's prices."""

    year: int
    cost: Decimal
    title: str
    node_name: str
    building: str
    recurring: bool


def largest_occurrences(
    *, plan: Plan, year_from: int, year_to: int, prices: str, limit: int = LARGEST_ACTIONS
) -> list[Occurrence]:
    """The `limit` costliest occurrences of planned actions from `year_from` to `year_to`
    (a recurring action once per occurrence), in the given prices, costliest first. One pass
    over the live actions of the range, keeping the top `limit` on a heap."""
    index = PriceIndex.of(plan)
    nominal = prices == NOMINAL and not index.is_neutral
    rows = (
        live_actions(plan=plan, year_from=year_from, year_to=year_to)
        .values_list("pk", "planned_year", "interval_years", "estimated_cost")
        .iterator(chunk_size=5000)
    )
    top: list[tuple[int, int, Any]] = []  # (cents, -year, action id): ties go to the earlier
    for pk, planned_year, interval, cost in rows:
        cents = cents_of(Decimal(cost))
        for year in occurrence_years(
            planned_year=planned_year, interval_years=interval, first=year_from, last=year_to
        ):
            value = index.nominal_cents(cents, year) if nominal else cents
            item = (value, -year, pk)
            if len(top) < limit:
                heapq.heappush(top, item)
            elif item > top[0]:
                heapq.heapreplace(top, item)
    ranked = sorted(top, reverse=True)
    actions = Action.objects.select_related("node").in_bulk({pk for _, _, pk in ranked})
    building_ids = {
        actions[pk].node.building_id for _, _, pk in ranked if actions[pk].node.building_id
    }
    labels = building_labels(plan=plan, building_ids=list(building_ids))
    found = []
    for cents, minus_year, pk in ranked:
        action = actions[pk]
        node: StructureNode = action.node
        found.append(
            Occurrence(
                year=-minus_year,
                cost=amount_of(cents),
                title=action.title,
                node_name=node.name,
                building=labels.get(node.building_id, "") if node.building_id else "",
                recurring=action.interval_years is not None,
            )
        )
    return found

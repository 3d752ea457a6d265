"""Reads for survey mode (docs/subsystems/survey-mode.md "The component list"): the buildings of
a plan, searched and paged, and the components of one building in tree order.

- `building_search`: a page of the plan's buildings whose name contains every word of a query,
  in natural order ("Building 2" before "Building 10").
- `building_walk`: the components whose building is this one, in the order a person walks the
  tree: depth first, siblings in natural order, each with where it sits below the building.

Both read the stored building of each node (planning.tree.paths), one query each: a building of
2,000 components is one query of 2,000 short rows, ordered in Python in a few milliseconds.
"""

from __future__ import annotations

import datetime
import uuid
from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from django.core.paginator import Page, Paginator
from django.db.models import Q

from core.text_order import natural_key
from planning.models import NodeKind, Plan, StructureNode

BUILDINGS_PER_PAGE = 25
# Words of a building search that are looked at; the rest are ignored.
SEARCH_WORDS = 10


def building_search(*, plan: Plan, query: str, page: Any) -> Page[tuple[uuid.UUID, str]]:
    """A page of (id, name) of the plan's buildings matching every word of `query` (name or
    code), in natural order; `page` is the page number as typed (a bad one gives the nearest)."""
    buildings = StructureNode.objects.filter(plan=plan, kind=NodeKind.BUILDING)
    for word in query.split()[:SEARCH_WORDS]:
        buildings = buildings.filter(Q(name__icontains=word) | Q(code__code__icontains=word))
    rows = sorted(
        buildings.values_list("id", "name"), key=lambda row: (natural_key(row[1]), str(row[0]))
    )
    return Paginator(rows, BUILDINGS_PER_PAGE).get_page(page)


@dataclass(frozen=True)
class WalkStep:
    """One component of a building's walk, with what survey mode shows of it."""

    id: uuid.UUID
    name: str
    place: str  # the names of the nodes between the building and the component
    code: str
    grade: int | None
    consequence: int | None
    assessed_on: datetime.date | None


def building_walk(*, plan: Plan, building: StructureNode) -> list[WalkStep]:
    """The building's components in tree order (depth first, siblings by name as people read
    them, then id); a component below another component follows it."""
    rows = StructureNode.objects.filter(plan=plan, building=building).values(
        "id",
        "parent_id",
        "kind",
        "name",
        "code__code",
        "condition_grade",
        "condition_consequence",
        "condition_assessed_on",
    )
    children: dict[Any, list[Any]] = defaultdict(list)
    for row in rows:
        if row["id"] != building.pk:
            children[row["parent_id"]].append(row)
    for kids in children.values():
        kids.sort(key=lambda row: (natural_key(row["name"]), row["id"]))  # UUIDs compare

    steps: list[WalkStep] = []
    # An explicit stack: a structure may be 50 levels deep, and the walk must not recurse.
    stack: list[tuple[Any, tuple[str, ...]]] = [
        (row, ()) for row in reversed(children.get(building.pk, []))
    ]
    while stack:
        row, above = stack.pop()
        if row["kind"] == NodeKind.COMPONENT:
            steps.append(
                WalkStep(
                    id=row["id"],
                    name=row["name"],
                    place=" \u203a ".join(above),
                    code=row["code__code"] or "",
                    grade=row["condition_grade"],
                    consequence=row["condition_consequence"],
                    assessed_on=row["condition_assessed_on"],
                )
            )
        below = (*above, row["name"])
        stack.extend((kid, below) for kid in reversed(children.get(row["id"], [])))
    return steps

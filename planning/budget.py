"""The planned budget of a plan for the action-planning view: live (planned) actions summed per
building and year over a range of years, with the grand total per year, the rows of one building
on request, and the cost chart drawn from the same figures.

Each action counts for its node's stored building (planning.tree: the node itself or its
nearest building ancestor; "(no building)" when there is none), as the project-grouping rule
anchors it. Two grouped queries (per building and year over the actions joined to their
nodes, per kind and year over the actions alone), so the view reads buildings x years rows,
never every action or every node. Rows are per building id:
two buildings with the same name stay two rows, told apart by their labels
(planning.tree.building_labels). The action-planning view keeps the result in the cache
(planning.suggestions.figures_cache).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import Count, Sum

from planning.models import CENT, Action, ActionKind, ActionStatus, Plan, StructureNode
from planning.tree import building_labels, node_subtree

YEARS_DEFAULT = 10  # this year and the next nine
YEARS_MAX = 30
BUILDINGS_PER_PAGE = 25
BUILDING_ROWS_MAX = 200  # node rows of one opened building
CHART_SERIES_MAX = 6  # buildings drawn on their own in the chart; the rest are "Other buildings"
NO_BUILDING = "(no building)"


def _money(value: Any) -> Decimal:
    # SQLite sums come back as floats or ints: round to the cent as the column stores it.
    return Decimal(str(value or 0)).quantize(CENT)


def _as_uuid(value: Any) -> uuid.UUID | None:
    if value is None:
        return None
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


@dataclass
class BudgetRow:
    building_id: uuid.UUID | None  # None: actions outside any building
    name: str  # the building's label: its name, unique within the plan (building_labels)
    cells: list[Decimal]
    counts: list[int]
    total: Decimal


@dataclass
class ChartSeries:
    label: str
    values: list[Decimal]
    css_class: str


@dataclass
class Budget:
    years: list[int]
    rows: list[BudgetRow]  # every building with planned cost in the range, by name
    year_totals: list[Decimal]
    total: Decimal
    by_kind: list[ChartSeries]

    def by_building(self) -> list[ChartSeries]:
        """The largest buildings on their own, the rest summed as one series."""
        ranked = sorted(self.rows, key=lambda row: row.total, reverse=True)
        series = [
            ChartSeries(label=row.name, values=row.cells, css_class=f"series-{index}")
            for index, row in enumerate(ranked[:CHART_SERIES_MAX])
        ]
        rest = ranked[CHART_SERIES_MAX:]
        if rest:
            values = [sum((row.cells[i] for row in rest), CENT * 0) for i in range(len(self.years))]
            series.append(
                ChartSeries(
                    label=f"{len(rest)} other buildings",
                    values=values,
                    css_class=f"series-{CHART_SERIES_MAX}",
                )
            )
        return series


def plan_budget(*, plan: Plan, year_from: int, year_to: int) -> Budget:
    """Planned cost per building and year (and per action kind and year) from `year_from` to
    `year_to` inclusive."""
    years = list(range(year_from, year_to + 1))
    index = {year: i for i, year in enumerate(years)}
    cells: dict[Any, list[Decimal]] = defaultdict(lambda: [CENT * 0] * len(years))
    counts: dict[Any, list[int]] = defaultdict(lambda: [0] * len(years))
    kinds: dict[str, list[Decimal]] = {kind: [CENT * 0] * len(years) for kind in ActionKind.values}
    live = Action.objects.filter(
        plan=plan,
        status=ActionStatus.PLANNED,
        planned_year__gte=year_from,
        planned_year__lte=year_to,
    ).order_by()
    per_building = live.values_list("node__building_id", "planned_year").annotate(
        total=Sum("estimated_cost"), count=Count("id")
    )
    for building_id, year, total, count in per_building:
        key = _as_uuid(building_id)
        cells[key][index[year]] += _money(total)
        counts[key][index[year]] += count
    # Per kind without the join: a third of the rows that grouping by building and kind gave.
    for year, kind, total in live.values_list("planned_year", "kind").annotate(
        total=Sum("estimated_cost")
    ):
        if kind in kinds:
            kinds[kind][index[year]] += _money(total)
    names = building_labels(plan=plan, building_ids=[k for k in cells if k is not None])
    rows = [
        BudgetRow(
            building_id=key,
            name=names.get(key, "") if key is not None else NO_BUILDING,
            cells=values,
            counts=counts[key],
            total=sum(values, CENT * 0),
        )
        for key, values in cells.items()
    ]
    rows.sort(key=lambda row: (row.building_id is None, row.name.casefold(), str(row.building_id)))
    year_totals = [sum((row.cells[i] for row in rows), CENT * 0) for i in range(len(years))]
    return Budget(
        years=years,
        rows=rows,
        year_totals=year_totals,
        total=sum(year_totals, CENT * 0),
        by_kind=[
            ChartSeries(label=ActionKind(kind).label, values=values, css_class=f"kind-{kind}")
            for kind, values in kinds.items()
        ],
    )


@dataclass
class NodeBudgetRow:
    node: Any
    cells: list[Decimal] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    total: Decimal = CENT * 0


def building_budget_rows(
    *, plan: Plan, building_id: Any, year_from: int, year_to: int
) -> tuple[list[NodeBudgetRow], int]:
    """The nodes of one building's subtree with planned cost in the range, with their cost per
    year (at most BUILDING_ROWS_MAX, the costliest first), and how many more there are. A node
    inside a nested building counts here too: the rows show where the money goes."""
    years = list(range(year_from, year_to + 1))
    index = {year: i for i, year in enumerate(years)}
    grouped = (
        Action.objects.filter(
            plan=plan,
            status=ActionStatus.PLANNED,
            planned_year__gte=year_from,
            planned_year__lte=year_to,
            node_id__in=node_subtree(node_id=building_id).values("id"),
        )
        .values("node_id", "planned_year")
        .order_by()
        .annotate(total=Sum("estimated_cost"), count=Count("id"))
        .values_list("node_id", "planned_year", "total", "count")
    )
    rows: dict[Any, NodeBudgetRow] = {}
    for node_id, year, total, count in grouped:
        row = rows.setdefault(
            node_id,
            NodeBudgetRow(node=None, cells=[CENT * 0] * len(years), counts=[0] * len(years)),
        )
        row.cells[index[year]] = _money(total)
        row.counts[index[year]] = count
    for row in rows.values():
        row.total = sum(row.cells, CENT * 0)
    ranked = sorted(rows.items(), key=lambda item: item[1].total, reverse=True)
    shown = dict(ranked[:BUILDING_ROWS_MAX])
    nodes = StructureNode.objects.filter(plan=plan, pk__in=list(shown)).select_related("code")
    for node in nodes:
        shown[node.pk].node = node
    ordered = sorted(
        (row for row in shown.values() if row.node is not None),
        key=lambda row: row.node.name.casefold(),
    )
    return ordered, max(len(rows) - BUILDING_ROWS_MAX, 0)

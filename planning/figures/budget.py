"""The planned budget of a plan for the action-planning view and the budget export: live
(planned) actions summed per building and year over a range of years, in today's or in nominal
prices (docs/subsystems/money.md), with the grand total per year, the rows of one building on
request, and the cost chart drawn from the same figures.

Each action counts for its node's stored building (planning.tree: the node itself or its
nearest building ancestor; "(no building)" when there is none), as the project-grouping rule
anchors it, once for every occurrence in the range: a recurring action (`interval_years` n) in
planned_year, + n, + 2n, ... (planning.figures.occurrences.occurrence_years). Rows are per
building id: two buildings with the same name stay two rows, told apart by their labels
(planning.tree.selectors.building_labels). The action-planning view keeps the result in the cache
(planning.figures.cache).

Today's prices are linear, so they come from grouped queries (per building, year and interval
over the actions joined to their nodes; per kind, year and interval over the actions alone),
which read buildings x years rows, never every action. A nominal figure is rounded per
occurrence, so a sum of them needs every action's cost: one query reads the live actions of the
range (five columns) and one pass adds each occurrence's nominal cents (PriceIndex.nominal_cents:
an integer multiplication and division); at 100,000 actions that pass is measured in
docs/subsystems/money.md. Sums are kept in whole cents and become amounts at the end.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from decimal import Decimal
from itertools import groupby
from operator import itemgetter
from typing import Any

from core.text_order import natural_key
from planning.core.money import amount_of, cents_of
from planning.figures.occurrences import (
    YearGrid,
    live_actions,
    live_in_range,
    nominal_rows,
    year_cents,
)
from planning.figures.prices import NOMINAL, TODAY, PriceIndex
from planning.models import CENT, Action, ActionKind, Plan, StructureNode
from planning.tree.selectors import building_labels, node_subtree

YEARS_DEFAULT = 10  # this year and the next nine
YEARS_MAX = 30
BUILDINGS_PER_PAGE = 25
BUILDING_ROWS_MAX = 200  # node rows of one opened building
CHART_SERIES_MAX = 6  # buildings drawn on their own in the chart; the rest are "Other buildings"
NO_BUILDING = "(no building)"


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
    rest: bool = False  # "N other buildings": drawn muted, never setting the scale (chart.py)


@dataclass
class Budget:
    years: list[int]
    rows: list[BudgetRow]  # every building with planned cost in the range, by name
    year_totals: list[Decimal]
    total: Decimal
    by_kind: list[ChartSeries]
    prices: str = TODAY  # TODAY or NOMINAL

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (the figures cache) as whole cents: a Decimal pickles as text, and reading
        the page's budget back was a good part of the planning page's time."""
        rows = [
            (row.building_id, row.name, [cents_of(cell) for cell in row.cells], row.counts)
            for row in self.rows
        ]
        kinds = [
            (series.label, [cents_of(value) for value in series.values], series.css_class)
            for series in self.by_kind
        ]
        return (_budget_restore, (self.years, rows, kinds, self.prices))

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
                    label=f"{len(rest):,} other building{'s' if len(rest) > 1 else ''}",
                    values=values,
                    css_class=f"series-{CHART_SERIES_MAX}",
                    rest=True,
                )
            )
        return series


def _budget_restore(
    years: list[int],
    rows: list[tuple[uuid.UUID | None, str, list[int], list[int]]],
    kinds: list[tuple[str, list[int], str]],
    prices: str,
) -> Budget:
    restored = [
        BudgetRow(
            building_id=building_id,
            name=name,
            cells=[amount_of(cents) for cents in cells],
            counts=counts,
            total=amount_of(sum(cells)),
        )
        for building_id, name, cells, counts in rows
    ]
    year_totals = [amount_of(sum(row[2][i] for row in rows)) for i in range(len(years))]
    return Budget(
        years=years,
        rows=restored,
        year_totals=year_totals,
        total=sum(year_totals, CENT * 0),
        by_kind=[
            ChartSeries(label=label, values=[amount_of(cents) for cents in values], css_class=css)
            for label, values, css in kinds
        ],
        prices=prices,
    )


def plan_budget(*, plan: Plan, year_from: int, year_to: int, prices: str = TODAY) -> Budget:
    """Planned cost per building and year (and per action kind and year) from `year_from` to
    `year_to` inclusive, in today's prices or nominal (`prices`)."""
    if prices == NOMINAL:
        return plan_budgets(plan=plan, year_from=year_from, year_to=year_to)[1]
    years = list(range(year_from, year_to + 1))
    live = live_actions(plan=plan, year_from=year_from, year_to=year_to)
    buildings = year_cents(live, key="node__building_id", years=years)
    # Per kind without the join: a third of the rows that grouping by building and kind gave.
    kinds = year_cents(live, key="kind", years=years)
    return _budget_of(plan, years, buildings, kinds, TODAY)


def plan_budgets(*, plan: Plan, year_from: int, year_to: int) -> tuple[Budget, Budget]:
    """The budget of the range in today's prices and nominal, from one pass over the live
    actions (the nominal page and the export need both: the key figures and the annual budget
    are in today's prices)."""
    if PriceIndex.of(plan).is_neutral:  # nominal is today's prices: no pass needed
        today = plan_budget(plan=plan, year_from=year_from, year_to=year_to)
        return today, replace(today, prices=NOMINAL)
    years = list(range(year_from, year_to + 1))
    grids = [YearGrid(years) for _ in range(4)]
    live = live_actions(plan=plan, year_from=year_from, year_to=year_to)
    grids[2].add_nominal(
        nominal_rows(live, "node__building_id"),
        PriceIndex.of(plan),
        kinds=grids[3],
        today=grids[0],
        today_kinds=grids[1],
    )
    return (
        _budget_of(plan, years, grids[0], grids[1], TODAY),
        _budget_of(plan, years, grids[2], grids[3], NOMINAL),
    )


def _budget_of(
    plan: Plan, years: list[int], buildings: YearGrid, kinds: YearGrid, prices: str
) -> Budget:
    keys = [_as_uuid(key) for key in buildings.cents]
    names = building_labels(plan=plan, building_ids=[k for k in keys if k is not None])
    rows = []
    for raw_key, key in zip(buildings.cents, keys, strict=True):
        cells = buildings.amounts(raw_key)
        rows.append(
            BudgetRow(
                building_id=key,
                name=names.get(key, "") if key is not None else NO_BUILDING,
                cells=cells,
                counts=buildings.counts[raw_key],
                total=sum(cells, CENT * 0),
            )
        )
    # Natural order of names (Building 2 before Building 10), "(no building)" last.
    rows.sort(
        key=lambda row: (row.building_id is None, natural_key(row.name), str(row.building_id))
    )
    year_totals = [sum((row.cells[i] for row in rows), CENT * 0) for i in range(len(years))]
    return Budget(
        years=years,
        rows=rows,
        year_totals=year_totals,
        total=sum(year_totals, CENT * 0),
        by_kind=[
            ChartSeries(
                label=ActionKind(kind).label, values=kinds.amounts(kind), css_class=f"kind-{kind}"
            )
            for kind in ActionKind.values
        ],
        prices=prices,
    )


@dataclass
class NodeBudgetRow:
    node: Any
    cells: list[Decimal] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)
    total: Decimal = CENT * 0


def building_budget_rows(
    *, plan: Plan, building_id: Any, year_from: int, year_to: int, prices: str = TODAY
) -> tuple[list[NodeBudgetRow], int]:
    """The nodes of one building's subtree with planned cost in the range, with their cost per
    year (at most BUILDING_ROWS_MAX, the costliest first), and how many more there are. A node
    inside a nested building counts here too: the rows show where the money goes."""
    years = list(range(year_from, year_to + 1))
    live = live_actions(plan=plan, year_from=year_from, year_to=year_to).filter(
        node_id__in=node_subtree(node_id=building_id).values("id")
    )
    index = PriceIndex.of(plan)
    if prices == NOMINAL and not index.is_neutral:
        grid = YearGrid(years)
        years_grids = [YearGrid(years) for _ in range(3)]
        grid.add_nominal(
            nominal_rows(live, "node_id"),
            index,
            kinds=years_grids[0],
            today=years_grids[1],
            today_kinds=years_grids[2],
        )
    else:
        grid = year_cents(live, key="node_id", years=years)
    rows: dict[Any, NodeBudgetRow] = {}
    for node_id in grid.cents:
        cells = grid.amounts(node_id)
        rows[_as_uuid(node_id)] = NodeBudgetRow(
            node=None, cells=cells, counts=grid.counts[node_id], total=sum(cells, CENT * 0)
        )
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


def plans_nominal_year_cents(
    *,
    plans: Sequence[Plan],
    year_from: int,
    year_to: int,
    index_rate_percent: Decimal | None = None,
) -> dict[uuid.UUID, list[int]]:
    """Each plan's nominal cost of every year from `year_from` to `year_to` in whole cents (E_t
    of docs/subsystems/funding.md: live occurrences, every markup, each occurrence rounded on its
    own as every nominal figure is), by plan id: one query for all of them. With
    `index_rate_percent`, the costs are indexed by that rate instead of each plan's own (a
    funding scenario's other index). The year totals equal the nominal budget's `year_totals`."""
    years = list(range(year_from, year_to + 1))
    indexes = {}
    for plan in plans:
        index = PriceIndex.of(plan)
        if index_rate_percent is not None:
            index = replace(index, index_rate_percent=Decimal(index_rate_percent))
        indexes[plan.pk] = index
    found = {pk: [0] * len(years) for pk in indexes}
    live = live_in_range(
        Action.objects.filter(plan_id__in=list(indexes)), year_from=year_from, year_to=year_to
    )
    neutral = [pk for pk, index in indexes.items() if index.is_neutral]
    if neutral:  # nominal is today's prices: a grouped query, no pass
        grid = year_cents(live.filter(plan_id__in=neutral), key="plan_id", years=years)
        found.update({uuid.UUID(str(key)): cells for key, cells in grid.cents.items()})
    rows = nominal_rows(live.exclude(plan_id__in=neutral), "plan_id").order_by("plan_id")
    for raw_key, group in groupby(rows.iterator(chunk_size=5000), key=itemgetter(0)):
        key = uuid.UUID(str(raw_key))
        grid, *spare = (YearGrid(years) for _ in range(4))
        grid.add_nominal(group, indexes[key], kinds=spare[0], today=spare[1], today_kinds=spare[2])
        found[key] = grid.cents[raw_key]
    return found

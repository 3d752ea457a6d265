"""The plan's actions and its budget (planned cost per building and year) as rows for CSV and
XLSX downloads.

Cells are neutralised for spreadsheets: a text that Excel or LibreOffice would read as a formula
(first character `=`, `+`, `-`, `@`, or a tab / carriage return before one) is written with a
leading apostrophe, so a node named `=HYPERLINK("...")` stays text (OWASP "CSV injection").
Amounts are numbers in XLSX and plain decimals ("1234.50") in CSV, where every text cell is quoted
(see `as_csv`).

Paths come from one read of the plan's nodes (names, stored paths and buildings), so an export of
100,000 actions makes a fixed number of queries. Both exports name a building by its label
(planning.tree.building_labels, as the budget page does), and the budget sums per building id:
two buildings with the same name stay two rows, told apart by their labels.
"""

from __future__ import annotations

import csv
import io
import re
from collections import defaultdict
from collections.abc import Iterable, Iterator
from decimal import Decimal
from typing import Any

from django.db.models import Sum
from openpyxl import Workbook

from planning.action_list import ActionFilters, actions_filtered
from planning.budget import NO_BUILDING
from planning.models import CENT, ActionStatus, Plan, StructureNode
from planning.tree import building_labels, path_ids

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
ACTION_HEADER = (
    "Node path",
    "Building",
    "Code",
    "Title",
    "Kind",
    "Year",
    "Estimated cost",
    "Currency",
    "Status",
    "Project",
)


def spreadsheet_safe(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


class _Places:
    """Each node's path (names from the root, " / "-joined) and its building's label."""

    def __init__(self, plan: Plan) -> None:
        self.rows = {
            node_id: (name, path, building_id)
            for node_id, name, path, building_id in StructureNode.objects.filter(
                plan=plan
            ).values_list("id", "name", "path", "building_id")
        }
        self.labels = building_labels(
            plan=plan, building_ids={row[2] for row in self.rows.values() if row[2] is not None}
        )
        self._paths: dict[Any, str] = {}

    def path(self, node_id: Any) -> str:
        if node_id not in self._paths:
            name, path, _building = self.rows[node_id]
            names = [self.rows[a][0] for a in path_ids(path) if a in self.rows]
            self._paths[node_id] = " / ".join([*names, name])
        return self._paths[node_id]

    def building(self, node_id: Any) -> str:
        return self.labels.get(self.rows[node_id][2], "")


def action_rows(*, plan: Plan, filters: ActionFilters) -> Iterator[tuple[Any, ...]]:
    """The header, then one row per action matching `filters`, in the list's order."""
    places = _Places(plan)
    yield ACTION_HEADER
    actions = actions_filtered(plan=plan, filters=filters).values_list(
        "node_id",
        "node__code__code",
        "title",
        "kind",
        "planned_year",
        "estimated_cost",
        "status",
        "project__name",
    )
    # Empty text, not None, for an action without code or project: the same cell in both formats.
    for node_id, code, title, kind, year, cost, status, project in actions.iterator(2000):
        yield (
            places.path(node_id),
            places.building(node_id),
            code or "",
            title,
            kind,
            year,
            cost,
            plan.currency,
            status,
            project or "",
        )


def budget_rows(*, plan: Plan) -> Iterator[tuple[Any, ...]]:
    """Planned cost (live actions) per building and year: a header of years, one row per
    building by its label (actions outside any building under "(no building)"), and a total
    row."""
    sums: dict[Any, dict[int, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    grouped = (
        plan.actions.filter(status=ActionStatus.PLANNED)
        .order_by()
        .values_list("node__building_id", "planned_year")
        .annotate(total=Sum("estimated_cost"))
    )
    for building_id, year, total in grouped:
        sums[building_id][year] += Decimal(total)
    labels = building_labels(plan=plan, building_ids=[b for b in sums if b is not None])
    rows = sorted(
        ((labels.get(b, "") if b is not None else NO_BUILDING, str(b or ""), b) for b in sums),
        key=lambda row: (row[2] is not None, row[0], row[1]),
    )
    years = sorted({year for by_year in sums.values() for year in by_year})
    yield ("Building", *years, "Total")
    totals: dict[int, Decimal] = defaultdict(Decimal)
    for label, _id, building_id in rows:
        by_year = sums[building_id]
        cells = [by_year.get(year, Decimal(0)).quantize(CENT) for year in years]
        for year, cell in zip(years, cells, strict=True):
            totals[year] += cell
        yield (label, *cells, sum(cells, Decimal(0)).quantize(CENT))
    year_totals = [totals[year].quantize(CENT) for year in years]
    yield ("Total", *year_totals, sum(year_totals, Decimal(0)).quantize(CENT))


# In a CSV cell, a formula character after a separator some spreadsheet may split on (comma,
# semicolon, tab, line break), past any spaces, quotes and further separators: see as_csv.
CSV_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t\r\n][,;\t\r\n \"]*)(?=[=+\-@])")


def as_csv(rows: Iterable[tuple[Any, ...]]) -> bytes:
    """UTF-8 with a byte-order mark, which Excel needs to read accents right.

    A spreadsheet reads a CSV with its locale's separator (a semicolon in most of Europe), so
    no cell may turn into a formula whichever of comma, semicolon or tab splits it:

    - every text cell is quoted, numbers are not (``QUOTE_NONNUMERIC``; Python's default quotes
      only cells with a comma, and left ``Roof;=HYPERLINK(B1);`` bare);
    - each cell is neutralised as above, and so is a formula character that follows a
      separator inside a cell (``Fix;@SUM(A1)`` is written ``Fix;'@SUM(A1)``): a reader
      splitting on another separator than ours sees our quotes only around a line's first
      cell and starts a new cell at such a separator, and the apostrophe then leads it.

    Any CSV reader, the plan import's included, reads the quoted cells back as written.
    """
    buffer = io.StringIO()
    writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC)
    for row in rows:
        writer.writerow([_csv_safe(value) for value in row])
    return ("\ufeff" + buffer.getvalue()).encode()


def _csv_safe(value: Any) -> Any:
    value = spreadsheet_safe(value)
    # search first: a match is rare, and sub alone costs 1 µs a cell even without one.
    if isinstance(value, str) and CSV_FORMULA_AFTER_SEPARATOR.search(value):
        return CSV_FORMULA_AFTER_SEPARATOR.sub(r"\1'", value)
    return value


def as_xlsx(rows: Iterable[tuple[Any, ...]], *, title: str) -> bytes:
    workbook = Workbook(write_only=True)
    sheet = workbook.create_sheet(title=title[:31])
    for row in rows:
        sheet.append(
            [
                float(value) if isinstance(value, Decimal) else spreadsheet_safe(value)
                for value in row
            ]
        )
    buffer = io.BytesIO()
    workbook.save(buffer)
    return buffer.getvalue()

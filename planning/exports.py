"""The plan's actions and its budget (planned cost per building and year) as rows for CSV and
XLSX downloads.

Cells are neutralised for spreadsheets: a text that Excel or LibreOffice would read as a formula
(first character `=`, `+`, `-`, `@`, or a tab / carriage return before one) is written with a
leading apostrophe, so a node named `=HYPERLINK("...")` stays text (OWASP "CSV injection").
Amounts are numbers in XLSX and plain decimals ("1234.50") in CSV, where every text cell is quoted
(see `as_csv`).

Paths and buildings come from one read of the plan's nodes (planning.tree's structure rows), so an
export of 100,000 actions makes a fixed number of queries.
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
from planning.models import CENT, ActionStatus, NodeKind, Plan, StructureNode

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
    """Each node's path (names from the root, " / "-joined) and building name."""

    def __init__(self, plan: Plan) -> None:
        self.rows = {
            node_id: (parent_id, kind, name)
            for node_id, parent_id, kind, name in StructureNode.objects.filter(
                plan=plan
            ).values_list("id", "parent_id", "kind", "name")
        }
        self._paths: dict[Any, tuple[str, str]] = {}

    def of(self, node_id: Any) -> tuple[str, str]:
        if node_id in self._paths:
            return self._paths[node_id]
        chain: list[Any] = []
        current = node_id
        while current is not None and current in self.rows and len(chain) <= len(self.rows):
            chain.append(current)
            current = self.rows[current][0]
        names = [self.rows[n][2] for n in reversed(chain)]
        buildings = [
            self.rows[n][2] for n in reversed(chain) if self.rows[n][1] == NodeKind.BUILDING
        ]
        place = (" / ".join(names), buildings[-1] if buildings else "")
        self._paths[node_id] = place
        return place


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
        path, building = places.of(node_id)
        yield (
            path,
            building,
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
    building (actions outside any building under "(no building)"), and a total row."""
    places = _Places(plan)
    sums: dict[str, dict[int, Decimal]] = defaultdict(lambda: defaultdict(Decimal))
    grouped = (
        plan.actions.filter(status=ActionStatus.PLANNED)
        .values("node_id", "planned_year")
        .order_by()
        .annotate(total=Sum("estimated_cost"))
        .values_list("node_id", "planned_year", "total")
    )
    for node_id, year, total in grouped:
        building = places.of(node_id)[1] or "(no building)"
        sums[building][year] += Decimal(total)
    years = sorted({year for by_year in sums.values() for year in by_year})
    yield ("Building", *years, "Total")
    totals: dict[int, Decimal] = defaultdict(Decimal)
    for building in sorted(sums):
        by_year = sums[building]
        cells = [by_year.get(year, Decimal(0)).quantize(CENT) for year in years]
        for year, cell in zip(years, cells, strict=True):
            totals[year] += cell
        yield (building, *cells, sum(cells, Decimal(0)).quantize(CENT))
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

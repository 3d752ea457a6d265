"""The plan's actions and its budget (planned cost per building and year) as rows for CSV and
XLSX downloads, both streamed (`csv_stream`, planning.transfer.xlsx).

CSV cells are neutralised for spreadsheets: a text that Excel or LibreOffice would read as a
formula (first character `=`, `+`, `-`, `@`, or a tab / carriage return before one) is written
with a leading apostrophe, so a node named `=HYPERLINK("...")` stays text (OWASP "CSV
injection"); every text cell is quoted (see `csv_stream`). In XLSX every text is an inline
string, which a spreadsheet never evaluates, so it is written as it is. Amounts are numbers in
XLSX (with a money format) and plain decimals ("1234.50") in CSV.

Paths come from one read of the plan's nodes (names, stored paths and buildings), so an export of
100,000 actions makes a fixed number of queries. Both exports name a building by its label
(planning.tree.selectors.building_labels, as the budget page does), and the budget sums per
building id: two buildings with the same name stay two rows, told apart by their labels.

Every amount is there twice, in today's prices and nominal (docs/design.md "Money"); the unit
(currency, and what nominal means for this plan) is stated once, in the header.

`plan_document` is the plan itself in the import format (docs/design.md "Imports"): it
re-imports to the same plan, and the export of that plan is the same file.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import re
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from itertools import islice
from typing import Any

from django.db.models import Max, Min, OuterRef, Subquery

from core.text_order import natural_key
from planning.core.money import amount_of, cents_of
from planning.figures.budget import YEARS_DEFAULT, Budget
from planning.figures.key_figures import KeyFigures, PlanKeyFigures
from planning.figures.prices import NOMINAL, PriceIndex, markups_parse, markups_text, year_span
from planning.models import (
    CENT,
    ActionKind,
    ActionStatus,
    Completion,
    NodeKind,
    Plan,
    StructureNode,
)
from planning.plans.action_filters import ActionFilters, actions_filtered
from planning.transfer.imports.plan_document import ACTION_FIELDS, NODE_FIELDS, PLAN_TABLE_FIELDS
from planning.transfer.xlsx import xlsx_stream
from planning.tree.paths import path_ids
from planning.tree.selectors import building_labels

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def today_unit(plan: Plan) -> str:
    return f"{plan.currency}, today's prices"


def nominal_unit(plan: Plan) -> str:
    return f"{plan.currency}, {PriceIndex.of(plan).prices_wording(NOMINAL)}"


def action_header(plan: Plan) -> tuple[str, ...]:
    return (
        "Node path",
        "Building",
        "Code",
        "Title",
        "Kind",
        "Year",
        f"Estimated cost ({today_unit(plan)})",
        f"Nominal cost ({nominal_unit(plan)})",
        "Repeats every (years)",
        "Status",
        "Project",
        "Completed on",
        f"Actual cost ({plan.currency})",
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


def action_rows(
    *, plan: Plan, filters: ActionFilters, labels: bool = False
) -> Iterator[tuple[Any, ...]]:
    """The header, then one row per action matching `filters`, in the list's order. The
    nominal cost is that of the action's planned year (a recurring action's next occurrence).
    Kinds and statuses are codes ("replacement"), or their labels ("Replacement") if `labels`;
    the plan import reads both."""
    kind_of = dict(ActionKind.choices) if labels else {}
    status_of = dict(ActionStatus.choices) if labels else {}
    places = _Places(plan)
    index = PriceIndex.of(plan)
    yield action_header(plan)
    latest = Completion.objects.filter(action=OuterRef("pk")).order_by(
        "-completed_on", "-created_at", "-pk"
    )
    actions = (
        actions_filtered(plan=plan, filters=filters)
        .annotate(
            done_on=Subquery(latest.values("completed_on")[:1]),
            actual=Subquery(latest.values("actual_cost")[:1]),
        )
        .values_list(
            "node_id",
            "node__code__code",
            "title",
            "kind",
            "planned_year",
            "estimated_cost",
            "interval_years",
            "status",
            "project__name",
            "done_on",
            "actual",
        )
    )
    # Empty text, not None, for an action without code, project or completion: the same cell
    # in both formats. The completion is the latest Mark done (planned and actual side by side).
    for row in actions.iterator(2000):
        node_id, code, title, kind, year, cost, interval, status, project, done_on, actual = row
        yield (
            places.path(node_id),
            places.building(node_id),
            code or "",
            title,
            kind_of.get(kind, kind),
            year,
            cost,
            amount_of(index.nominal_cents(cents_of(cost), year)),
            interval if interval is not None else "",
            status_of.get(status, status),
            project or "",
            done_on or "",
            actual if actual is not None else "",
        )


def budget_years(*, plan: Plan, this_year: int) -> tuple[int, int]:
    """The years a budget export covers when none are chosen: from the earliest planned year
    of a live action (overdue ones included) or this year, whichever comes first, to the latest
    or the planning page's last default year, whichever comes later (recurring actions are
    counted in every year of that range)."""
    bounds = plan.actions.filter(status=ActionStatus.PLANNED).aggregate(
        first=Min("planned_year"), last=Max("planned_year")
    )
    first = min(bounds["first"] or this_year, this_year)
    last = max(bounds["last"] or this_year, this_year + YEARS_DEFAULT - 1)
    return first, last


def budget_rows(
    *, plan: Plan, today: Budget, nominal: Budget, key_figures: PlanKeyFigures
) -> Iterator[tuple[Any, ...]]:
    """Planned cost (live actions, every occurrence) per building and year, from `today` and
    `nominal` (planning.figures.budget.plan_budget of one range in both prices), with each
    building's key figures: a header, one row per building by its label (a building with
    debt but no cost in the range too; actions outside any building under "(no building)"),
    and a total row with the plan's figures. A row holds the building's area and key
    figures, then the years in today's prices and their total, then the same years nominal
    and their total."""
    years = today.years
    span = key_figures.plan.year_span
    yield (
        "Building",
        "Gross floor area (m2)",
        f"Planned cost per m2 per year ({span}, today's prices)",
        f"Maintenance debt (planned before {key_figures.year}, today's prices)",
        "Debt per m2",
        *years,
        f"Total {year_span(years[0], years[-1])} ({today_unit(plan)})",
        *(f"{year} nominal" for year in years),
        f"Total {year_span(years[0], years[-1])} ({nominal_unit(plan)})",
    )
    zeros = [Decimal("0.00")] * len(years)
    today_rows = {row.building_id: row for row in today.rows}
    nominal_rows = {row.building_id: row for row in nominal.rows}
    figures_of = {figures.building_id: figures for figures in key_figures.buildings}
    # Every building of the range's budget, and those with debt only, in the page's order.
    shown = [row.building_id for row in today.rows]
    shown += [b for b, figures in figures_of.items() if figures.debt and b not in today_rows]
    for building_id in sorted(
        shown, key=lambda b: (b is None, natural_key(_label(b, figures_of, today_rows)))
    ):
        row, other = today_rows.get(building_id), nominal_rows.get(building_id)
        figures = figures_of.get(building_id)
        yield (
            row.name if row is not None else figures.name if figures is not None else "",
            *(_key_figure_cells(figures) if figures is not None else ("", "", "", "")),
            *(row.cells if row else zeros),
            row.total if row else Decimal("0.00"),
            *(other.cells if other else zeros),
            other.total if other else Decimal("0.00"),
        )
    yield (
        "Total",
        *_key_figure_cells(key_figures.plan),
        *today.year_totals,
        today.total,
        *nominal.year_totals,
        nominal.total,
    )


def _label(building_id: Any, figures_of: dict[Any, KeyFigures], rows: dict[Any, Any]) -> str:
    found = rows.get(building_id) or figures_of.get(building_id)
    return found.name if found is not None else ""


def _key_figure_cells(figures: KeyFigures) -> tuple[Any, ...]:
    def cell(value: Decimal | None) -> Decimal | str:
        return "" if value is None else value

    return (
        cell(figures.area),
        cell(figures.cost_per_m2_year),
        figures.debt,
        cell(figures.debt_per_m2),
    )


def _text(value: Decimal | None) -> str | None:
    """An amount as a decimal string: the import reads it exactly, as no JSON float would."""
    return None if value is None else f"{value:f}"


def plan_document(*, plan: Plan) -> dict[str, Any]:
    """The plan in the import format, with its optional plan fields. Nodes are named by their
    `ref` (an imported node keeps the one of its file; a node made on the pages is named by its
    id), parents before children, then by ref; actions by node, year, title and the rest, so
    the same plan always gives the same document."""
    nodes = list(
        StructureNode.objects.filter(plan=plan)
        .order_by()
        .values_list(
            "id",
            "ref",
            "parent_id",
            "path",
            "name",
            "kind",
            "code__code",
            "quantity",
            "unit",
            "install_year",
            "address",
            "gross_floor_area_m2",
            "year_built",
            "condition_grade",
            "condition_assessed_on",
        )
    )
    refs = {row[0]: row[1] or row[0].hex for row in nodes}
    documents = [
        {
            "ref": refs[node_id],
            "parent_ref": refs[parent_id] if parent_id is not None else None,
            "name": name,
            "kind": kind,
            "code": code,
            "quantity": _text(quantity),
            "unit": unit,
            "install_year": install_year,
            "address": address,
            "gross_floor_area_m2": _text(area),
            "year_built": year_built,
            "condition_grade": grade,
            "condition_assessed_on": assessed_on.isoformat() if assessed_on else None,
        }
        for (
            node_id,
            _ref,
            parent_id,
            _path,
            name,
            kind,
            code,
            quantity,
            unit,
            install_year,
            address,
            area,
            year_built,
            grade,
            assessed_on,
        ) in sorted(nodes, key=lambda row: (len(path_ids(row[3])), refs[row[0]]))
    ]
    # Each action's latest completion, as the actions export shows it: a done one-off action,
    # or a recurring one marked done and moved on, re-imports with its work (see "Imports").
    latest = Completion.objects.filter(action=OuterRef("pk")).order_by(
        "-completed_on", "-created_at", "-pk"
    )
    rows = (
        plan.actions.order_by()
        .annotate(
            done_on=Subquery(latest.values("completed_on")[:1]),
            actual=Subquery(latest.values("actual_cost")[:1]),
        )
        .values_list(
            "node_id",
            "planned_year",
            "title",
            "kind",
            "status",
            "estimated_cost",
            "interval_years",
            "done_on",
            "actual",
        )
    )
    actions = [
        {
            "node_ref": refs[node_id],
            "title": title,
            "kind": kind,
            "planned_year": year,
            "estimated_cost": _text(cost),
            "status": status,
            "interval_years": interval,
            "completed_on": done_on.isoformat() if done_on else None,
            # Cents as the column keeps them (SQLite hands a subquery's 1250.50 over as 1250.5).
            "actual_cost": _text(None if actual is None else Decimal(actual).quantize(CENT)),
        }
        for node_id, year, title, kind, status, cost, interval, done_on, actual in sorted(
            rows.iterator(2000),
            key=lambda row: (
                refs[row[0]],
                *row[1:6],
                row[6] or 0,
                row[7] or datetime.date.min,
                row[8] or 0,
            ),
        )
    ]
    return {
        "name": plan.name,
        "description": plan.description,
        "currency": plan.currency,
        "price_base_year": plan.price_base_year,
        "index_rate_percent": _text(plan.index_rate_percent),
        "overhead_percent": _text(plan.overhead_percent),
        "vat_percent": _text(plan.vat_percent),
        "annual_budget": _text(plan.annual_budget),
        "nodes": documents,
        "actions": actions,
        # A plan without a list has its overhead and VAT as markups: those two say it all.
        **({"markups": plan.markups} if plan.markups is not None else {}),
    }


def as_json(document: dict[str, Any]) -> bytes:
    return json.dumps(document, ensure_ascii=False, indent=1).encode()


# In a CSV cell, a formula character after a separator some spreadsheet may split on (comma,
# semicolon, tab, line break), past any spaces, quotes and further separators: see as_csv.
CSV_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t\r\n][,;\t\r\n \"]*)(?=[=+\-@])")


def as_csv(rows: Iterable[Sequence[Any]]) -> bytes:
    """The whole CSV of `csv_stream` at once."""
    return b"".join(csv_stream(rows))


CSV_BATCH = 1000


def csv_stream(rows: Iterable[Sequence[Any]]) -> Iterator[bytes]:
    """UTF-8 with a byte-order mark, which Excel needs to read accents right, in pieces of
    CSV_BATCH rows, so that a download starts at once.

    A spreadsheet reads a CSV with its locale's separator (a semicolon in most of Europe), so
    no cell may turn into a formula whichever of comma, semicolon or tab splits it:

    - every text cell is quoted, numbers are not (``QUOTE_NONNUMERIC``; Python's default quotes
      only cells with a comma, and left ``Roof;=HYPERLINK(B1);`` bare);
    - each cell is neutralised as above, and so is a formula character that follows a
      separator inside a cell (``Fix;@SUM(A1)`` is written ``Fix;'@SUM(A1)``): a reader
      splitting on another separator than ours sees our quotes only around a line's first
      cell and starts a new cell at such a separator, and the apostrophe then leads it.

    Any CSV reader reads the quoted cells back as written; the plan import takes the
    apostrophes off again (planning.transfer.imports.tables).
    """
    yield "\ufeff".encode()
    rows = iter(rows)
    while batch := list(islice(rows, CSV_BATCH)):
        buffer = io.StringIO()
        writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC)
        for row in batch:
            writer.writerow([_csv_safe(value) for value in row])
        yield buffer.getvalue().encode()


def _csv_safe(value: Any) -> Any:
    value = spreadsheet_safe(value)
    # search first: a match is rare, and sub alone costs 1 µs a cell even without one.
    if isinstance(value, str) and CSV_FORMULA_AFTER_SEPARATOR.search(value):
        return CSV_FORMULA_AFTER_SEPARATOR.sub(r"\1'", value)
    return value


def as_xlsx(rows: Iterable[tuple[Any, ...]], *, title: str) -> bytes:
    """The whole workbook of planning.transfer.xlsx.xlsx_stream at once."""
    return b"".join(xlsx_stream(rows, title=title))


_DECIMAL_FIELDS = frozenset(
    {
        "quantity",
        "gross_floor_area_m2",
        "estimated_cost",
        "actual_cost",
        "index_rate_percent",
        "overhead_percent",
        "vat_percent",
        "annual_budget",
    }
)
_LABELS = {
    "nodes": {"kind": dict(NodeKind.choices)},
    "actions": {"kind": dict(ActionKind.choices), "status": dict(ActionStatus.choices)},
}


def _column_title(column: str, currency: str) -> str:
    """A column's title on a sheet ("planned_year" is "Planned year"); the import reads both."""
    title = column.replace("_", " ").capitalize()
    amounts = ("estimated_cost", "actual_cost", "annual_budget")
    return f"{title} ({currency})" if column in amounts else title


def _sheet_cell(table: str, column: str, value: Any) -> Any:
    if value is None:
        return ""
    if column == "markups":  # one cell: "Overhead 10; VAT 25"
        return markups_text(markups_parse(value))
    if column in _DECIMAL_FIELDS:
        return Decimal(value)
    if column in ("condition_assessed_on", "completed_on"):
        return datetime.date.fromisoformat(value)
    return _LABELS.get(table, {}).get(column, {}).get(value, value)


def plan_workbook_sheets(document: dict[str, Any]) -> list[tuple[str, Iterable[Sequence[Any]]]]:
    """A plan document (`plan_document`, or a file in the import format) as the sheets of its
    Excel workbook: "Plan" (field / value), "Nodes" and "Actions" (a column per field, titled
    for a person, kinds and statuses by their labels, amounts as numbers). It imports back to
    the same plan (planning.transfer.imports.workbook)."""
    currency = document.get("currency") or "EUR"
    plan = [("Field", "Value")] + [
        (_column_title(field, currency), _sheet_cell("plan", field, document.get(field)))
        # in this order (planning.transfer.imports.tables reads them)
        for field in PLAN_TABLE_FIELDS
        if document.get(field) is not None
    ]

    def table(name: str, columns: tuple[str, ...]) -> Iterator[Sequence[Any]]:
        yield tuple(_column_title(column, currency) for column in columns)
        for record in document.get(name, []):
            yield tuple(_sheet_cell(name, column, record.get(column)) for column in columns)

    return [
        ("Plan", plan),
        ("Nodes", table("nodes", NODE_FIELDS)),
        ("Actions", table("actions", ACTION_FIELDS)),
    ]


def plan_csv_rows(document: dict[str, Any], table: str) -> Iterator[Sequence[Any]]:
    """One table of a plan document ("nodes", "actions", or "plan": its name and plan fields,
    a field / value row each) as the rows of its import CSV."""
    if table == "plan":
        yield ("field", "value")
        for field in PLAN_TABLE_FIELDS:
            if document.get(field) is not None:
                yield (
                    field,
                    _sheet_cell("plan", field, document[field])
                    if field == "markups"
                    else document[field],
                )
        return
    columns = NODE_FIELDS if table == "nodes" else ACTION_FIELDS
    yield columns
    for record in document.get(table, []):
        yield tuple("" if record.get(column) is None else record[column] for column in columns)

"""The plan itself in the import format (docs/subsystems/imports.md): `plan_document` re-imports to
the same plan, and the export of that plan is the same file. It is downloaded as JSON
(`as_json`), as an Excel workbook (`plan_workbook_sheets`: sheets Plan, Nodes and Actions) or as
the CSV files of a CSV import (`plan_csv_rows`); the import reads each back
(planning.transfer.imports)."""

from __future__ import annotations

import datetime
import json
from collections.abc import Iterable, Iterator, Sequence
from decimal import Decimal
from typing import Any

from django.db.models import OuterRef, Subquery

from planning.figures.prices import markups_parse, markups_text
from planning.models import (
    CENT,
    ActionKind,
    ActionStatus,
    Completion,
    NodeKind,
    Plan,
    StructureNode,
)
from planning.transfer.imports.columns import ACTION_FIELDS, NODE_FIELDS, PLAN_TABLE_FIELDS
from planning.tree.paths import path_ids


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
            "condition_consequence",
            "replacement_value",
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
            "condition_consequence": consequence,
            "replacement_value": _text(replacement_value),
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
            consequence,
            replacement_value,
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


_DECIMAL_FIELDS = frozenset(
    {
        "quantity",
        "gross_floor_area_m2",
        "replacement_value",
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

"""The first rows of one sheet as the plan will get them, with their problems
(docs/subsystems/import-mapping.md "The preview"). Only the header and PREVIEW_ROWS data rows
are read from the file (a workbook's part is walked, under its bounds, only that far), and they are
checked by the import's own row readers, so a problem shown here is the import's problem."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from itertools import chain, islice

from planning.core.money import money_format
from planning.models import ActionKind, ActionStatus
from planning.transfer.imports.plan_fields import plan_fields_read
from planning.transfer.imports.records import ProblemCollector
from planning.transfer.imports.rows import action_row_read, node_row_read
from planning.transfer.imports.sheet.mapped import (
    ColumnProblems,
    SheetPlan,
    data_rows,
    header_titles,
    mapping_problems,
)
from planning.transfer.imports.sheet.source import SheetSource, sheet_size_check, sheet_source
from planning.transfer.imports.sheet.xlsx_rows import workbook_first_rows
from planning.transfer.imports.tables import WORKBOOK_MAGIC

PREVIEW_ROWS = 20


@dataclass(frozen=True)
class SheetSample:
    """The header and the first data rows of a file."""

    headers: list[str]
    rows: list[tuple[int, list[object]]]
    decimal_comma: bool
    separator: str


def sheet_sample(content: bytes, filename: str) -> SheetSample:
    """The header and the first PREVIEW_ROWS rows that are not blank, and no more of the file:
    a workbook's through xlsx_rows (its parts walked only that far), a CSV file's streamed.
    ImportRejected (one problem) when the file cannot be read or passes a bound."""
    if content.startswith(WORKBOOK_MAGIC):
        sheet_size_check(content, filename)
        rows = workbook_first_rows(content, filename, wanted=PREVIEW_ROWS + 1)
        source = SheetSource(lambda: iter(rows), decimal_comma=False)
    else:
        source = sheet_source(content, filename)
    return _sample(source)


def _sample(source: SheetSource) -> SheetSample:
    rows_read = source.rows()  # one walk: the header, then the first data rows
    header = next(rows_read, (0, []))
    headers = header_titles(header[1])
    width = max(len(headers), 1)
    rows = [
        (number, [*cells[:width], *[None] * (width - len(cells))])
        for number, cells in islice(data_rows(chain([header], rows_read)), PREVIEW_ROWS)
    ]
    return SheetSample(headers, rows, source.decimal_comma, source.separator)


@dataclass
class PreviewRow:
    number: int
    ref: str
    place: list[str]
    node: dict[str, object]
    action: dict[str, object] | None
    problems: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class SheetPreview:
    rows: list[PreviewRow]
    mapping_problems: list[str]
    problems: list[str]  # of the rows shown, as the import lists them
    currency: str
    currency_where: str  # "" when it is the form's


def _labelled(record: dict[str, object], currency: str) -> dict[str, object]:
    shown = dict(record)
    cost = shown.get("estimated_cost")
    if cost is not None:
        shown["cost_shown"] = money_format(cost, currency) if isinstance(cost, Decimal) else cost
    kind, status = shown.get("kind"), shown.get("status")
    if isinstance(kind, str) and kind in ActionKind.values:
        shown["kind"] = ActionKind(kind).label
    if isinstance(status, str) and status in ActionStatus.values:
        shown["status"] = ActionStatus(status).label
    return shown


def sheet_preview(
    sample: SheetSample, columns: Sequence[str], *, currency_chosen: str
) -> SheetPreview:
    """The sample's rows under the mapping `columns`, their problems, and the currency the
    amounts will be read as (the file's, else `currency_chosen`)."""
    wrong = mapping_problems(columns, sample.headers)
    if wrong:
        return SheetPreview([], wrong, [], currency_chosen, "")
    problems = ColumnProblems(columns, sample.headers)
    plan = SheetPlan(columns, sample.headers, decimal_comma=sample.decimal_comma, problems=problems)
    shown: list[PreviewRow] = []
    for number, cells in sample.rows:
        found = plan.read(number, cells, make=True)
        if found is None:
            shown.append(PreviewRow(number, "", [], {}, None))
            continue
        ref, is_action = found
        action = plan.action_record(number, cells, ref)[1] if is_action else None
        if action is not None:
            action_row_read(action, f"row {number}", (2, number), problems)
        shown.append(PreviewRow(number, ref, [], {}, action))
    for index, (row, record) in enumerate(plan.node_records):
        node_row_read(record, row, (1, index), problems)
    records = {str(record["ref"]): record for _row, record in plan.node_records}
    for preview in shown:
        current: object = preview.ref
        while isinstance(current, str) and current in records:
            preview.place.insert(0, str(records[current]["name"]))
            current = records[current].get("parent_ref")
        if preview.ref:
            preview.node = dict(records[preview.ref])
    currency, where = currency_chosen, ""
    if plan.currency is not None:
        fields = plan_fields_read({"currency": plan.currency}, problems, source=where)
        currency, where = str(fields.get("currency", plan.currency)), plan.currency_where
    for preview in shown:
        preview.action = preview.action and _labelled(preview.action, currency)
    listed = _by_row(problems, shown)
    return SheetPreview(shown, [], listed, currency, where)


def _by_row(problems: ProblemCollector, shown: list[PreviewRow]) -> list[str]:
    rows = {f"row {preview.number}": preview for preview in shown}
    listed: list[str] = []
    in_rows = sorted(problems.sorted(), key=lambda problem: _row_number(problem.row))
    for problem in in_rows:
        if problem.row in rows:
            rows[problem.row].problems.append(
                ": ".join(part for part in (problem.field, problem.message) if part)
            )
        listed.append(str(problem))
    return listed


def _row_number(row: str) -> int:
    number = row.rsplit(" ", 1)[-1]
    return int(number) if number.isdigit() else 0

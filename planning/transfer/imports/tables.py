"""The plan format as tables, one row per node or action under a header row: what a CSV pair
and an Excel workbook have in common (planning.transfer.imports.csv_pair,
planning.transfer.imports.workbook;
docs/subsystems/imports.md).

A table is read as a person would have written it: a header names the columns by their import
names (`planned_year`) or as a spreadsheet titles them (`Planned year`, `Estimated cost (EUR)`),
a kind or status may be its label (`Replacement`) as well as its code, numbers may be cells of
a spreadsheet (floats, dates) or text, and a text the CSV export neutralised with an apostrophe
(`'=HYPERLINK(...)`) reads back as it was named.
"""

from __future__ import annotations

import datetime
import difflib
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from itertools import islice
from pathlib import PurePath

from django.conf import settings

from planning.core.validation import plan_size_message
from planning.models import ActionKind, ActionStatus, NodeKind, Plan
from planning.transfer.imports.columns import (
    ACTION_FIELDS,
    ACTION_REQUIRED,
    AMOUNT_FIELDS,
    NODE_FIELDS,
    NODE_REQUIRED,
    PLAN_TABLE_FIELDS,
    YEAR_FIELDS,
)
from planning.transfer.imports.records import CountedRecords, ProblemCollector, Record

# What the CSV export put before a formula character, at the start or after a separator.
_NEUTRALISED = re.compile(r"(^|[,;\t\r\n][,;\t\r\n \"]*)'(?=[=+\-@\t\r])")


def _labels(choices: list[tuple[str, str]]) -> dict[str, str]:
    """Codes and labels, lowercased, to the code."""
    return {
        **{label.lower(): code for code, label in choices},
        **{code.lower(): code for code, _label in choices},
    }


NODE_CHOICES = {"kind": _labels(NodeKind.choices)}
ACTION_CHOICES = {"kind": _labels(ActionKind.choices), "status": _labels(ActionStatus.choices)}


@dataclass(frozen=True)
class Table:
    """One table of the format: where it is read from and what its columns are."""

    source: str  # "nodes.csv", "sheet Nodes"
    row_name: str  # a row is named f"{source} {row_name} {n}": "nodes.csv line 4"
    columns: tuple[str, ...]
    required: tuple[str, ...]
    section: int  # 1 nodes, 2 actions: the order problems are listed in
    max_rows: int
    what: str  # "nodes", "actions": the plan limit's word
    choices: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    # A file separated by semicolons comes from a locale that writes 1.234,56 (Excel's CSV).
    decimal_comma: bool = False
    # The columns of whole numbers and of amounts (read as numbers, else passed on as text).
    whole_columns: frozenset[str] = YEAR_FIELDS
    amount_columns: frozenset[str] = AMOUNT_FIELDS


def node_table(source: str, row_name: str) -> Table:
    return Table(
        source=source,
        row_name=row_name,
        columns=NODE_FIELDS,
        required=NODE_REQUIRED,
        section=1,
        max_rows=settings.PLAN_MAX_NODES,
        what="nodes",
        choices=NODE_CHOICES,
    )


def action_table(source: str, row_name: str) -> Table:
    return Table(
        source=source,
        row_name=row_name,
        columns=ACTION_FIELDS,
        required=ACTION_REQUIRED,
        section=2,
        max_rows=settings.PLAN_MAX_ACTIONS,
        what="actions",
        choices=ACTION_CHOICES,
    )


# Columns a table may have: the widest of the format has 13. A header is refused beyond this
# before anything is done per column (one "did you mean" per cell of a 330,000-column header was
# a 66 MB problem list), and a workbook's rows are read this wide.
TABLE_MAX_COLUMNS = 64


def table_width_problem(count: int) -> str:
    return f"has {count:,} columns; a table has at most {TABLE_MAX_COLUMNS}"


# An XLSX file is a ZIP archive; its first bytes say so.
WORKBOOK_MAGIC = b"PK\x03\x04"
WORKBOOK_IN_CSV = (
    "is an Excel workbook, not CSV text: upload it as the plan file (a workbook holds the "
    "nodes and the actions on two sheets)"
)


def column_named(title: str, columns: tuple[str, ...]) -> str | None:
    """The column a header cell names: its import name, or the same words in a title's case
    and spacing, with or without a parenthesised unit ("Estimated cost (EUR)")."""
    if title in columns:
        return title
    words = re.sub(r"[\s\-]+", "_", title.strip().lower())
    for candidate in (
        re.sub(r"[()]", "", words).strip("_"),
        re.sub(r"_*\(.*\)$", "", words),
    ):
        candidate = re.sub(r"_+", "_", candidate)
        if candidate in columns:
            return candidate
    return None


# A number as a semicolon locale writes it: 1234,5 or 1.234,56 (a point groups thousands).
_DECIMAL_COMMA = re.compile(r"-?(\d{1,3}(\.\d{3})+|\d+)(,\d+)?")


def cell_value(
    column: str,
    value: object,
    choices: Mapping[str, Mapping[str, str]],
    *,
    decimal_comma: bool = False,
    whole_columns: frozenset[str] = YEAR_FIELDS,
    amount_columns: frozenset[str] = AMOUNT_FIELDS,
) -> object:
    """A cell as the JSON format would hold it: numbers for the number columns, text for the
    others, a choice's code for its label; None for an empty cell. A value that does not fit
    is passed on as it is, and the record's checks say what is wrong with it. With
    `decimal_comma`, a number's comma is its decimal point and its points group thousands."""
    if value is None:
        return None
    if isinstance(value, bool):
        return value
    if isinstance(value, datetime.datetime):
        value = value.date()
    if isinstance(value, datetime.date):
        return value.isoformat()
    if isinstance(value, float):
        # A spreadsheet's number: 0.1 + 0.2 is 0.30000000000000004 there, never a cost.
        value = Decimal(repr(round(value, 6)))
    if isinstance(value, int | Decimal):
        if column in whole_columns or column in amount_columns:
            return _whole(value) if column in whole_columns else Decimal(value)
        # A ref or a code typed as a number ("101", "363.1") is its text.
        return str(_whole(value))
    text = _NEUTRALISED.sub(r"\1", str(value).strip())
    if not text:
        return None
    if column in whole_columns or column in amount_columns:
        if decimal_comma and _DECIMAL_COMMA.fullmatch(text):
            text = text.replace(".", "").replace(",", ".")
        try:
            number = Decimal(text)
        except InvalidOperation:
            return text
        return _whole(number) if column in whole_columns else number
    if column in choices:
        return choices[column].get(text.lower(), text)
    return text


def _whole(number: int | Decimal) -> int | Decimal:
    if isinstance(number, Decimal) and number.is_finite() and number == number.to_integral():
        return int(number) if number.adjusted() < 9 else number
    return number


def table_counted_records(
    rows: Callable[[], Iterator[tuple[int, list[object]]]],
    *,
    table: Table,
    problems: ProblemCollector,
    close: Callable[[], None] | None = None,
) -> CountedRecords | None:
    """The data rows of one table as records labelled with their row, read only as the import
    checks them (docs/subsystems/import-bounds.md). `rows()` gives each row's number as a
    person counts it and its cells, the header first, again at each call. A first pass checks
    the header and counts the rows: problems of the header are added to `problems`, and then
    there are no rows (None); so is a table of more rows than `max_rows` (the plan limit),
    whose reading stops there. Each iteration of the records then reads the rows again, until
    they are closed (`close`: what lets go of the rows' source)."""
    first = rows()
    header = table_header(first, table=table, problems=problems)
    if header is None:
        return None
    count = sum(1 for _row in islice(rows_left(first), table.max_rows + 1))
    if count > table.max_rows:
        problems.add(
            (table.section, -1),
            table.what,
            "",
            plan_size_message(field=table.what, limit=table.max_rows),
        )
        return None

    def read() -> Iterator[Record]:
        again = rows()
        next(again)  # the header
        return table_body(again, header, table=table, problems=problems)

    return CountedRecords(count, read, close)


def rows_left(rows: Iterator[tuple[int, list[object]]]) -> Iterator[tuple[int, list[object]]]:
    """The rows that are not blank (a spreadsheet leaves blank lines at the end)."""
    return (row for row in rows if any(_filled(cell) for cell in row[1]))


def table_header(
    rows: Iterator[tuple[int, list[object]]], *, table: Table, problems: ProblemCollector
) -> list[str] | None:
    """The columns the first row names, or None (the problems added) when it names none, an
    unknown one or one twice, or the table is empty."""
    try:
        number, cells = next(rows)
    except StopIteration:
        problems.add((table.section, -1), table.source, "", "is empty; a header row is required")
        return None
    header_row = f"{table.source} {table.row_name} {number}"
    return _header(cells, table=table, row=header_row, problems=problems)


def table_body(
    rows: Iterator[tuple[int, list[object]]],
    header: list[str],
    *,
    table: Table,
    problems: ProblemCollector,
) -> Iterator[Record]:
    """The records of the rows after the header, one at a time, blank rows skipped; a row with
    more cells than the header is a problem (its record still comes)."""
    for index, (number, cells) in enumerate(rows_left(rows)):
        row = f"{table.source} {table.row_name} {number}"
        if any(_filled(cell) for cell in islice(cells, len(header), None)):
            problems.add(
                (table.section, index),
                row,
                "",
                f"has {len(cells)} cells but the header has {len(header)} columns",
            )
        # A short row leaves its last columns out: they read as empty cells.
        yield (
            row,
            {
                column: cell_value(
                    column,
                    cell,
                    table.choices,
                    decimal_comma=table.decimal_comma,
                    whole_columns=table.whole_columns,
                    amount_columns=table.amount_columns,
                )
                for column, cell in zip(header, cells, strict=False)
            },
        )


def _filled(cell: object) -> bool:
    return cell is not None and (not isinstance(cell, str) or bool(cell.strip()))


def _header(
    cells: list[object], *, table: Table, row: str, problems: ProblemCollector
) -> list[str] | None:
    """The header's columns, or None when a cell names none, or one twice (each a problem)."""
    position = (table.section, -1)
    titles = [("" if cell is None else str(cell)).strip() for cell in cells]
    while titles and not titles[-1]:
        titles.pop()  # a spreadsheet's empty cells right of the header
    if len(titles) > TABLE_MAX_COLUMNS:
        problems.add(position, row, "", table_width_problem(len(titles)))
        return None
    header: list[str] = []
    ok = True
    named = [column_named(title, table.columns) for title in titles]
    unused = [column for column in table.columns if column not in named]
    missing = [column for column in table.required if column not in named]
    for index, (title, column) in enumerate(zip(titles, named, strict=True)):
        if column is None:
            ok = False
            shown = title or f"column {index + 1} (empty)"
            # One problem per bad header cell: a misspelt column is named, and the column it
            # stands for is not reported again as missing.
            guess = difflib.get_close_matches(title.lower(), unused, n=1, cutoff=0.6)
            if guess:
                unused.remove(guess[0])
                if guess[0] in missing:
                    missing.remove(guess[0])
                message = f'unknown column; did you mean "{guess[0]}"?'
            else:
                message = f"unknown column (the columns are: {', '.join(table.columns)})"
            problems.add(position, row, shown, message)
        elif column in header:
            ok = False
            problems.add(position, row, column, "column appears twice")
        header.append(column or "")
    for column in missing:
        ok = False
        problems.add(position, row, column, "required column is missing")
    return header if ok else None


# The plan fields read as numbers (plan_fields_read checks them).
PLAN_WHOLE_FIELDS = frozenset({"price_base_year"})
PLAN_AMOUNT_FIELDS = frozenset(
    {"index_rate_percent", "overhead_percent", "vat_percent", "annual_budget"}
)


def plan_table_fields(
    rows: Iterator[tuple[int, list[object]]],
    *,
    source: str,
    row_name: str,
    problems: ProblemCollector,
    decimal_comma: bool = False,
) -> tuple[str | None, dict[str, object]]:
    """The plan's name and fields of a table of field / value rows (a workbook's sheet "Plan",
    a CSV pair's plan.csv): the field in the first column ("name", "currency", "Index rate
    percent"), its value in the second; a first row "Field" / "Value" is a header. A cell is
    read as a table's cell (cell_value); plan_fields_read then checks the fields."""
    name: str | None = None
    fields: dict[str, object] = {}
    for number, cells in rows:
        label = cells[0] if cells else None
        if label is None or (isinstance(label, str) and not label.strip()):
            continue
        field = column_named(str(label), PLAN_TABLE_FIELDS)
        if field is None:
            if number == 1 and str(label).strip().lower() == "field":
                continue
            problems.add(
                (0, 0),
                f"{source} {row_name} {number}",
                str(label),
                f"unknown plan field (the fields are: {', '.join(PLAN_TABLE_FIELDS)})",
            )
            continue
        value = cell_value(
            field,
            cells[1] if len(cells) > 1 else None,
            {},
            decimal_comma=decimal_comma,
            whole_columns=PLAN_WHOLE_FIELDS,
            amount_columns=PLAN_AMOUNT_FIELDS,
        )
        if field == "name":
            name = None if value is None else str(value)
        elif value is not None:
            fields[field] = value
    return name, fields


def plan_name_from_file(filename: str, *, today: datetime.date | None = None) -> str:
    """The name of a plan imported without one: its file's name ("Harbour estate.xlsx" is
    "Harbour estate"), or "Imported plan" and the day for a file named only for its table
    ("nodes.csv", "plan-12-plan-nodes-20261125.csv")."""
    stem = re.sub(r"[_\s]+", " ", PurePath(filename).stem).strip()
    if not stem or re.search(r"\b(nodes|actions)\b", stem.lower()):
        return f"Imported plan {(today or datetime.date.today()).isoformat()}"
    return stem[: Plan._meta.get_field("name").max_length]

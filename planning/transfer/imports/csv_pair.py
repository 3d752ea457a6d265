"""The plan format as a pair of CSV files (nodes.csv, actions.csv), for people coming from
spreadsheets: the same columns as the JSON format, a header row, an empty cell for "none"
(read as planning.transfer.imports.tables says), separated by commas, semicolons or tabs; in a file
separated by semicolons, as Excel writes CSV where the comma is the decimal mark, numbers may
be written 1.234,56. An optional third file, plan.csv, holds the plan's name and fields as
field / value rows, as a workbook's sheet "Plan" does (its currency, its prices)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

from accounts.models import User
from organisations.models import Organisation
from planning.core.validation import plan_size_message
from planning.models import Plan
from planning.transfer.imports.columns import PLAN_TABLE_FIELDS
from planning.transfer.imports.file_text import file_text
from planning.transfer.imports.plan_document import plan_records_import
from planning.transfer.imports.plan_fields import plan_fields_read
from planning.transfer.imports.problems import ImportRejected
from planning.transfer.imports.progress import ImportObserver
from planning.transfer.imports.records import CountedRecords, ProblemCollector, Record
from planning.transfer.imports.tables import (
    WORKBOOK_IN_CSV,
    WORKBOOK_MAGIC,
    Table,
    action_table,
    column_named,
    node_table,
    plan_name_from_file,
    plan_table_fields,
    rows_left,
    table_body,
    table_header,
)

NODES_FILENAME = "nodes.csv"
ACTIONS_FILENAME = "actions.csv"
PLAN_FILENAME = "plan.csv"
# A plan file has a row per plan field; one of more rows than this is no plan file.
PLAN_FILE_MAX_ROWS = 64


SEPARATORS = (",", ";", "\t")


def _separator(text: str, columns: tuple[str, ...]) -> str:
    """The separator of the file: the one of `,` `;` tab that splits the header into the most
    known column names (Excel writes `;` in many locales), `,` when none does."""
    header = text.split("\n", 1)[0]

    def known(separator: str) -> int:
        return sum(
            column_named(cell.strip().strip('"'), columns) is not None
            for cell in header.split(separator)
        )

    best = max(SEPARATORS, key=known)
    return best if known(best) > 0 else ","


def csv_table_records(
    *, content: bytes, table: Table, problems: ProblemCollector
) -> CountedRecords | None:
    """The data rows of one CSV file as records labelled with their line numbers (see
    planning.transfer.imports.tables); a file that is no text, a bad header or more rows than the
    plan limit is a problem, and then there are none (None). A first pass checks the header and
    counts the rows; the records are then read as the import checks them, never all at once."""
    section = (table.section, -1)
    if content.startswith(WORKBOOK_MAGIC):
        problems.add(section, table.source, "", WORKBOOK_IN_CSV)
        return None
    try:
        text = file_text(content, table.source)
    except ImportRejected as rejected:
        for problem in rejected.problems:
            problems.add(section, problem.row, problem.field, problem.message)
        return None
    separator = _separator(text, table.columns)
    table = replace(table, decimal_comma=separator == ";")

    def rows(said: ProblemCollector) -> Iterator[tuple[int, list[object]]]:
        reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                row = f"{table.source} line {reader.line_num}"
                said.add(section, row, "", f"malformed CSV: {error}")
                return
            yield reader.line_num, list(cells)

    first = rows(problems)
    header = table_header(first, table=table, problems=problems)
    if header is None:
        return None
    count = sum(1 for _row in islice(rows_left(first), table.max_rows + 1))
    if count > table.max_rows:
        problems.add(
            section, table.what, "", plan_size_message(field=table.what, limit=table.max_rows)
        )
        return None

    def read() -> Iterator[Record]:
        again = rows(ProblemCollector())  # a malformed line was said by the first pass
        next(again)  # the header
        return table_body(again, header, table=table, problems=problems)

    return CountedRecords(count, read)


def csv_plan_fields(
    *, content: bytes, problems: ProblemCollector
) -> tuple[str | None, dict[str, object]]:
    """The plan's name and fields in plan.csv (planning.transfer.imports.tables.plan_table_fields),
    not yet checked; a file that is no text, malformed, or longer than a plan file is a
    problem, and then it gives none."""
    position = (0, 0)
    if content.startswith(WORKBOOK_MAGIC):
        problems.add(position, PLAN_FILENAME, "", WORKBOOK_IN_CSV)
        return None, {}
    try:
        text = file_text(content, PLAN_FILENAME)
    except ImportRejected as rejected:
        for problem in rejected.problems:
            problems.add(position, problem.row, problem.field, problem.message)
        return None, {}
    separator = _separator(text, ("field", "value", *PLAN_TABLE_FIELDS))
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)
    rows: list[tuple[int, list[object]]] = []
    try:
        for cells in islice(reader, PLAN_FILE_MAX_ROWS + 1):
            rows.append((reader.line_num, list(cells)))
    except csv.Error as error:
        problems.add(
            position, f"{PLAN_FILENAME} line {reader.line_num}", "", f"malformed CSV: {error}"
        )
        return None, {}
    if len(rows) > PLAN_FILE_MAX_ROWS:
        problems.add(
            position,
            PLAN_FILENAME,
            "",
            f"has more than {PLAN_FILE_MAX_ROWS} lines; a plan file has a line per plan field",
        )
        return None, {}
    return plan_table_fields(
        iter(rows),
        source=PLAN_FILENAME,
        row_name="line",
        problems=problems,
        decimal_comma=separator == ";",
    )


def plan_csv_read(
    *, nodes_csv: bytes, actions_csv: bytes
) -> tuple[CountedRecords | None, CountedRecords | None, ProblemCollector]:
    """The records of the two files and the problems found reading them (not yet checked)."""
    problems = ProblemCollector()
    node_records = csv_table_records(
        content=nodes_csv, table=node_table(NODES_FILENAME, "line"), problems=problems
    )
    action_records = csv_table_records(
        content=actions_csv, table=action_table(ACTIONS_FILENAME, "line"), problems=problems
    )
    return node_records, action_records, problems


def plan_import_csv(
    *,
    owner: User,
    organisation: Organisation | None = None,
    nodes_csv: bytes,
    actions_csv: bytes,
    plan_csv: bytes | None = None,
    name: str | None,
    filename: str | None = None,
    observer: ImportObserver | None = None,
    currency: str | None = None,
) -> Plan:
    """Imports a plan from nodes.csv and actions.csv, and the optional plan.csv; `owner`
    becomes its owner.

    The plan's name is `name` if given (a blank one is a problem), else plan.csv's, else the
    name of the nodes file `filename` (plan_name_from_file); without any, it is a problem. Its
    currency is plan.csv's, else `currency`, else the organisation's default. Raises
    ImportRejected with every problem of the files, and then writes nothing.
    """
    node_records, action_records, problems = plan_csv_read(
        nodes_csv=nodes_csv, actions_csv=actions_csv
    )
    file_name, raw_fields = (
        csv_plan_fields(content=plan_csv, problems=problems) if plan_csv else (None, {})
    )
    if name is None:
        # None of them: "" is listed as a missing name with the files' other problems.
        name = file_name or (plan_name_from_file(filename) if filename else "")
    name = name.strip()
    return plan_records_import(
        owner=owner,
        organisation=organisation,
        name=name,
        node_records=node_records,
        action_records=action_records or [],
        problems=problems,
        observer=observer,
        plan_fields=plan_fields_read(raw_fields, problems, source=PLAN_FILENAME)
        if raw_fields
        else {},
        currency=currency,
    )

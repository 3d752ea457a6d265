"""The plan format as a pair of CSV files (nodes.csv, actions.csv), for people coming from
spreadsheets: the same columns as the JSON format, a header row, an empty cell for "none"
(read as planning.transfer.imports.tables says), separated by commas, semicolons or tabs; in a file
separated by semicolons, as Excel writes CSV where the comma is the decimal mark, numbers may
be written 1.234,56. An optional third file, plan.csv, holds the plan's name and fields as
field / value rows, as a workbook's sheet "Plan" does (its currency, its prices)."""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import replace
from itertools import count, islice

from accounts.models import User
from organisations.models import Organisation
from planning.models import Plan
from planning.transfer.imports.columns import PLAN_TABLE_FIELDS
from planning.transfer.imports.file_text import file_text
from planning.transfer.imports.plan_document import plan_records_import
from planning.transfer.imports.plan_fields import plan_fields_read
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.progress import ImportObserver
from planning.transfer.imports.records import CountedRecords, ProblemCollector
from planning.transfer.imports.tables import (
    TABLE_MAX_COLUMNS,
    WORKBOOK_IN_CSV,
    WORKBOOK_MAGIC,
    Table,
    action_table,
    column_named,
    node_table,
    plan_name_from_file,
    plan_table_fields,
    table_counted_records,
    table_width_problem,
)

NODES_FILENAME = "nodes.csv"
ACTIONS_FILENAME = "actions.csv"
PLAN_FILENAME = "plan.csv"
# A plan file has a row per plan field; one of more rows than this is no plan file.
PLAN_FILE_MAX_ROWS = 64


SEPARATORS = (",", ";", "\t")
# A row (a record, with the line breaks inside its quoted cells) of more characters than this
# is refused before the csv module splits it: it would keep every cell of the row in one list,
# and a 32 MiB line of commas is 32 million cells (docs/subsystems/import-bounds.md).
CSV_ROW_MAX_CHARS = 1024 * 1024
# The header's first characters are enough to tell its separator.
_SNIFF_CHARS = 8192


# A line and its end, as a file opened with newline="" gives them to the csv module.
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


class _RowTooLong(Exception):
    pass


def csv_rows(text: str, separator: str) -> Iterator[tuple[int, list[str]]]:
    """The file's rows, each with the line it ends on. A malformed row, or one longer than
    CSV_ROW_MAX_CHARS, ends them with ImportRejected: one problem, its row "line N" (the file
    is for the caller to name)."""
    read = [0]  # characters of the row being read

    def lines() -> Iterator[str]:
        # Not io.StringIO(text): it would copy the text at 4 bytes a character.
        for match in _LINE.finditer(text):
            line = match.group()
            read[0] += len(line)
            if read[0] > CSV_ROW_MAX_CHARS:
                raise _RowTooLong
            yield line

    reader = csv.reader(lines(), delimiter=separator, strict=True)
    while True:
        read[0] = 0
        try:
            cells = next(reader)
        except StopIteration:
            return
        except _RowTooLong:
            message = f"is longer than {CSV_ROW_MAX_CHARS:,} characters; a table's row is shorter"
            line = reader.line_num + 1
        except csv.Error as error:
            message, line = f"malformed CSV: {error}", reader.line_num
        else:
            yield reader.line_num, cells
            continue
        raise ImportRejected([ImportProblem(f"line {line}", "", message)])


def _first_line(text: str) -> str:
    end = re.search(r"[\r\n]", text)
    return text[: end.start()] if end else text


def _separator(header: str, columns: tuple[str, ...]) -> str:
    """The separator of the file: the one of `,` `;` tab that splits the header into the most
    known column names (Excel writes `;` in many locales), `,` when none does."""
    header = header[:_SNIFF_CHARS]

    def known(separator: str) -> int:
        return sum(
            column_named(cell.strip().strip('"'), columns) is not None
            for cell in header.split(separator, TABLE_MAX_COLUMNS)
        )

    best = max(SEPARATORS, key=known)
    return best if known(best) > 0 else ","


def _width(header: str, separator: str) -> int:
    """The header's columns as its first line counts them, the empty ones at its end left out
    (a spreadsheet writes them), without splitting it."""
    header = header.rstrip(f' \t"{separator}')
    return header.count(separator) + 1 if header else 0


def csv_table_records(
    *, content: bytes, table: Table, problems: ProblemCollector
) -> CountedRecords | None:
    """The data rows of one CSV file as records labelled with their line numbers (see
    planning.transfer.imports.tables); a file that is no text, a header of more than
    TABLE_MAX_COLUMNS columns or a bad one, a row longer than CSV_ROW_MAX_CHARS or more rows
    than the plan limit is a problem, and then there are none (None). The header's width is
    counted before it is split. A first pass checks the header and counts the rows; the
    records are then read as the import checks them, never all at once."""
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
    header_line = _first_line(text)
    separator = _separator(header_line, table.columns)
    if (width := _width(header_line, separator)) > TABLE_MAX_COLUMNS:
        problems.add(section, f"{table.source} line 1", "", table_width_problem(width))
        return None
    table = replace(table, decimal_comma=separator == ";")

    passes = count(1)

    def rows() -> Iterator[tuple[int, list[object]]]:
        # A malformed row is said by the first pass; the reading again stops there silently.
        said = problems if next(passes) == 1 else ProblemCollector()
        return _table_rows(text, separator, table=table, problems=said)

    return table_counted_records(rows, table=table, problems=problems)


def _table_rows(
    text: str, separator: str, *, table: Table, problems: ProblemCollector
) -> Iterator[tuple[int, list[object]]]:
    try:
        for number, cells in csv_rows(text, separator):
            yield number, list(cells)
    except ImportRejected as rejected:
        problem = rejected.problems[0]
        problems.add((table.section, -1), f"{table.source} {problem.row}", "", problem.message)


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
    separator = _separator(_first_line(text), ("field", "value", *PLAN_TABLE_FIELDS))
    rows: list[tuple[int, list[object]]] = []
    try:
        for number, cells in islice(csv_rows(text, separator), PLAN_FILE_MAX_ROWS + 1):
            rows.append((number, list(cells[:2])))  # a field and its value: the rest unread
    except ImportRejected as rejected:
        problem = rejected.problems[0]
        problems.add(position, f"{PLAN_FILENAME} {problem.row}", "", problem.message)
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

"""The plan format as a pair of CSV files (nodes.csv, actions.csv), for people coming from
spreadsheets: the same columns as the JSON format, a header row, an empty cell for "none"
(read as planning.importers.tables says), separated by commas, semicolons or tabs; in a file
separated by semicolons, as Excel writes CSV where the comma is the decimal mark, numbers may
be written 1.234,56."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from dataclasses import replace
from itertools import islice

from accounts.models import User
from organisations.models import Organisation
from planning.importers.plan_document import (
    CountedRecords,
    Record,
    file_text,
    plan_records_import,
)
from planning.importers.problems import ImportRejected
from planning.importers.progress import ImportObserver
from planning.importers.records import ProblemCollector
from planning.importers.tables import (
    WORKBOOK_IN_CSV,
    WORKBOOK_MAGIC,
    Table,
    action_table,
    column_named,
    node_table,
    rows_left,
    table_body,
    table_header,
)
from planning.models import Plan
from planning.services import plan_size_message

NODES_FILENAME = "nodes.csv"
ACTIONS_FILENAME = "actions.csv"


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
    planning.importers.tables); a file that is no text, a bad header or more rows than the
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
    name: str,
    observer: ImportObserver | None = None,
) -> Plan:
    """Imports a plan from nodes.csv and actions.csv; `owner` becomes its owner.

    Raises ImportRejected with every problem of both files, and then writes nothing. CSV has
    no place for the plan's name, so `name` is required (a blank one is a problem).
    """
    name = (name or "").strip()  # a form may hand over None for an empty field
    node_records, action_records, problems = plan_csv_read(
        nodes_csv=nodes_csv, actions_csv=actions_csv
    )
    return plan_records_import(
        owner=owner,
        organisation=organisation,
        name=name,
        node_records=node_records,
        action_records=action_records or [],
        problems=problems,
        observer=observer,
    )

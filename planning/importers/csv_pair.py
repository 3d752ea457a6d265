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

from accounts.models import User
from organisations.models import Organisation
from planning.importers.plan_document import Record, file_text, plan_records_import
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
    table_records,
)
from planning.models import Plan

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


def _csv_records(
    *, content: bytes, table: Table, problems: ProblemCollector
) -> list[Record] | None:
    """The data rows of one CSV file as records labelled with their line numbers (see
    planning.importers.tables.table_records); a file that is no text is a problem."""
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
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=separator, strict=True)

    def rows() -> Iterator[tuple[int, list[object]]]:
        while True:
            try:
                cells = next(reader)
            except StopIteration:
                return
            except csv.Error as error:
                problems.add(
                    section, f"{table.source} line {reader.line_num}", "", f"malformed CSV: {error}"
                )
                return
            yield reader.line_num, list(cells)

    return table_records(rows(), table=table, problems=problems)


def plan_csv_read(
    *, nodes_csv: bytes, actions_csv: bytes
) -> tuple[list[Record] | None, list[Record] | None, ProblemCollector]:
    """The records of the two files and the problems found reading them (not yet checked)."""
    problems = ProblemCollector()
    node_records = _csv_records(
        content=nodes_csv, table=node_table(NODES_FILENAME, "line"), problems=problems
    )
    action_records = _csv_records(
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

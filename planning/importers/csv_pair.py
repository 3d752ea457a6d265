"""The plan format as a pair of CSV files (nodes.csv, actions.csv), for people coming from
spreadsheets: the same columns as the JSON format, a header row, an empty cell for "none"."""

from __future__ import annotations

import csv
import difflib
import io
from decimal import Decimal, InvalidOperation

from django.conf import settings

from accounts.models import User
from organisations.models import Organisation
from planning.importers.plan_document import (
    ACTION_FIELDS,
    ACTION_REQUIRED,
    AMOUNT_FIELDS,
    NODE_FIELDS,
    NODE_REQUIRED,
    YEAR_FIELDS,
    Record,
    file_text,
    plan_records_import,
)
from planning.importers.problems import ImportRejected
from planning.importers.progress import ImportObserver
from planning.importers.records import ProblemCollector
from planning.models import Plan
from planning.services import plan_size_message

NODES_FILENAME = "nodes.csv"
ACTIONS_FILENAME = "actions.csv"


def _cell_value(column: str, cell: str) -> object:
    """A cell as the JSON format would hold it: numbers for the number columns when they
    parse, the text otherwise (the checks then say what is wrong with it)."""
    text = cell.strip()
    if not text:
        return None
    if column in YEAR_FIELDS or column in AMOUNT_FIELDS:
        try:
            number = Decimal(text)
        except InvalidOperation:
            return text
        if column in YEAR_FIELDS and number.is_finite() and number == number.to_integral():
            return int(number)
        return number
    return text


SEPARATORS = (",", ";", "\t")


def _separator(text: str, columns: tuple[str, ...]) -> str:
    """The separator of the file: the one of `,` `;` tab that splits the header into the most
    known column names (Excel writes `;` in many locales), `,` when none does."""
    header = text.split("\n", 1)[0]

    def known(separator: str) -> int:
        return sum(cell.strip().strip('"') in columns for cell in header.split(separator))

    best = max(SEPARATORS, key=known)
    return best if known(best) > 0 else ","


def _csv_records(
    *,
    content: bytes,
    filename: str,
    columns: tuple[str, ...],
    required: tuple[str, ...],
    section: int,
    problems: ProblemCollector,
    max_rows: int,
    what: str,
) -> list[Record] | None:
    """The data rows of one CSV file as records labelled with their line numbers; problems of
    the file or its header are added to `problems`, and then there are no rows (None). Reading
    stops after `max_rows` rows (the plan limit for `what`), so a file of millions of short
    lines is refused without keeping them (docs/design.md "Imports" > "Bounds")."""
    try:
        text = file_text(content, filename)
    except ImportRejected as rejected:
        for problem in rejected.problems:
            problems.add((section, -1), problem.row, problem.field, problem.message)
        return None
    reader = csv.reader(
        io.StringIO(text, newline=""), delimiter=_separator(text, columns), strict=True
    )
    header_row = f"{filename} line 1"
    try:
        header = [cell.strip() for cell in next(reader)]
    except StopIteration:
        problems.add((section, -1), filename, "", "is empty; a header row is required")
        return None
    except csv.Error as error:
        problems.add((section, -1), header_row, "", f"malformed CSV: {error}")
        return None
    header_ok = True
    missing = [column for column in required if column not in header]
    unused = [column for column in columns if column not in header]
    for index, column in enumerate(header):
        if column not in columns:
            header_ok = False
            shown = column or f"column {index + 1} (empty)"
            # One problem per bad header cell: a misspelt column is named, and the column it
            # stands for is not reported again as missing.
            guess = difflib.get_close_matches(column.lower(), unused, n=1, cutoff=0.6)
            if guess:
                unused.remove(guess[0])
                if guess[0] in missing:
                    missing.remove(guess[0])
                message = f'unknown column; did you mean "{guess[0]}"?'
            else:
                message = f"unknown column (the columns are: {', '.join(columns)})"
            problems.add((section, -1), header_row, shown, message)
        elif header.index(column) != index:
            header_ok = False
            problems.add((section, -1), header_row, column, "column appears twice")
    for column in missing:
        header_ok = False
        problems.add((section, -1), header_row, column, "required column is missing")
    if not header_ok:
        return None
    records: list[Record] = []
    while True:
        try:
            cells = next(reader)
        except StopIteration:
            break
        except csv.Error as error:
            problems.add((section, -1), f"{filename} line {reader.line_num}", "", f"{error}")
            break
        row = f"{filename} line {reader.line_num}"
        if not any(cell.strip() for cell in cells):
            continue  # spreadsheets leave blank lines at the end
        if len(records) >= max_rows:
            problems.add((section, -1), what, "", plan_size_message(field=what, limit=max_rows))
            return None
        if len(cells) > len(header) and any(cell.strip() for cell in cells[len(header) :]):
            problems.add(
                (section, len(records)),
                row,
                "",
                f"has {len(cells)} cells but the header has {len(header)} columns",
            )
        # A short row leaves its last columns out: they read as empty cells.
        cells_by_column = zip(header, cells, strict=False)
        records.append((row, {col: _cell_value(col, text) for col, text in cells_by_column}))
    return records


def plan_csv_read(
    *, nodes_csv: bytes, actions_csv: bytes
) -> tuple[list[Record] | None, list[Record] | None, ProblemCollector]:
    """The records of the two files and the problems found reading them (not yet checked)."""
    problems = ProblemCollector()
    node_records = _csv_records(
        content=nodes_csv,
        filename=NODES_FILENAME,
        columns=NODE_FIELDS,
        required=NODE_REQUIRED,
        section=1,
        problems=problems,
        max_rows=settings.PLAN_MAX_NODES,
        what="nodes",
    )
    action_records = _csv_records(
        content=actions_csv,
        filename=ACTIONS_FILENAME,
        columns=ACTION_FIELDS,
        required=ACTION_REQUIRED,
        section=2,
        problems=problems,
        max_rows=settings.PLAN_MAX_ACTIONS,
        what="actions",
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

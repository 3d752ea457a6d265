"""The plan format as an Excel workbook (.xlsx): a sheet "Nodes" and a sheet "Actions" with the
columns of the CSV pair (read as planning.transfer.imports.tables says), and an optional sheet
"Plan" of field / value rows (the plan's name and the JSON format's plan fields). The plan's
Excel export is such a workbook (planning.transfer.exports.plan_document.plan_workbook_sheets;
docs/subsystems/imports.md).

One workbook rather than a workbook per table: a plan is one file to send and to keep, and a
person editing it sees the nodes beside the actions that name them.

A workbook is a ZIP of XML parts, so what it may unpack to is bounded before openpyxl reads it
(its read-only mode then streams the rows; with defusedxml installed, openpyxl refuses XML
entity tricks): at most WORKBOOK_MAX_PARTS parts, WORKBOOK_MAX_XML_BYTES unpacked in all, and
WORKBOOK_MAX_SHARED_BYTES of shared strings, which openpyxl keeps in memory. A formula cell is
read as the value the spreadsheet last computed for it.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from typing import Any

from django.conf import settings
from openpyxl import load_workbook
from openpyxl.worksheet._read_only import ReadOnlyWorksheet

from accounts.models import User
from organisations.models import Organisation
from planning.models import Plan
from planning.transfer.imports.plan_document import plan_records_import
from planning.transfer.imports.plan_fields import plan_fields_read
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.progress import ImportObserver
from planning.transfer.imports.records import ProblemCollector, Record
from planning.transfer.imports.tables import (
    Table,
    action_table,
    node_table,
    plan_name_from_file,
    plan_table_fields,
    table_records,
)

WORKBOOK_MAX_PARTS = 1_000
WORKBOOK_MAX_XML_BYTES = 256 * 1024 * 1024
WORKBOOK_MAX_SHARED_BYTES = 64 * 1024 * 1024
# Columns read of a row: the widest table has 13; more cells than this are not looked at.
WORKBOOK_MAX_COLUMNS = 64
# Excel's own last row: a sheet that claims rows beyond it is no spreadsheet's.
WORKBOOK_MAX_ROW = 1_048_576
SHEET_NODES, SHEET_ACTIONS, SHEET_PLAN = "Nodes", "Actions", "Plan"


def _rejected(filename: str, message: str) -> ImportRejected:
    return ImportRejected([ImportProblem(filename, "", message)])


def _unpacked_check(content: bytes, filename: str) -> None:
    """Refuses a workbook whose parts would unpack beyond the bounds above."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            parts = archive.infolist()
    except (zipfile.BadZipFile, ValueError):
        raise _rejected(filename, "not a readable Excel workbook (.xlsx)") from None
    if len(parts) > WORKBOOK_MAX_PARTS:
        raise _rejected(filename, f"has {len(parts)} parts; an Excel workbook of a plan has a few")
    unpacked = sum(part.file_size for part in parts)
    shared = sum(part.file_size for part in parts if part.filename.endswith("sharedStrings.xml"))
    if unpacked > WORKBOOK_MAX_XML_BYTES or shared > WORKBOOK_MAX_SHARED_BYTES:
        raise _rejected(
            filename,
            f"unpacks to {unpacked} bytes; a workbook of a plan within the limits unpacks to "
            f"at most {WORKBOOK_MAX_XML_BYTES}",
        )


def _sheet_rows(sheet: ReadOnlyWorksheet) -> Iterator[tuple[int, list[object]]]:
    sheet.reset_dimensions()  # the size a file claims is not trusted: rows are read to the end
    for number, row in enumerate(
        sheet.iter_rows(max_col=WORKBOOK_MAX_COLUMNS, values_only=True), start=1
    ):
        if number > WORKBOOK_MAX_ROW:
            return
        yield number, list(row)


def plan_workbook_read(
    content: bytes, filename: str
) -> tuple[str | None, list[Record] | None, list[Record], dict[str, object], ProblemCollector]:
    """The plan name (None when the workbook gives none), node and action records (not yet
    checked), the plan fields' raw values, and the problems found reading them."""
    limit = settings.IMPORT_MAX_BYTES
    if len(content) > limit:
        raise _rejected(filename, f"file too large ({len(content)} bytes; the limit is {limit})")
    _unpacked_check(content, filename)
    try:
        workbook = load_workbook(io.BytesIO(content), read_only=True, data_only=True)
    except Exception as error:  # openpyxl raises what its parts' parsers raise
        raise _rejected(filename, f"not a readable Excel workbook (.xlsx): {error}") from None
    problems = ProblemCollector()
    try:
        sheets = {title.strip().lower(): workbook[title] for title in workbook.sheetnames}
        nodes = sheets.get(SHEET_NODES.lower())
        if nodes is None:
            raise _rejected(
                filename,
                f'has no sheet "{SHEET_NODES}" (its sheets: {", ".join(workbook.sheetnames)}); '
                f'a plan workbook has the sheets "{SHEET_NODES}" and "{SHEET_ACTIONS}"',
            )
        name: str | None = None
        plan_fields: dict[str, object] = {}
        if SHEET_PLAN.lower() in sheets:
            name, plan_fields = plan_table_fields(
                _sheet_rows(sheets[SHEET_PLAN.lower()]),
                source=f"sheet {SHEET_PLAN}",
                row_name="row",
                problems=problems,
            )
        node_records = _records(nodes, node_table(f"sheet {SHEET_NODES}", "row"), problems)
        actions = sheets.get(SHEET_ACTIONS.lower())
        action_records = (
            _records(actions, action_table(f"sheet {SHEET_ACTIONS}", "row"), problems)
            if actions is not None
            else []
        )
    except ImportRejected:
        raise
    except Exception as error:  # a part that breaks while it is streamed
        raise _rejected(filename, f"not a readable Excel workbook (.xlsx): {error}") from None
    finally:
        workbook.close()
    return name, node_records, action_records or [], plan_fields, problems


def _records(sheet: Any, table: Table, problems: ProblemCollector) -> list[Record] | None:
    return table_records(_sheet_rows(sheet), table=table, problems=problems)


def plan_import_workbook(
    *,
    owner: User,
    organisation: Organisation | None = None,
    content: bytes,
    filename: str,
    name: str | None = None,
    observer: ImportObserver | None = None,
    currency: str | None = None,
) -> Plan:
    """Imports a plan from an Excel workbook; `owner` becomes its owner. The plan's name is
    `name` if given, else the sheet "Plan"'s, else the file's (plan_name_from_file); its
    currency the sheet "Plan"'s, else `currency`, else the organisation's default. Raises
    ImportRejected with every problem found, and then writes nothing."""
    workbook_name, node_records, action_records, raw_fields, problems = plan_workbook_read(
        content, filename
    )
    plan_fields = (
        plan_fields_read(raw_fields, problems, source=f"sheet {SHEET_PLAN}") if raw_fields else {}
    )
    chosen = (name or "").strip() or workbook_name or plan_name_from_file(filename)
    return plan_records_import(
        owner=owner,
        organisation=organisation,
        name=chosen,
        node_records=node_records,
        action_records=action_records,
        problems=problems,
        observer=observer,
        plan_fields=plan_fields,
        currency=currency,
    )

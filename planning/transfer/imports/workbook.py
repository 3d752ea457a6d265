"""The plan format as an Excel workbook (.xlsx): a sheet "Nodes" and a sheet "Actions" with the
columns of the CSV pair (read as planning.transfer.imports.tables says), and an optional sheet
"Plan" of field / value rows (the plan's name and the JSON format's plan fields). The plan's
Excel export is such a workbook (planning.transfer.exports.plan_document.plan_workbook_sheets;
docs/subsystems/imports.md).

One workbook rather than a workbook per table: a plan is one file to send and to keep, and a
person editing it sees the nodes beside the actions that name them.

A workbook is a ZIP of XML parts: planning.transfer.imports.workbook_bounds checks what it
holds before openpyxl reads it, and hands openpyxl only the parts it checked. openpyxl's
read-only mode then streams each sheet's rows (TABLE_MAX_COLUMNS of them, to Excel's last row;
with defusedxml installed, openpyxl refuses XML entity tricks), once to check the header and
count the rows and again as the import checks them, so the records are never all in memory.
A formula cell is read as the value the spreadsheet last computed for it.
"""

from __future__ import annotations

import io
from collections.abc import Iterator

from django.conf import settings
from openpyxl.cell.text import Text
from openpyxl.reader.excel import ExcelReader
from openpyxl.workbook import Workbook
from openpyxl.worksheet._read_only import ReadOnlyWorksheet
from openpyxl.xml.constants import SHARED_STRINGS, SHEET_MAIN_NS
from openpyxl.xml.functions import iterparse

from accounts.models import User
from organisations.models import Organisation
from planning.models import Plan
from planning.transfer.imports.plan_document import plan_records_import
from planning.transfer.imports.plan_fields import plan_fields_read
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.progress import ImportObserver
from planning.transfer.imports.records import CountedRecords, ProblemCollector
from planning.transfer.imports.tables import (
    TABLE_MAX_COLUMNS,
    action_table,
    node_table,
    plan_name_from_file,
    plan_table_fields,
    table_counted_records,
)
from planning.transfer.imports.workbook_bounds import workbook_checked
from planning.transfer.imports.workbook_xml import SHEET_MAX_ROWS

SHEET_NODES, SHEET_ACTIONS, SHEET_PLAN = "Nodes", "Actions", "Plan"
_STRING = f"{{{SHEET_MAIN_NS}}}si"
_SHEETS_READ = {title.lower() for title in (SHEET_NODES, SHEET_ACTIONS, SHEET_PLAN)}


class _Reader(ExcelReader):
    """openpyxl's reader, in read-only mode. It reads the shared strings as openpyxl does, but
    lets each string's XML element go once it is read, where openpyxl keeps them all until the
    last (80 bytes each: 63 MB of a million strings, measured)."""

    def read_strings(self) -> None:
        part = self.package.find(SHARED_STRINGS)
        if part is None:
            return
        strings: list[str] = []
        with self.archive.open(part.PartName[1:]) as source:
            root = None
            for event, element in iterparse(source, events=("start", "end")):
                root = element if root is None else root
                if event == "end" and element.tag == _STRING:
                    strings.append(Text.from_tree(element).content.replace("x005F_", ""))
                    element.clear()
                    root.clear()  # the strings read so far: nothing else is kept
        self.shared_strings = strings


def workbook_parse(content: bytes) -> Workbook:
    """The workbook of `content` (a checked archive: workbook_bounds), opened read-only with
    the values its formulas last had; no external link is read."""
    reader = _Reader(io.BytesIO(content), read_only=True, data_only=True, keep_links=False)
    reader.read()
    return reader.wb


def _rejected(filename: str, message: str) -> ImportRejected:
    return ImportRejected([ImportProblem(filename, "", message)])


def sheet_rows(sheet: ReadOnlyWorksheet, filename: str) -> Iterator[tuple[int, list[object]]]:
    sheet.reset_dimensions()  # the size a file claims is not trusted: rows are read to the end
    rows = sheet.iter_rows(max_col=TABLE_MAX_COLUMNS, values_only=True)
    try:
        for number, row in enumerate(rows, start=1):
            if number > SHEET_MAX_ROWS:  # rows missing before a far one are read as empty
                return
            yield number, list(row)
    except Exception as error:  # openpyxl raises what its parts' parsers raise
        raise _rejected(filename, f"not a readable Excel workbook (.xlsx): {error}") from None


def plan_workbook_read(
    content: bytes, filename: str
) -> tuple[
    str | None, CountedRecords | None, CountedRecords | None, dict[str, object], ProblemCollector
]:
    """The plan name (None when the workbook gives none), node and action records (not yet
    checked, read from the workbook as they are iterated), the plan fields' raw values, and the
    problems found reading them."""
    limit = settings.IMPORT_MAX_BYTES
    if len(content) > limit:
        raise _rejected(filename, f"file too large ({len(content)} bytes; the limit is {limit})")
    checked = workbook_checked(
        content, filename, reads=lambda title: title.strip().lower() in _SHEETS_READ
    )
    try:
        workbook = workbook_parse(checked.content)
    except Exception as error:  # openpyxl raises what its parts' parsers raise
        raise _rejected(filename, f"not a readable Excel workbook (.xlsx): {error}") from None
    sheets = {title.strip().lower(): workbook[title] for title in workbook.sheetnames}

    def close() -> None:
        # The records read the sheets as the import checks them, then let the workbook go: its
        # sheets hold the shared strings, and a sheet and its workbook refer to each other.
        for sheet in list(workbook.worksheets):
            workbook.remove(sheet)
        workbook.close()

    nodes = sheets.get(SHEET_NODES.lower())
    if nodes is None:
        raise _rejected(
            filename,
            f'has no sheet "{SHEET_NODES}" (its sheets: {", ".join(checked.sheet_names)}); '
            f'a plan workbook has the sheets "{SHEET_NODES}" and "{SHEET_ACTIONS}"',
        )
    problems = ProblemCollector()
    name: str | None = None
    plan_fields: dict[str, object] = {}
    if SHEET_PLAN.lower() in sheets:
        name, plan_fields = plan_table_fields(
            sheet_rows(sheets[SHEET_PLAN.lower()], filename),
            source=f"sheet {SHEET_PLAN}",
            row_name="row",
            problems=problems,
        )
    node_records = table_counted_records(
        lambda: sheet_rows(nodes, filename),
        table=node_table(f"sheet {SHEET_NODES}", "row"),
        problems=problems,
        close=close,
    )
    actions = sheets.get(SHEET_ACTIONS.lower())
    action_records = (
        table_counted_records(
            lambda: sheet_rows(actions, filename),
            table=action_table(f"sheet {SHEET_ACTIONS}", "row"),
            problems=problems,
            close=close,
        )
        if actions is not None
        else None
    )
    return name, node_records, action_records, plan_fields, problems


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
        action_records=action_records or [],
        problems=problems,
        observer=observer,
        plan_fields=plan_fields,
        currency=currency,
    )

"""Reading back an exported workbook's sheet as a person sees it: the title block above the
table, the table (the autofilter's rows: its header, then the data) and the rows below it; and
a workbook written with openpyxl as a person's spreadsheet would be (`workbook_of`)."""

from __future__ import annotations

import io
from dataclasses import dataclass
from typing import Any

from openpyxl import Workbook, load_workbook
from openpyxl.utils.cell import range_boundaries
from openpyxl.worksheet.worksheet import Worksheet


@dataclass
class SheetParts:
    sheet: Worksheet
    title: str  # the first row's text
    facts: dict[str, Any]  # the title block's labels and values
    table: list[list[Any]]  # the autofilter's rows: the header, then the data
    below: list[list[Any]]  # the rows after the table (an empty row first)
    filter_ref: str
    table_first_row: int


def workbook_sheets(content: bytes) -> dict[str, Worksheet]:
    workbook = load_workbook(io.BytesIO(content))
    return {sheet.title: sheet for sheet in workbook.worksheets}


def sheet_parts(sheet: Worksheet) -> SheetParts:
    ref = sheet.auto_filter.ref
    assert ref, "the table has an autofilter"
    _min_col, first, max_col, last = range_boundaries(ref)
    rows = [list(row) for row in sheet.iter_rows(values_only=True)]
    title_rows = rows[: first - 1]
    assert not title_rows or not any(title_rows[-1]), "an empty row between title and table"
    facts = {row[0]: row[1] for row in title_rows[1:-1]}
    return SheetParts(
        sheet=sheet,
        title=str(title_rows[0][0]) if title_rows else "",
        facts=facts,
        table=[row[:max_col] for row in rows[first - 1 : last]],
        below=rows[last:],
        filter_ref=ref,
        table_first_row=first,
    )


def exported_sheet(content: bytes, name: str | None = None) -> SheetParts:
    """The parts of the sheet `name` (else the first sheet) of an exported workbook."""
    sheets = workbook_sheets(content)
    return sheet_parts(sheets[name] if name is not None else next(iter(sheets.values())))


def workbook_of(sheets: dict[str, list[list[Any]]]) -> bytes:
    """A workbook of `sheets` (title: its rows of cells), in that order, as openpyxl saves it."""
    book = Workbook()
    book.remove(book.active)
    for title, rows in sheets.items():
        sheet = book.create_sheet(title)
        for row in rows:
            sheet.append(row)
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()

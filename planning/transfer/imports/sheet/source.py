"""The rows of one sheet: the first sheet of an Excel workbook, or a CSV file separated by
commas, semicolons or tabs (docs/subsystems/import-mapping.md "The sheet"). The bounds are
the other formats' (docs/subsystems/import-bounds.md): the file's size, a workbook's parts
walked under workbook_xml's limits as they are read (sheet.xlsx_rows), a CSV row's length, at
most TABLE_MAX_COLUMNS columns. Rows are streamed, each with its number as a person counts it
(the header is row 1), again at each call of `rows`, so a preview reads only its first rows
and the import reads the file twice without holding it."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from django.conf import settings

from planning.transfer.imports.csv_pair import SEPARATORS, csv_rows
from planning.transfer.imports.file_text import file_text
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.sheet.xlsx_rows import workbook_rows
from planning.transfer.imports.tables import TABLE_MAX_COLUMNS, WORKBOOK_MAGIC, table_width_problem
from planning.transfer.imports.workbook import SHEET_NODES
from planning.transfer.imports.workbook_bounds import workbook_sheet_names

Rows = Iterator[tuple[int, list[object]]]


@dataclass
class SheetSource:
    """Where the rows come from: `rows()` streams them from the start."""

    rows: Callable[[], Rows]
    decimal_comma: bool
    separator: str = ""  # a CSV file's; "" for a workbook


def is_one_sheet(content: bytes) -> bool:
    """Whether a plan file of the upload is one sheet to map: a workbook without the plan
    format's sheet "Nodes", or text that is not a JSON document."""
    if content.startswith(WORKBOOK_MAGIC):
        names = workbook_sheet_names(content)
        return names is not None and SHEET_NODES.lower() not in {n.strip().lower() for n in names}
    start = content[:1024].lstrip(b"\xef\xbb\xbf \t\r\n")
    return bool(start) and start[:1] not in (b"{", b"[")


def sheet_source(content: bytes, filename: str) -> SheetSource:
    """The rows of the file; ImportRejected (one problem naming the file) when it is over
    IMPORT_MAX_BYTES, not a readable workbook or UTF-8 text, or wider than TABLE_MAX_COLUMNS."""
    sheet_size_check(content, filename)
    if content.startswith(WORKBOOK_MAGIC):
        return _workbook_source(content, filename)
    return _csv_source(content, filename)


def sheet_size_check(content: bytes, filename: str) -> None:
    """ImportRejected when the file is over IMPORT_MAX_BYTES."""
    limit = settings.IMPORT_MAX_BYTES
    if len(content) > limit:
        message = f"file too large ({len(content)} bytes; the limit is {limit})"
        raise ImportRejected([ImportProblem(filename, "", message)])


def _workbook_source(content: bytes, filename: str) -> SheetSource:
    return SheetSource(workbook_rows(content, filename), decimal_comma=False)


def _csv_source(content: bytes, filename: str) -> SheetSource:
    text = file_text(content, filename)
    end = re.search(r"[\r\n]", text)
    header = text[: end.start()] if end else text
    # The separator the header uses most; with none, a file of one column.
    separator = max(SEPARATORS, key=lambda each: (header.count(each), -SEPARATORS.index(each)))
    width = header.rstrip(f' \t"{separator}').count(separator) + 1
    if width > TABLE_MAX_COLUMNS:
        raise ImportRejected([ImportProblem(f"{filename} row 1", "", table_width_problem(width))])

    def rows() -> Rows:
        try:
            for number, cells in csv_rows(text, separator):
                yield number, list(cells[:TABLE_MAX_COLUMNS])
        except ImportRejected as rejected:
            problem = rejected.problems[0]
            where = problem.row.replace("line", "row")
            raise ImportRejected(
                [ImportProblem(f"{filename} {where}", "", problem.message)]
            ) from None

    # Excel writes `;` or tab where the comma is the decimal mark.
    return SheetSource(rows, decimal_comma=separator != ",", separator=separator)

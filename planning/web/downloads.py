"""A spreadsheet download (CSV or XLSX), streamed: the one response every table download of
planning's pages gives (the exports, the history CSV, a version comparison). The first bytes
leave at once, however many rows follow (planning.transfer.csv_stream, planning.transfer.xlsx).
Not a view module: views import it."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from django.http import Http404, StreamingHttpResponse

from planning.transfer import xlsx
from planning.transfer.csv_stream import csv_stream

SPREADSHEET_CONTENT_TYPES = {"csv": "text/csv; charset=utf-8", "xlsx": xlsx.CONTENT_TYPE}


def spreadsheet_download(
    rows: Iterable[Sequence[Any]], *, fmt: str, name: str, sheet: str
) -> StreamingHttpResponse:
    """`rows` (a header, then data) as a CSV or XLSX download named `name`.`fmt`, never cached;
    404 for another format."""
    if fmt not in SPREADSHEET_CONTENT_TYPES:
        raise Http404("No such export format")
    content = csv_stream(rows) if fmt == "csv" else xlsx.xlsx_stream(rows, title=sheet)
    response = StreamingHttpResponse(content, content_type=SPREADSHEET_CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    response["Cache-Control"] = "private, no-store"
    return response

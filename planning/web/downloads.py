"""Spreadsheet downloads, streamed: the one response every table download of planning's pages
gives (the exports, the history CSV, a version comparison). A CSV is a plain table for programs;
a workbook is laid out for people, with its title block (planning.transfer.xlsx.Sheet). The
first bytes leave at once, however many rows follow (planning.transfer.csv_stream,
planning.transfer.xlsx). Not a view module: views import it."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, TypeVar

from django.http import Http404, StreamingHttpResponse
from django.http.response import HttpResponseBase

from planning.transfer import xlsx
from planning.transfer.csv_stream import csv_stream

SPREADSHEET_CONTENT_TYPES = {"csv": "text/csv; charset=utf-8", "xlsx": xlsx.CONTENT_TYPE}

R = TypeVar("R", bound=HttpResponseBase)


def spreadsheet_download(
    *,
    fmt: str,
    name: str,
    rows: Callable[[], Iterable[Sequence[Any]]],
    sheets: Callable[[], Iterable[xlsx.Sheet]],
) -> StreamingHttpResponse:
    """A CSV of `rows()` (a header, then data) or a workbook of `sheets()`, named
    `name`.`fmt`, never cached; 404 for another format. Only the chosen one is made."""
    if fmt not in SPREADSHEET_CONTENT_TYPES:
        raise Http404("No such export format")
    content = csv_stream(rows()) if fmt == "csv" else xlsx.xlsx_sheets_stream(sheets())
    return _download(content, fmt=fmt, name=name)


def csv_download(rows: Iterable[Sequence[Any]], *, name: str) -> StreamingHttpResponse:
    """`rows` (a header, then data) as a CSV download named `name`.csv, never cached."""
    return _download(csv_stream(rows), fmt="csv", name=name)


def _download(content: Iterator[bytes], *, fmt: str, name: str) -> StreamingHttpResponse:
    response = StreamingHttpResponse(content, content_type=SPREADSHEET_CONTENT_TYPES[fmt])
    return as_download(response, f"{name}.{fmt}")


def as_download(response: R, filename: str) -> R:
    """`response` saved as `filename` by the browser, and never cached."""
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response

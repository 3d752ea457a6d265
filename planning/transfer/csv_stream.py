"""CSV written for spreadsheets, streamed (docs/subsystems/exports.md): `csv_stream` and `as_csv`,
the one way any CSV download of the app is written.

Cells are neutralised for spreadsheets: a text that Excel or LibreOffice would read as a formula
(first character `=`, `+`, `-`, `@`, or a tab / carriage return before one) is written with a
leading apostrophe, so a node named `=HYPERLINK("...")` stays text (OWASP "CSV injection");
every text cell is quoted (see `csv_stream`). The XLSX writer (planning.transfer.xlsx) needs
none of it: an inline string is never a formula. Amounts are plain decimals ("1234.50").
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Iterator, Sequence
from itertools import islice
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def spreadsheet_safe(value: Any) -> Any:
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value


# In a CSV cell, a formula character after a separator some spreadsheet may split on (comma,
# semicolon, tab, line break), past any spaces, quotes and further separators: see as_csv.
CSV_FORMULA_AFTER_SEPARATOR = re.compile(r"([,;\t\r\n][,;\t\r\n \"]*)(?=[=+\-@])")


def as_csv(rows: Iterable[Sequence[Any]]) -> bytes:
    """The whole CSV of `csv_stream` at once."""
    return b"".join(csv_stream(rows))


CSV_BATCH = 1000


def csv_stream(rows: Iterable[Sequence[Any]]) -> Iterator[bytes]:
    """UTF-8 with a byte-order mark, which Excel needs to read accents right, in pieces of
    CSV_BATCH rows, so that a download starts at once.

    A spreadsheet reads a CSV with its locale's separator (a semicolon in most of Europe), so
    no cell may turn into a formula whichever of comma, semicolon or tab splits it:

    - every text cell is quoted, numbers are not (``QUOTE_NONNUMERIC``; Python's default quotes
      only cells with a comma, and left ``Roof;=HYPERLINK(B1);`` bare);
    - each cell is neutralised as above, and so is a formula character that follows a
      separator inside a cell (``Fix;@SUM(A1)`` is written ``Fix;'@SUM(A1)``): a reader
      splitting on another separator than ours sees our quotes only around a line's first
      cell and starts a new cell at such a separator, and the apostrophe then leads it.

    Any CSV reader reads the quoted cells back as written; the plan import takes the
    apostrophes off again (planning.transfer.imports.tables).
    """
    yield "\ufeff".encode()
    rows = iter(rows)
    while batch := list(islice(rows, CSV_BATCH)):
        buffer = io.StringIO()
        writer = csv.writer(buffer, quoting=csv.QUOTE_NONNUMERIC)
        for row in batch:
            writer.writerow([_csv_safe(value) for value in row])
        yield buffer.getvalue().encode()


def _csv_safe(value: Any) -> Any:
    value = spreadsheet_safe(value)
    # search first: a match is rare, and sub alone costs 1 µs a cell even without one.
    if isinstance(value, str) and CSV_FORMULA_AFTER_SEPARATOR.search(value):
        return CSV_FORMULA_AFTER_SEPARATOR.sub(r"\1'", value)
    return value

"""The rows of a workbook's first sheet for the one-sheet import, read without openpyxl
(docs/subsystems/import-mapping.md "The sheet", "The preview").

The parts are found as the plan workbook's import finds them (workbook_bounds.
first_sheet_parts) and walked by expat with workbook_xml.Walk counting every element, byte and
text against the same limits, while this reader takes the values from the same events: one walk
both checks and reads a part. openpyxl would walk a sheet again with ElementTree and build a
cell object per value (70 % of the import's time on 100,000 rows), and read every shared string
before the first row. The preview's walks stop once they have its rows (`workbook_first_rows`);
the import's read the sheet to its end at each pass (`workbook_rows`). The values are
openpyxl's: text, int, float, bool, datetime (a number in a date style), a formula's last value.
"""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Iterator
from datetime import datetime
from xml.parsers import expat

from openpyxl.styles.numbers import BUILTIN_FORMATS, is_date_format
from openpyxl.utils.datetime import from_excel
from openpyxl.xml.constants import SHEET_MAIN_NS

from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.tables import TABLE_MAX_COLUMNS
from planning.transfer.imports.workbook_bounds import UNREADABLE, first_sheet_parts
from planning.transfer.imports.workbook_xml import (
    CELL_REF,
    CHUNK,
    SHEET,
    STRINGS,
    TOKEN_MAX_BYTES,
    WHOLE,
    Limits,
    Refused,
    Walk,
    column_index,
    no_doctype,
    tag,
)

Row = tuple[int, list[object]]
Rows = list[Row]
# Rows read at most for a preview, blank ones included (a sheet may start with blank rows).
ROWS_READ_MAX = 1_000


class _Enough(Exception):
    """The walk has what it was for."""


def _walk_chunks(
    archive: zipfile.ZipFile,
    name: str,
    limits: Limits,
    start: Callable[[str, dict[str, str]], None],
    end: Callable[[str], None],
    text: Callable[[str], None],
) -> Iterator[None]:
    """workbook_xml.walk, with handlers of the reader's own beside the bounds' counting,
    pausing after each chunk (so a reader can hand on what it has read)."""
    info = archive.getinfo(name)
    if info.file_size > limits.max_bytes:
        raise Refused(f"unpacks to more than {limits.max_bytes:,} bytes")
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    parser.buffer_size = CHUNK
    bounds = Walk(parser, limits, None)

    def on_start(element: str, attributes: dict[str, str]) -> None:
        bounds.start(element, attributes)
        start(element, attributes)

    def on_end(element: str) -> None:
        bounds.end(element)
        end(element)

    def on_text(data: str) -> None:
        bounds.text(data)
        text(data)

    parser.StartElementHandler = on_start
    parser.EndElementHandler = on_end
    parser.CharacterDataHandler = on_text
    parser.StartDoctypeDeclHandler = no_doctype
    fed = 0
    with archive.open(info) as part:
        while chunk := part.read(CHUNK):
            fed += len(chunk)
            parser.Parse(chunk, False)
            if fed - parser.CurrentByteIndex > TOKEN_MAX_BYTES:
                raise Refused(f"has a tag or comment of more than {TOKEN_MAX_BYTES:,} bytes")
            yield
        parser.Parse(b"", True)
    bounds.finished(fed)
    yield


def _walk_until(
    archive: zipfile.ZipFile,
    name: str,
    limits: Limits,
    start: Callable[[str, dict[str, str]], None],
    end: Callable[[str], None],
    text: Callable[[str], None],
) -> None:
    """The walk to its end, or until a handler raises _Enough."""
    try:
        for _chunk in _walk_chunks(archive, name, limits, start, end, text):
            pass
    except _Enough:
        return


_C, _V, _T, _IS = (tag(SHEET_MAIN_NS, n) for n in ("c", "v", "t", "is"))
_ROW, _SI, _RPH = (tag(SHEET_MAIN_NS, n) for n in ("row", "si", "rPh"))
_NUMFMT, _CELLXFS, _XF = (tag(SHEET_MAIN_NS, n) for n in ("numFmt", "cellXfs", "xf"))


class _SheetRows:
    def __init__(self, wanted: int | None) -> None:
        self.wanted, self.filled = wanted, 0
        self.rows: list[tuple[int, list[tuple[int, str, str, str]]]] = []
        self.column = 0
        self.row: list[tuple[int, str, str, str]] = []  # column, type, style, text
        self.number = 0
        self.cell: tuple[int, str, str] | None = None
        self.text: list[str] = []
        self.reading = False
        self.strings: set[int] = set()

    def start(self, name: str, attributes: dict[str, str]) -> None:
        if name == _ROW:
            number = attributes.get("r", "")
            self.number = int(number) if _digits(number) and len(number) < 9 else self.number + 1
            self.row, self.column = [], 0
        elif name == _C:
            self.column += 1
            reference = CELL_REF.fullmatch(attributes.get("r", ""))
            if reference is not None:
                self.column = column_index(reference.group(1))
            self.cell = (self.column, attributes.get("t", "n"), attributes.get("s", "0"))
            self.text = []
        elif name in (_V, _T) and self.cell is not None:
            self.reading = True

    def end(self, name: str) -> None:
        if name in (_V, _T):
            self.reading = False
        elif name == _C and self.cell is not None:
            column, kind, style = self.cell
            if column <= TABLE_MAX_COLUMNS:
                self.row.append((column, kind, style, "".join(self.text)))
                if kind == "s" and self.wanted is not None and _digits("".join(self.text)):
                    self.strings.add(int("".join(self.text)))
            self.cell = None
        elif name == _ROW:
            self.rows.append((self.number, self.row))
            self.filled += any(text for _c, _k, _s, text in self.row)
            if self.wanted is not None and (
                self.filled >= self.wanted or len(self.rows) >= ROWS_READ_MAX
            ):
                raise _Enough

    def on_text(self, data: str) -> None:
        if self.reading:
            self.text.append(data)


def _strings_until(archive: zipfile.ZipFile, part: str, highest: int | None) -> list[str]:
    """The shared strings up to the `highest` index (None: all of them)."""
    strings: list[str] = []
    text: list[str] = []
    state = {"t": False, "phonetic": 0}

    def start(name: str, _attributes: dict[str, str]) -> None:
        if name == _SI:
            text.clear()
        elif name == _RPH:
            state["phonetic"] += 1
        elif name == _T:
            state["t"] = True

    def end(name: str) -> None:
        if name == _T:
            state["t"] = False
        elif name == _RPH:
            state["phonetic"] -= 1
        elif name == _SI:
            strings.append("".join(text).replace("x005F_", ""))
            if highest is not None and len(strings) > highest:
                raise _Enough

    def on_text(data: str) -> None:
        if state["t"] and not state["phonetic"]:
            text.append(data)

    _walk_until(archive, part, STRINGS, start, end, on_text)
    return strings


def _date_styles(archive: zipfile.ZipFile, part: str) -> set[str]:
    """The cell styles (their index, as a cell's `s` names it) whose number format is a date."""
    formats: dict[str, str] = {str(key): value for key, value in BUILTIN_FORMATS.items()}
    styles: list[str] = []
    inside = [0]

    def start(name: str, attributes: dict[str, str]) -> None:
        if name == _NUMFMT:
            formats[attributes.get("numFmtId", "")] = attributes.get("formatCode", "")
        elif name == _CELLXFS:
            inside[0] += 1
        elif name == _XF and inside[0]:
            styles.append(attributes.get("numFmtId", "0"))

    def end(name: str) -> None:
        if name == _CELLXFS:
            inside[0] -= 1

    _walk_until(archive, part, WHOLE, start, end, lambda _data: None)
    return {
        str(index) for index, number in enumerate(styles) if is_date_format(formats.get(number))
    }


def _digits(text: str) -> bool:
    """ASCII digits only: `str.isdigit` is true of "²" and other digits `int` cannot read."""
    return text.isascii() and text.isdigit()


def _value(kind: str, style: str, text: str, strings: list[str], dates: set[str]) -> object:
    if kind == "s":
        index = int(text) if _digits(text.strip()) else -1
        return strings[index] if 0 <= index < len(strings) else None
    if kind in ("inlineStr", "str", "e"):
        return text
    if not text:
        return None
    if kind == "b":
        return text.strip() == "1"
    if kind == "d":
        try:
            return datetime.fromisoformat(text.strip())
        except ValueError:
            return text
    try:
        number: int | float = int(text) if text.strip().lstrip("-").isdigit() else float(text)
    except ValueError:
        return text
    if style in dates:
        try:
            return from_excel(number)
        except (ValueError, OverflowError):
            return number
    return number


def _values(
    cells: list[tuple[int, str, str, str]], strings: list[str], dates: set[str]
) -> list[object]:
    width = max((column for column, _k, _s, _t in cells), default=0)
    values: list[object] = [None] * width
    for column, kind, style, text in cells:
        values[column - 1] = _value(kind, style, text, strings, dates)
    return values


def _rejected(filename: str, error: Exception) -> ImportRejected:
    if isinstance(error, Refused):
        return ImportRejected([ImportProblem(error.where or filename, "", error.message)])
    message = f"not a readable Excel workbook (.xlsx): {error}"
    return ImportRejected([ImportProblem(filename, "", message)])


_UNREADABLE = (Refused, *UNREADABLE)


def workbook_first_rows(content: bytes, filename: str, *, wanted: int) -> Rows:
    """The first sheet's rows as openpyxl would give them (64 cells wide), until `wanted` of
    them have a value (or ROWS_READ_MAX are read). ImportRejected at the first bound passed."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            sheet, strings_part, styles_part = first_sheet_parts(archive)
            reader = _SheetRows(wanted)
            if sheet:
                _walk_until(archive, sheet, SHEET, reader.start, reader.end, reader.on_text)
            highest = max(reader.strings, default=-1)
            strings = (
                _strings_until(archive, strings_part, highest)
                if strings_part and highest >= 0
                else []
            )
            dates = _date_styles(archive, styles_part) if styles_part else set()
    except _UNREADABLE as error:
        raise _rejected(filename, error) from None
    return [(number, _values(cells, strings, dates)) for number, cells in reader.rows]


def workbook_rows(content: bytes, filename: str) -> Callable[[], Iterator[Row]]:
    """Every row of the first sheet, streamed again at each call (the import's two passes),
    its parts walked under the bounds as they are read.
    The shared strings are read first, whole (they are bounded: workbook_xml.STRINGS)."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(content))
        sheet, strings_part, styles_part = first_sheet_parts(archive)
        strings = _strings_until(archive, strings_part, None) if strings_part else []
        dates = _date_styles(archive, styles_part) if styles_part else set()
    except _UNREADABLE as error:
        raise _rejected(filename, error) from None

    def rows() -> Iterator[Row]:
        if not sheet:
            return
        reader = _SheetRows(None)
        try:
            for _chunk in _walk_chunks(
                archive, sheet, SHEET, reader.start, reader.end, reader.on_text
            ):
                read, reader.rows = reader.rows, []
                for number, cells in read:
                    yield number, _values(cells, strings, dates)
        except _UNREADABLE as error:
            raise _rejected(filename, error) from None

    return rows

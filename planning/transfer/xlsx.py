"""A spreadsheet (XLSX) written as a stream: the first bytes leave while the rows are still being
read, and memory stays flat however many rows there are (docs/subsystems/exports.md).

openpyxl's write-only mode keeps the whole sheet in a temporary file and zips it at the end, so
a download of 100,000 actions sent nothing for 12 s. Here the sheet's XML is written row by row
into a ZIP entry that goes to the client as it grows (`zipfile` writes a data descriptor after an
entry when its output cannot seek, which every spreadsheet program reads). The workbook's other
parts are small: the fixed ones (styles, the package's relationships) are written first, so the
first bytes leave before a row is read, the others after the sheets, when their sizes are known.

What a spreadsheet person expects of the sheet (a `Sheet`):

- a title block above the table that says what the workbook is (the plan, its organisation,
  the date, the prices and the currency), so a forwarded file still says so;
- a bold, shaded header row that wraps, frozen when scrolling, with an autofilter over the data
  and nothing else: totals sit below the table, in bold, where sorting and filtering the data
  leaves them alone;
- column widths from the header and the first rows (the sheet is not read twice);
- `Decimal` amounts as numbers with two decimals and thousands separators, `int` as plain
  numbers (years stay 2030, not 2,030), dates as dates, every text as text: an inline string
  is never a formula, so no neutralising apostrophe is needed (the CSV has one).
"""

from __future__ import annotations

import datetime
import re
import zipfile
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from decimal import Decimal
from itertools import chain, islice
from typing import IO, Any, cast
from xml.sax.saxutils import escape

CONTENT_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

# Styles (cellXfs of styles.xml, by position): the header, money, dates, the title, bold text
# and bold money (a total row).
_HEADER, _MONEY, _DATE, _TITLE, _BOLD, _BOLD_MONEY = 1, 2, 3, 4, 5, 6
# A chunk leaves once this much compressed output has gathered.
_CHUNK_BYTES = 64 * 1024
# Rows looked at for the column widths; widths stay within these bounds (characters).
_WIDTH_SAMPLE = 200
_WIDTH_MIN, _WIDTH_MAX, _HEADER_WIDTH_MAX = 8, 60, 24
# Characters XML 1.0 cannot hold at all: a name pasted with a control character loses it.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")
_EXCEL_EPOCH = datetime.date(1899, 12, 30)


class Bold(tuple[Any, ...]):
    """A row written in bold: a total or subtotal, a small table's header below the table."""

    __slots__ = ()


@dataclass(frozen=True)
class Sheet:
    """One sheet: `title` rows above the table (the first is the sheet's title, larger and
    bold; the others a label and its value), an empty row, the `table` (its header, then the
    data: frozen below the header, the autofilter over exactly these rows), then the rows
    `below` it (totals, in `Bold` rows), which sorting and filtering the table leave in place.
    A sheet without a title block starts with its header, as the import format's do."""

    name: str
    table: Iterable[Sequence[Any]]
    title: Sequence[Sequence[Any]] = ()
    below: Iterable[Sequence[Any]] = ()


def xlsx_stream(rows: Iterable[Sequence[Any]], *, title: str) -> Iterator[bytes]:
    """The workbook of one sheet named `title`: the first row is its header, the rest data."""
    return xlsx_sheets_stream([(title, rows)])


def xlsx_sheets_stream(
    sheets: Iterable[Sheet | tuple[str, Iterable[Sequence[Any]]]],
) -> Iterator[bytes]:
    """The workbook of these sheets (a `Sheet`, or a name and rows: a header, then data),
    written in turn."""
    sink = _Sink()
    shapes: list[tuple[str, str]] = []  # each sheet's name and its autofilter's cells
    with zipfile.ZipFile(
        cast(IO[bytes], sink), "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1
    ) as zf:
        # The fixed parts first, so the first bytes leave (and the browser starts the download)
        # before a row is read: the rows of a big table come only after their query has read
        # and sorted them all (about a second for 100,000 actions).
        zf.writestr("_rels/.rels", _ROOT_RELS)
        zf.writestr("xl/styles.xml", _STYLES)
        yield sink.take()
        for number, given in enumerate(sheets, start=1):
            sheet = given if isinstance(given, Sheet) else Sheet(name=given[0], table=given[1])
            rows = iter(sheet.table)
            header = next(rows, ())
            sample = list(islice(rows, _WIDTH_SAMPLE))
            with zf.open(f"xl/worksheets/sheet{number}.xml", "w") as part:
                count = len(sheet.title) + 1 if sheet.title else 0  # the title, an empty row
                part.write(_sheet_start(header, sample, header_row=count + 1))
                for index, title_row in enumerate(sheet.title, start=1):
                    part.write(_row(index, title_row, _TITLE if index == 1 else 0))
                count += 1
                header_row = count
                if header:
                    part.write(_row(count, header, _HEADER))
                for row in chain(sample, rows):
                    count += 1
                    part.write(_row(count, row))
                    if sink.size >= _CHUNK_BYTES:
                        yield sink.take()
                cells = _filter_range(len(header), header_row, count) if header else ""
                for row in sheet.below:
                    count += 1
                    part.write(_row(count, row, _BOLD if isinstance(row, Bold) else 0))
                    if sink.size >= _CHUNK_BYTES:
                        yield sink.take()
                part.write(_sheet_end(cells))
            shapes.append((_sheet_name(sheet.name, taken={name for name, _ in shapes}), cells))
        zf.writestr("[Content_Types].xml", _content_types(len(shapes)))
        zf.writestr("xl/workbook.xml", _workbook(shapes))
        zf.writestr("xl/_rels/workbook.xml.rels", _workbook_rels(len(shapes)))
    yield sink.take()


class _Sink:
    """Where the ZIP writes: it cannot seek, so zipfile streams, and its bytes are taken."""

    def __init__(self) -> None:
        self._chunks: list[bytes] = []
        self.size = 0

    def write(self, data: bytes) -> int:
        self._chunks.append(bytes(data))
        self.size += len(data)
        return len(data)

    def flush(self) -> None:
        pass

    def take(self) -> bytes:
        data = b"".join(self._chunks)
        self._chunks, self.size = [], 0
        return data


def column_letter(index: int) -> str:
    """A column's letters from its 0-based index: 0 is A, 26 is AA."""
    letters = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        letters = chr(65 + rest) + letters
    return letters


def _text(value: str) -> str:
    return escape(_NOT_XML.sub("", value))


def _cell(ref: str, value: Any, style: int = 0) -> str:
    if value is None or value == "":
        return ""
    shown = f' s="{style}"' if style else ""
    if isinstance(value, bool):
        return f'<c r="{ref}" t="b"{shown}><v>{int(value)}</v></c>'
    if isinstance(value, Decimal):
        money = _BOLD_MONEY if style == _BOLD else _MONEY
        return f'<c r="{ref}" s="{money}"><v>{value:f}</v></c>'
    if isinstance(value, int | float):
        return f'<c r="{ref}"{shown}><v>{value}</v></c>'
    if isinstance(value, datetime.date):
        serial = (value - _EXCEL_EPOCH).days
        return f'<c r="{ref}" s="{_DATE}"><v>{serial}</v></c>'
    text = _text(str(value))
    space = ' xml:space="preserve"' if text != text.strip() else ""
    return f'<c r="{ref}" t="inlineStr"{shown}><is><t{space}>{text}</t></is></c>'


def _row(number: int, row: Sequence[Any], style: int = 0) -> bytes:
    cells = "".join(
        _cell(f"{column_letter(index)}{number}", value, style) for index, value in enumerate(row)
    )
    return f'<row r="{number}">{cells}</row>'.encode()


def _shown_length(value: Any) -> int:
    if isinstance(value, Decimal):
        return len(f"{value:,.2f}")
    if isinstance(value, datetime.date):
        return 10
    return max((len(line) for line in str(value).splitlines()), default=0)


def _widths(header: Sequence[Any], sample: list[Sequence[Any]]) -> list[int]:
    widths = []
    for index, title in enumerate(header):
        data = max((_shown_length(row[index]) for row in sample if index < len(row)), default=0)
        # A long header wraps (its row is taller) rather than widening a column of numbers.
        wanted = max(data, min(_shown_length(title), _HEADER_WIDTH_MAX)) + 2
        widths.append(min(max(wanted, _WIDTH_MIN), _WIDTH_MAX))
    return widths


def _sheet_start(header: Sequence[Any], sample: list[Sequence[Any]], *, header_row: int) -> bytes:
    """The sheet up to its rows: the column widths, and the panes frozen below the header."""
    cols = "".join(
        f'<col min="{n}" max="{n}" width="{width}" customWidth="1"/>'
        for n, width in enumerate(_widths(header, sample), start=1)
    )
    first = f"A{header_row + 1}"
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
        '<sheetViews><sheetView workbookViewId="0">'
        f'<pane ySplit="{header_row}" topLeftCell="{first}" activePane="bottomLeft" '
        'state="frozen"/>'
        f'<selection pane="bottomLeft" activeCell="{first}" sqref="{first}"/>'
        "</sheetView></sheetViews>"
        '<sheetFormatPr defaultRowHeight="15"/>'
        + (f"<cols>{cols}</cols>" if cols else "")
        + "<sheetData>"
    ).encode()


def _filter_range(columns: int, first_row: int, last_row: int) -> str:
    return f"A{first_row}:{column_letter(columns - 1)}{last_row}"


def _sheet_end(filter_cells: str) -> bytes:
    autofilter = f'<autoFilter ref="{filter_cells}"/>' if filter_cells else ""
    return f"</sheetData>{autofilter}</worksheet>".encode()


def _sheet_name(title: str, *, taken: set[str]) -> str:
    """A sheet name Excel accepts: at most 31 characters, none of []:*?/\\, unique."""
    name = re.sub(r"[\[\]:*?/\\]", " ", _NOT_XML.sub("", title))[:31].strip("' ") or "Sheet"
    stem, n = name, 1
    while name.lower() in {other.lower() for other in taken}:
        n += 1
        name = f"{stem[: 31 - len(str(n)) - 1]} {n}"
    return name


def _workbook(shapes: list[tuple[str, str]]) -> str:
    sheets = "".join(
        f'<sheet name="{_text(name)}" sheetId="{n}" r:id="rId{n}"/>'
        for n, (name, _cells) in enumerate(shapes, start=1)
    )
    # The autofilters, as Excel itself names them.
    defined = "".join(
        f'<definedName name="_xlnm._FilterDatabase" localSheetId="{n}" hidden="1">'
        f"{_text(_quoted(name))}!{_absolute(cells)}</definedName>"
        for n, (name, cells) in enumerate(shapes)
        if cells
    )
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        f"<sheets>{sheets}</sheets>"
        + (f"<definedNames>{defined}</definedNames>" if defined else "")
        + "</workbook>"
    )


def _quoted(name: str) -> str:
    return "'" + name.replace("'", "''") + "'"


def _absolute(cells: str) -> str:
    return ":".join(re.sub(r"([A-Z]+)(\d+)", r"$\1$\2", part) for part in cells.split(":"))


_XML_HEAD = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
_OFFICE = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
_SPREADSHEET = "application/vnd.openxmlformats-officedocument.spreadsheetml"


def _content_types(sheets: int) -> str:
    overrides = "".join(
        f'<Override PartName="/xl/worksheets/sheet{n}.xml" '
        f'ContentType="{_SPREADSHEET}.worksheet+xml"/>'
        for n in range(1, sheets + 1)
    )
    return (
        _XML_HEAD + '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        f'<Override PartName="/xl/workbook.xml" ContentType="{_SPREADSHEET}.sheet.main+xml"/>'
        f'<Override PartName="/xl/styles.xml" ContentType="{_SPREADSHEET}.styles+xml"/>'
        f"{overrides}</Types>"
    )


def _workbook_rels(sheets: int) -> str:
    relationships = "".join(
        f'<Relationship Id="rId{n}" Type="{_OFFICE}/worksheet" Target="worksheets/sheet{n}.xml"/>'
        for n in range(1, sheets + 1)
    )
    return (
        _XML_HEAD + f'<Relationships xmlns="{_RELATIONSHIPS}">{relationships}'
        f'<Relationship Id="rId{sheets + 1}" Type="{_OFFICE}/styles" Target="styles.xml"/>'
        "</Relationships>"
    )


_ROOT_RELS = (
    _XML_HEAD + f'<Relationships xmlns="{_RELATIONSHIPS}">'
    f'<Relationship Id="rId1" Type="{_OFFICE}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
# Number formats 4 ("#,##0.00") and a custom ISO date; the header's bold font and grey fill;
# the title's larger bold font; bold text and bold money for totals.
_STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<numFmts count="1"><numFmt numFmtId="164" formatCode="yyyy-mm-dd"/></numFmts>'
    '<fonts count="3"><font><sz val="11"/><name val="Calibri"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/></font>'
    '<font><b/><sz val="14"/><name val="Calibri"/></font></fonts>'
    '<fills count="3"><fill><patternFill patternType="none"/></fill>'
    '<fill><patternFill patternType="gray125"/></fill>'
    '<fill><patternFill patternType="solid"><fgColor rgb="FFE7ECF2"/></patternFill></fill>'
    "</fills>"
    '<borders count="2"><border><left/><right/><top/><bottom/><diagonal/></border>'
    '<border><left/><right/><top/><bottom style="thin"><color rgb="FF8A99AD"/></bottom>'
    "<diagonal/></border></borders>"
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="7">'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="0" fontId="1" fillId="2" borderId="1" xfId="0" applyFont="1" applyFill="1" '
    'applyBorder="1" applyAlignment="1"><alignment vertical="top" wrapText="1"/></xf>'
    '<xf numFmtId="4" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="0" fontId="2" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>'
    '<xf numFmtId="4" fontId="1" fillId="0" borderId="0" xfId="0" applyNumberFormat="1" '
    'applyFont="1"/>'
    "</cellXfs>"
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)

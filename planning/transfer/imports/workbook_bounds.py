"""What an Excel workbook may hold, checked before openpyxl reads a byte of it
(docs/subsystems/import-bounds.md "Excel workbooks").

A workbook is a ZIP of XML parts, and what openpyxl builds from a part depends on the part: it
parses the content types, the workbook, its relationships and the styles whole, keeps every
shared string in a list, and streams a sheet row by row while keeping what lies outside the
rows. A 617 KB file could make that 1.8 GB. So, before openpyxl opens the file:

- the archive's directory: at most WORKBOOK_MAX_PARTS parts, unpacking to at most
  WORKBOOK_MAX_XML_BYTES (zipfile stops a part at its declared size, so it cannot lie);
- its parts are found through `[Content_Types].xml` (the workbook) and the workbook's
  relationships (its sheets and shared strings), as Excel finds them, never by their names;
  at most WORKBOOK_MAX_SHEETS sheets;
- each part that will be read is unpacked once and walked with expat in chunks, counting, with
  no tree built: a part read whole has at most PART_MAX_BYTES and PART_MAX_ELEMENTS; the
  shared strings at most STRINGS_MAX entries and STRINGS_MAX_CHARS characters of text; a
  sheet at most SHEET_MAX_ROWS rows, each of at most ROW_MAX_ELEMENTS elements and
  ROW_MAX_BYTES, and at most SHEET_MAX_OTHER_ELEMENTS / SHEET_MAX_OTHER_BYTES outside its
  rows; no cell or shared string longer than CELL_MAX_CHARS characters (Excel's own cap, a
  problem naming the sheet and the cell); no DOCTYPE (so no entities), and no tag, comment or
  instruction longer than TOKEN_MAX_BYTES (expat holds one whole until it ends);
- openpyxl is handed a new archive of exactly the parts walked: content types written here
  that name them, the workbook, its relationships, the styles, the shared strings and the
  sheets the import reads. Whatever else the file holds (other sheets, charts, images,
  external links, properties, a theme) is never unpacked.
"""

from __future__ import annotations

import io
import posixpath
import re
import zipfile
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO
from xml.parsers import expat
from xml.sax.saxutils import quoteattr

from openpyxl.packaging.relationship import get_rels_path
from openpyxl.xml.constants import (
    ARC_CONTENT_TYPES,
    ARC_STYLE,
    CONTYPES_NS,
    PKG_REL_NS,
    REL_NS,
    SHARED_STRINGS,
    SHEET_MAIN_NS,
    XLSM,
    XLSX,
    XLTM,
    XLTX,
)

from planning.transfer.imports.problems import ImportProblem, ImportRejected

WORKBOOK_MAX_PARTS = 1_000
WORKBOOK_MAX_XML_BYTES = 256 * 1024 * 1024
WORKBOOK_MAX_SHEETS = 32
# A part openpyxl parses whole (the workbook, its relationships, the styles, the content types).
PART_MAX_BYTES = 8 * 1024 * 1024
PART_MAX_ELEMENTS = 100_000
# The shared strings, which openpyxl keeps in a list while the sheets are read.
WORKBOOK_MAX_SHARED_BYTES = 64 * 1024 * 1024
STRINGS_MAX = 1_000_000
STRINGS_MAX_CHARS = 16 * 1024 * 1024
STRING_MAX_ELEMENTS = 4_096  # a string's formatted runs
STRING_MAX_BYTES = 1024 * 1024
# Excel's own limit for the text of a cell.
CELL_MAX_CHARS = 32_767
# Excel's own last row; a row holds Excel's 16,384 cells with their values.
SHEET_MAX_ROWS = 1_048_576
ROW_MAX_ELEMENTS = 65_536
ROW_MAX_BYTES = 8 * 1024 * 1024
# What a sheet holds outside its rows (columns, merged cells, views), which openpyxl keeps.
SHEET_MAX_OTHER_ELEMENTS = 100_000
SHEET_MAX_OTHER_BYTES = 16 * 1024 * 1024
TOKEN_MAX_BYTES = 64 * 1024
_CHUNK = 64 * 1024

_WORKBOOK_TYPES = (XLTM, XLTX, XLSM, XLSX)  # openpyxl's order
_WORKSHEET_REL = "/worksheet"
_STRINGS_REL = "/sharedStrings"
_CELL_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")


def _tag(namespace: str, name: str) -> str:
    return f"{namespace} {name}"  # as expat names an element with namespace_separator=" "


class _Refused(Exception):
    """A bound was passed: `message`, about `where` (a cell; else the part)."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message, self.where = message, where


@dataclass(frozen=True)
class CheckedWorkbook:
    """The archive openpyxl may read (only the parts walked) and the names of every sheet the
    workbook lists, in its order."""

    content: bytes
    sheet_names: list[str]


@dataclass(frozen=True)
class _Limits:
    max_bytes: int
    other_max_elements: int  # elements outside the units (all of them, without units)
    other_max_bytes: int  # bytes outside the units, their text between them included
    unit: str = ""  # the element that openpyxl builds and drops one at a time: a row, a string
    max_units: int = 0
    unit_max_elements: int = 0
    unit_max_bytes: int = 0
    text_unit: str = ""  # the element whose text is capped at CELL_MAX_CHARS: a cell, a string
    max_text_chars: int = 0  # the text of every text unit together (0: no bound but the part's)


_SHEET_UNIT, _SHEET_CELL = _tag(SHEET_MAIN_NS, "row"), _tag(SHEET_MAIN_NS, "c")
_WHOLE = _Limits(
    max_bytes=PART_MAX_BYTES, other_max_elements=PART_MAX_ELEMENTS, other_max_bytes=PART_MAX_BYTES
)
_STRINGS = _Limits(
    max_bytes=WORKBOOK_MAX_SHARED_BYTES,
    other_max_elements=PART_MAX_ELEMENTS,
    other_max_bytes=PART_MAX_BYTES,
    unit=_tag(SHEET_MAIN_NS, "si"),
    max_units=STRINGS_MAX,
    unit_max_elements=STRING_MAX_ELEMENTS,
    unit_max_bytes=STRING_MAX_BYTES,
    text_unit=_tag(SHEET_MAIN_NS, "si"),
    max_text_chars=STRINGS_MAX_CHARS,
)
_SHEET = _Limits(
    max_bytes=WORKBOOK_MAX_XML_BYTES,
    other_max_elements=SHEET_MAX_OTHER_ELEMENTS,
    other_max_bytes=SHEET_MAX_OTHER_BYTES,
    unit=_SHEET_UNIT,
    max_units=SHEET_MAX_ROWS,
    unit_max_elements=ROW_MAX_ELEMENTS,
    unit_max_bytes=ROW_MAX_BYTES,
    text_unit=_SHEET_CELL,
)


class _Walk:
    """Counts one part's elements, bytes and text as expat reports them, against `limits`;
    `seen` gets every element's name and attributes (to collect what a part says)."""

    def __init__(
        self,
        parser: expat.XMLParserType,
        limits: _Limits,
        seen: Callable[[str, dict[str, str]], None] | None,
    ) -> None:
        self.parser, self.limits, self.seen = parser, limits, seen
        self.word = "row" if limits.unit == _SHEET_UNIT else "string"
        self.units = self.unit_depth = self.unit_started = self.unit_elements = 0
        self.inside_units = 0  # bytes of the units ended so far
        self.other_elements = 0
        self.text_depth = self.text_chars = self.all_text_chars = 0
        self.row = self.column = 0
        self.cell = ""

    def start(self, name: str, attributes: dict[str, str]) -> None:
        limits, position = self.limits, self.parser.CurrentByteIndex
        if name == limits.unit:
            if not self.unit_depth:
                self.units += 1
                if self.units > limits.max_units:
                    raise _Refused(f"has more than {limits.max_units:,} {self.word}s")
                self.unit_started, self.unit_elements = position, 0
                number = attributes.get("r", "")
                if not number.isdigit():
                    self.row += 1  # openpyxl counts it on from the row before
                else:
                    self.row = int(number) if len(number) <= 9 else SHEET_MAX_ROWS + 1
                if self.row > SHEET_MAX_ROWS:
                    raise _Refused(f"has a row beyond Excel's last ({SHEET_MAX_ROWS:,})")
                self.column = 0
            self.unit_depth += 1
        if self.unit_depth:
            self.unit_elements += 1
            if self.unit_elements > limits.unit_max_elements:
                raise _Refused(
                    f"has more than {limits.unit_max_elements:,} elements in one {self.word}",
                    self._where(),
                )
            if position - self.unit_started > limits.unit_max_bytes:
                raise _Refused(
                    f"has a {self.word} of more than {limits.unit_max_bytes:,} bytes",
                    self._where(),
                )
        else:
            self.other_elements += 1
            if self.other_elements > limits.other_max_elements:
                raise _Refused(f"has more than {limits.other_max_elements:,} elements{self._out}")
            self._other_bytes_check(position)
        if name == limits.text_unit:
            if not self.text_depth:
                self.text_chars = 0
                self._cell_started(attributes)
            self.text_depth += 1
        if self.seen is not None:
            self.seen(name, attributes)

    def end(self, name: str) -> None:
        if name == self.limits.text_unit and self.text_depth:
            self.text_depth -= 1
        if name == self.limits.unit and self.unit_depth:
            self.unit_depth -= 1
            if not self.unit_depth:
                self.inside_units += self.parser.CurrentByteIndex - self.unit_started

    def text(self, data: str) -> None:
        if not self.text_depth:
            return  # bounded by the bytes of its row, or of what is outside the units
        self.text_chars += len(data)
        if self.text_chars > CELL_MAX_CHARS:
            raise _Refused(
                f"has more than {CELL_MAX_CHARS:,} characters (the most a cell holds)",
                self._where(),
            )
        self.all_text_chars += len(data)
        if self.limits.max_text_chars and self.all_text_chars > self.limits.max_text_chars:
            raise _Refused(f"has more than {self.limits.max_text_chars:,} characters of text")

    def finished(self, length: int) -> None:
        self._other_bytes_check(length)

    @property
    def _out(self) -> str:
        return f" outside its {self.word}s" if self.limits.unit else ""

    def _other_bytes_check(self, position: int) -> None:
        if position - self.inside_units > self.limits.other_max_bytes:
            raise _Refused(f"has more than {self.limits.other_max_bytes:,} bytes{self._out}")

    def _cell_started(self, attributes: Mapping[str, str]) -> None:
        if self.limits.text_unit != _SHEET_CELL:
            self.cell = f"string {self.units}"
            return
        self.column += 1
        reference = _CELL_REF.fullmatch(attributes.get("r", ""))
        if reference is not None:
            self.cell = f"cell {reference.group(0)}"
            self.column = _column_index(reference.group(1))
        else:
            self.cell = f"cell {_column_letters(self.column)}{self.row}"

    def _where(self) -> str:
        if self.text_depth:
            return self.cell
        return f"{self.word} {self.units if self.word == 'string' else self.row}"


def _column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index


def _column_letters(index: int) -> str:
    letters = ""
    while index > 0:
        index, rest = divmod(index - 1, 26)
        letters = chr(ord("A") + rest) + letters
    return letters


def _walk(
    archive: zipfile.ZipFile,
    name: str,
    limits: _Limits,
    *,
    seen: Callable[[str, dict[str, str]], None] | None = None,
    copy: IO[bytes] | None = None,
) -> None:
    """Unpacks the part `name` in chunks through expat (and into `copy`), raising _Refused at
    the first bound it passes."""
    info = archive.getinfo(name)
    if info.file_size > limits.max_bytes:
        raise _Refused(f"unpacks to more than {limits.max_bytes:,} bytes")
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    parser.buffer_size = _CHUNK
    walk = _Walk(parser, limits, seen)
    parser.StartElementHandler = walk.start
    parser.EndElementHandler = walk.end
    parser.CharacterDataHandler = walk.text
    parser.StartDoctypeDeclHandler = _no_doctype
    fed = 0
    with archive.open(info) as part:
        while chunk := part.read(_CHUNK):
            fed += len(chunk)
            if copy is not None:
                copy.write(chunk)
            parser.Parse(chunk, False)
            # expat holds a tag, comment or instruction whole until it ends
            if fed - parser.CurrentByteIndex > TOKEN_MAX_BYTES:
                raise _Refused(f"has a tag or comment of more than {TOKEN_MAX_BYTES:,} bytes")
        parser.Parse(b"", True)
    walk.finished(fed)


def _no_doctype(*_arguments: object) -> None:
    raise _Refused("declares a DOCTYPE, which no workbook has")


def workbook_checked(
    content: bytes, filename: str, *, reads: Callable[[str], bool]
) -> CheckedWorkbook:
    """Checks the workbook `content` against the bounds above and returns the archive of the
    parts openpyxl may read, with the sheets whose name `reads` accepts; raises ImportRejected
    with one problem (naming the file, or the sheet and the cell) at the first bound passed."""
    try:
        return _checked(content, reads)
    except _Refused as refused:
        raise ImportRejected(
            [ImportProblem(refused.where or filename, "", refused.message)]
        ) from None
    except (
        zipfile.BadZipFile,
        zlib.error,  # a part's data does not inflate
        expat.ExpatError,
        EOFError,
        KeyError,  # a part the archive's directory does not hold
        NotImplementedError,  # a compression zipfile does not read
        RuntimeError,  # an encrypted part
        ValueError,
    ) as error:
        message = f"not a readable Excel workbook (.xlsx): {error}"
        raise ImportRejected([ImportProblem(filename, "", message)]) from None


def _checked(content: bytes, reads: Callable[[str], bool]) -> CheckedWorkbook:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        parts = archive.infolist()
        if len(parts) > WORKBOOK_MAX_PARTS:
            raise _Refused(f"has {len(parts):,} parts; an Excel workbook of a plan has a few")
        unpacked = sum(part.file_size for part in parts)
        if unpacked > WORKBOOK_MAX_XML_BYTES:
            raise _Refused(
                f"unpacks to {unpacked:,} bytes; a workbook of a plan within the limits "
                f"unpacks to at most {WORKBOOK_MAX_XML_BYTES:,}"
            )
        names = set(archive.namelist())
        workbook_part, workbook_type, declared_strings = _content_types(archive)
        if workbook_part not in names:
            raise _Refused(f"has no workbook part (its content types name {workbook_part})")
        relationships_part = get_rels_path(workbook_part)
        relationships = (
            _relationships(archive, relationships_part) if relationships_part in names else {}
        )
        sheets = _sheets(archive, workbook_part)
        if len(sheets) > WORKBOOK_MAX_SHEETS:
            raise _Refused(
                f"has {len(sheets):,} sheets; a workbook of a plan has at most "
                f"{WORKBOOK_MAX_SHEETS}"
            )
        read: dict[str, str] = {}  # part: the (first) sheet it is
        for name, relationship in sheets:
            kind, target = relationships.get(relationship, ("", ""))
            if reads(name) and kind.endswith(_WORKSHEET_REL) and target in names:
                read.setdefault(target, name)
        # Excel finds the shared strings through the workbook's relationships, openpyxl through
        # the content types: the first, else the second, and openpyxl is told which.
        strings = next(
            (target for kind, target in relationships.values() if kind.endswith(_STRINGS_REL)),
            declared_strings,
        )
        strings = strings if strings in names else ""
        styles = ARC_STYLE if ARC_STYLE in names else ""  # openpyxl reads it by its name
        roles = [workbook_part, relationships_part, styles, strings, *read]
        if len(set(roles) - {""}) < len([role for role in roles if role]):
            raise _Refused("uses one part as two")
        checked = io.BytesIO()
        with zipfile.ZipFile(checked, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as out:
            out.writestr(
                ARC_CONTENT_TYPES, _content_types_xml(workbook_part, workbook_type, strings)
            )
            out.writestr(workbook_part, archive.read(workbook_part))
            if relationships_part in names:
                out.writestr(relationships_part, archive.read(relationships_part))
            if styles:
                _copied(archive, out, styles, _WHOLE)
            if strings:
                _copied(archive, out, strings, _STRINGS)
            for target, name in read.items():
                _copied(archive, out, target, _SHEET, sheet=name)
    return CheckedWorkbook(checked.getvalue(), [name for name, _relationship in sheets])


def _copied(
    source: zipfile.ZipFile,
    out: zipfile.ZipFile,
    part: str,
    limits: _Limits,
    *,
    sheet: str = "",
) -> None:
    with out.open(part, "w", force_zip64=True) as copy:
        _walked(source, part, limits, copy=copy, sheet=sheet)


def _walked(
    archive: zipfile.ZipFile,
    part: str,
    limits: _Limits,
    *,
    seen: Callable[[str, dict[str, str]], None] | None = None,
    copy: IO[bytes] | None = None,
    sheet: str = "",
) -> None:
    """_walk, its refusal naming the sheet (and its cell or row), or the part."""
    try:
        _walk(archive, part, limits, seen=seen, copy=copy)
    except _Refused as refused:
        if sheet:
            where = f"sheet {sheet}" + (f" {refused.where}" if refused.where else "")
            raise _Refused(refused.message, where) from None
        what = f"part {part}" + (" (shared strings)" if limits is _STRINGS else "")
        where = f", {refused.where}," if refused.where else ""
        raise _Refused(f"{what}{where} {refused.message}") from None


def _content_types(archive: zipfile.ZipFile) -> tuple[str, str, str]:
    """The workbook part and its content type, and the shared strings part the content types
    declare ("" if none), as openpyxl finds them."""
    overrides: list[tuple[str, str]] = []
    defaults: set[str] = set()

    def seen(name: str, attributes: dict[str, str]) -> None:
        if name == _tag(CONTYPES_NS, "Override"):
            part = attributes.get("PartName", "")
            overrides.append(
                (part[1:] if part.startswith("/") else part, attributes.get("ContentType", ""))
            )
        elif name == _tag(CONTYPES_NS, "Default"):
            defaults.add(attributes.get("ContentType", ""))

    _walked(archive, ARC_CONTENT_TYPES, _WHOLE, seen=seen)
    workbook = next(
        (
            (part, kind)
            for kind in _WORKBOOK_TYPES
            for part, declared in overrides
            if declared == kind
        ),
        None,
    )
    if workbook is None:
        # Some writers give the workbook's type as a default; openpyxl reads xl/workbook.xml then.
        kind = next((kind for kind in _WORKBOOK_TYPES if kind in defaults), None)
        if kind is None:
            raise _Refused("has no workbook part in its content types")
        workbook = ("xl/workbook.xml", kind)
    strings = next((part for part, kind in overrides if kind == SHARED_STRINGS), "")
    return workbook[0], workbook[1], strings


def _relationships(archive: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """Each relationship's type and target part, resolved as openpyxl resolves them."""
    parent = posixpath.split(posixpath.dirname(part))[0]
    found: dict[str, tuple[str, str]] = {}

    def seen(name: str, attributes: dict[str, str]) -> None:
        if name != _tag(PKG_REL_NS, "Relationship") or attributes.get("TargetMode") == "External":
            return
        target = attributes.get("Target", "")
        target = (
            target[1:]
            if target.startswith("/")
            else posixpath.normpath(posixpath.join(parent, target))
        )
        found.setdefault(attributes.get("Id", ""), (attributes.get("Type", ""), target))

    _walked(archive, part, _WHOLE, seen=seen)
    return found


def _sheets(archive: zipfile.ZipFile, part: str) -> list[tuple[str, str]]:
    """The name and relationship of every sheet the workbook lists (openpyxl skips one without
    a relationship)."""
    sheets: list[tuple[str, str]] = []

    def seen(name: str, attributes: dict[str, str]) -> None:
        if name == _tag(SHEET_MAIN_NS, "sheet") and attributes.get(_tag(REL_NS, "id")):
            sheets.append((attributes.get("name", ""), attributes[_tag(REL_NS, "id")]))

    _walked(archive, part, _WHOLE, seen=seen)
    return sheets


def _content_types_xml(workbook: str, workbook_type: str, strings: str) -> str:
    """Content types naming the parts openpyxl finds by them: the workbook, the strings."""
    overrides = [(workbook, workbook_type)] + ([(strings, SHARED_STRINGS)] if strings else [])
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
        f'<Types xmlns="{CONTYPES_NS}">'
        '<Default Extension="rels" '
        'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        '<Default Extension="xml" ContentType="application/xml"/>'
        + "".join(
            f"<Override PartName={quoteattr('/' + part)} ContentType={quoteattr(kind)}/>"
            for part, kind in overrides
        )
        + "</Types>"
    )

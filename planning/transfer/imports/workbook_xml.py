"""The bounded walk of one XML part of a workbook (planning.transfer.imports.workbook_bounds):
expat fed in chunks, every element, byte and text counted against a part's `Limits`, a `Refused`
at the first bound passed (docs/subsystems/import-bounds.md "Excel workbooks")."""

from __future__ import annotations

import re
import zipfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO
from xml.parsers import expat

from openpyxl.xml.constants import (
    SHEET_MAIN_NS,
)

from planning.transfer.xlsx import column_letter

WORKBOOK_MAX_PARTS = 1_000
WORKBOOK_MAX_XML_BYTES = 256 * 1024 * 1024
WORKBOOK_MAX_SHEETS = 32
# A part openpyxl parses whole (the workbook, its relationships, the styles, the content types).
PART_MAX_BYTES = 8 * 1024 * 1024
PART_MAX_ELEMENTS = 100_000
# The shared strings, which openpyxl keeps in a list while the sheets are read.
WORKBOOK_MAX_SHARED_BYTES = 64 * 1024 * 1024
STRINGS_MAX = 1_000_000
# Their text as Python keeps it: a string takes 1, 2 or 4 bytes a character, by its widest one
# (a million strings of 16 characters with an emoji each were 64 MB, and the job's peak 419 MB).
STRINGS_MAX_TEXT_BYTES = 16 * 1024 * 1024
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
CHUNK = 64 * 1024
CELL_REF = re.compile(r"([A-Z]{1,3})([0-9]{1,7})")


def tag(namespace: str, name: str) -> str:
    return f"{namespace} {name}"  # as expat names an element with namespace_separator=" "


class Refused(Exception):
    """A bound was passed: `message`, about `where` (a cell; else the part)."""

    def __init__(self, message: str, where: str = "") -> None:
        super().__init__(message)
        self.message, self.where = message, where


@dataclass(frozen=True)
class Limits:
    max_bytes: int
    other_max_elements: int  # elements outside the units (all of them, without units)
    other_max_bytes: int  # bytes outside the units, their text between them included
    unit: str = ""  # the element that openpyxl builds and drops one at a time: a row, a string
    max_units: int = 0
    unit_max_elements: int = 0
    unit_max_bytes: int = 0
    text_unit: str = ""  # the element whose text is capped at CELL_MAX_CHARS: a cell, a string
    max_text_bytes: int = 0  # the text of every text unit together, as Python keeps it (0: none)


SHEET_UNIT, SHEET_CELL = tag(SHEET_MAIN_NS, "row"), tag(SHEET_MAIN_NS, "c")
WHOLE = Limits(
    max_bytes=PART_MAX_BYTES, other_max_elements=PART_MAX_ELEMENTS, other_max_bytes=PART_MAX_BYTES
)
STRINGS = Limits(
    max_bytes=WORKBOOK_MAX_SHARED_BYTES,
    other_max_elements=PART_MAX_ELEMENTS,
    other_max_bytes=PART_MAX_BYTES,
    unit=tag(SHEET_MAIN_NS, "si"),
    max_units=STRINGS_MAX,
    unit_max_elements=STRING_MAX_ELEMENTS,
    unit_max_bytes=STRING_MAX_BYTES,
    text_unit=tag(SHEET_MAIN_NS, "si"),
    max_text_bytes=STRINGS_MAX_TEXT_BYTES,
)
SHEET = Limits(
    max_bytes=WORKBOOK_MAX_XML_BYTES,
    other_max_elements=SHEET_MAX_OTHER_ELEMENTS,
    other_max_bytes=SHEET_MAX_OTHER_BYTES,
    unit=SHEET_UNIT,
    max_units=SHEET_MAX_ROWS,
    unit_max_elements=ROW_MAX_ELEMENTS,
    unit_max_bytes=ROW_MAX_BYTES,
    text_unit=SHEET_CELL,
)


class Walk:
    """Counts one part's elements, bytes and text as expat reports them, against `limits`;
    `seen` gets every element's name and attributes (to collect what a part says)."""

    def __init__(
        self,
        parser: expat.XMLParserType,
        limits: Limits,
        seen: Callable[[str, dict[str, str]], None] | None,
    ) -> None:
        self.parser, self.limits, self.seen = parser, limits, seen
        self.word = "row" if limits.unit == SHEET_UNIT else "string"
        self.units = self.unit_depth = self.unit_started = self.unit_elements = 0
        self.inside_units = 0  # bytes of the units ended so far
        self.other_elements = 0
        self.text_depth = self.text_chars = self.text_width = self.all_text_bytes = 0
        self.row = self.column = 0
        self.cell = ""

    def start(self, name: str, attributes: dict[str, str]) -> None:
        limits, position = self.limits, self.parser.CurrentByteIndex
        if name == limits.unit:
            if not self.unit_depth:
                self.units += 1
                if self.units > limits.max_units:
                    raise Refused(f"has more than {limits.max_units:,} {self.word}s")
                self.unit_started, self.unit_elements = position, 0
                number = attributes.get("r", "")
                if not (number.isascii() and number.isdigit()):
                    self.row += 1  # openpyxl counts it on from the row before
                else:
                    self.row = int(number) if len(number) <= 9 else SHEET_MAX_ROWS + 1
                if self.row > SHEET_MAX_ROWS:
                    raise Refused(f"has a row beyond Excel's last ({SHEET_MAX_ROWS:,})")
                self.column = 0
            self.unit_depth += 1
        if self.unit_depth:
            self.unit_elements += 1
            if self.unit_elements > limits.unit_max_elements:
                raise Refused(
                    f"has more than {limits.unit_max_elements:,} elements in one {self.word}",
                    self._where(),
                )
            if position - self.unit_started > limits.unit_max_bytes:
                raise Refused(
                    f"has a {self.word} of more than {limits.unit_max_bytes:,} bytes",
                    self._where(),
                )
        else:
            self.other_elements += 1
            if self.other_elements > limits.other_max_elements:
                raise Refused(f"has more than {limits.other_max_elements:,} elements{self._out}")
            self._other_bytes_check(position)
        if name == limits.text_unit:
            if not self.text_depth:
                self.text_chars, self.text_width = 0, 1
                self._cell_started(attributes)
            self.text_depth += 1
        if self.seen is not None:
            self.seen(name, attributes)

    def end(self, name: str) -> None:
        if name == self.limits.text_unit and self.text_depth:
            self.text_depth -= 1
            if not self.text_depth:
                self.all_text_bytes += self.text_chars * self.text_width
        if name == self.limits.unit and self.unit_depth:
            self.unit_depth -= 1
            if not self.unit_depth:
                self.inside_units += self.parser.CurrentByteIndex - self.unit_started

    def text(self, data: str) -> None:
        if not self.text_depth:
            return  # bounded by the bytes of its row, or of what is outside the units
        self.text_chars += len(data)
        if self.text_chars > CELL_MAX_CHARS:
            raise Refused(
                f"has more than {CELL_MAX_CHARS:,} characters (the most a cell holds)",
                self._where(),
            )
        if self.limits.max_text_bytes:
            self.text_width = max(self.text_width, width(data))
            if self.all_text_bytes + self.text_chars * self.text_width > self.limits.max_text_bytes:
                raise Refused(
                    f"has more than {self.limits.max_text_bytes:,} bytes of text (a character "
                    "takes 1, 2 or 4 bytes, by the widest of its string)"
                )

    def finished(self, length: int) -> None:
        self._other_bytes_check(length)

    @property
    def _out(self) -> str:
        return f" outside its {self.word}s" if self.limits.unit else ""

    def _other_bytes_check(self, position: int) -> None:
        if position - self.inside_units > self.limits.other_max_bytes:
            raise Refused(f"has more than {self.limits.other_max_bytes:,} bytes{self._out}")

    def _cell_started(self, attributes: Mapping[str, str]) -> None:
        if self.limits.text_unit != SHEET_CELL:
            self.cell = f"string {self.units}"
            return
        self.column += 1
        reference = CELL_REF.fullmatch(attributes.get("r", ""))
        if reference is not None:
            self.cell = f"cell {reference.group(0)}"
            self.column = column_index(reference.group(1))
        else:
            self.cell = f"cell {column_letter(self.column - 1)}{self.row}"

    def _where(self) -> str:
        if self.text_depth:
            return self.cell
        return f"{self.word} {self.units if self.word == 'string' else self.row}"


def width(text: str) -> int:
    """The bytes a character of `text` takes in a Python string."""
    if text.isascii():
        return 1
    widest = max(text)
    return 1 if widest <= "\xff" else 2 if widest <= "\uffff" else 4


def column_index(letters: str) -> int:
    index = 0
    for letter in letters:
        index = index * 26 + ord(letter) - ord("A") + 1
    return index


def walk(
    archive: zipfile.ZipFile,
    name: str,
    limits: Limits,
    *,
    seen: Callable[[str, dict[str, str]], None] | None = None,
    copy: IO[bytes] | None = None,
) -> None:
    """Unpacks the part `name` in chunks through expat (and into `copy`), raising Refused at
    the first bound it passes."""
    info = archive.getinfo(name)
    if info.file_size > limits.max_bytes:
        raise Refused(f"unpacks to more than {limits.max_bytes:,} bytes")
    parser = expat.ParserCreate(namespace_separator=" ")
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    parser.buffer_text = True
    parser.buffer_size = CHUNK
    walk = Walk(parser, limits, seen)
    parser.StartElementHandler = walk.start
    parser.EndElementHandler = walk.end
    parser.CharacterDataHandler = walk.text
    parser.StartDoctypeDeclHandler = no_doctype
    fed = 0
    with archive.open(info) as part:
        while chunk := part.read(CHUNK):
            fed += len(chunk)
            if copy is not None:
                copy.write(chunk)
            parser.Parse(chunk, False)
            # expat holds a tag, comment or instruction whole until it ends
            if fed - parser.CurrentByteIndex > TOKEN_MAX_BYTES:
                raise Refused(f"has a tag or comment of more than {TOKEN_MAX_BYTES:,} bytes")
        parser.Parse(b"", True)
    walk.finished(fed)


def no_doctype(*_arguments: object) -> None:
    raise Refused("declares a DOCTYPE, which no workbook has")


def walked(
    archive: zipfile.ZipFile,
    part: str,
    limits: Limits,
    *,
    seen: Callable[[str, dict[str, str]], None] | None = None,
    copy: IO[bytes] | None = None,
    sheet: str = "",
) -> None:
    """walk, its refusal naming the sheet (and its cell or row), or the part."""
    try:
        walk(archive, part, limits, seen=seen, copy=copy)
    except Refused as refused:
        if sheet:
            where = f"sheet {sheet}" + (f" {refused.where}" if refused.where else "")
            raise Refused(refused.message, where) from None
        what = f"part {part}" + (" (shared strings)" if limits is STRINGS else "")
        where = f", {refused.where}," if refused.where else ""
        raise Refused(f"{what}{where} {refused.message}") from None

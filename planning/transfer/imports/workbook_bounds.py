"""What an Excel workbook may hold, checked before openpyxl reads a byte of it
(docs/subsystems/import-bounds.md "Excel workbooks").

A workbook is a ZIP of XML parts, and what openpyxl builds from a part depends on the part: it
parses the content types, the workbook, its relationships and the styles whole, keeps every
shared string in a list, and streams a sheet row by row while keeping what lies outside the
rows. A 617 KB file could make that 1.8 GB. So, before openpyxl opens the file:

- the archive's directory: at most WORKBOOK_MAX_PARTS parts, unpacking to at most
  WORKBOOK_MAX_XML_BYTES (zipfile stops a part at its declared size, so it cannot lie);
- its parts are found through `[Content_Types].xml` (the workbook) and the workbook's
  relationships (its sheets and shared strings), as Excel finds them, never by their names
  (but the styles, which openpyxl reads as xl/styles.xml); at most WORKBOOK_MAX_SHEETS sheets;
- each part that will be read is unpacked once and walked with expat in chunks, counting, with
  no tree built: a part read whole has at most PART_MAX_BYTES and PART_MAX_ELEMENTS; the
  shared strings at most STRINGS_MAX entries and STRINGS_MAX_TEXT_BYTES of text; a
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
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
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
from planning.transfer.imports.workbook_xml import (
    SHEET,
    STRINGS,
    WHOLE,
    WORKBOOK_MAX_PARTS,
    WORKBOOK_MAX_SHEETS,
    WORKBOOK_MAX_XML_BYTES,
    Limits,
    Refused,
    tag,
    walked,
)

_WORKBOOK_TYPES = (XLTM, XLTX, XLSM, XLSX)  # openpyxl's order
_WORKSHEET_REL = "/worksheet"
_STRINGS_REL = "/sharedStrings"


@dataclass(frozen=True)
class CheckedWorkbook:
    """The archive openpyxl may read (only the parts walked) and the names of every sheet the
    workbook lists, in its order."""

    content: bytes
    sheet_names: list[str]


# What reading a workbook that is no readable one raises (besides Refused, a bound passed).
UNREADABLE = (
    zipfile.BadZipFile,
    zlib.error,  # a part's data does not inflate
    expat.ExpatError,
    EOFError,
    KeyError,  # a part the archive's directory does not hold
    NotImplementedError,  # a compression zipfile does not read
    RuntimeError,  # an encrypted part
    ValueError,
)


def workbook_checked(
    content: bytes, filename: str, *, reads: Callable[[str], bool]
) -> CheckedWorkbook:
    """Checks the workbook `content` against the bounds (workbook_xml) and returns the archive of
    the parts openpyxl may read, with the sheets whose name `reads` accepts; raises ImportRejected
    with one problem (naming the file, or the sheet and the cell) at the first bound passed."""
    try:
        return _checked(content, reads)
    except Refused as refused:
        raise ImportRejected(
            [ImportProblem(refused.where or filename, "", refused.message)]
        ) from None
    except UNREADABLE as error:
        message = f"not a readable Excel workbook (.xlsx): {error}"
        raise ImportRejected([ImportProblem(filename, "", message)]) from None


def workbook_sheet_names(content: bytes) -> list[str] | None:
    """The names of the sheets a workbook lists, in its order, read from its content types and
    its workbook part alone (under the same bounds); None when it cannot be read (the import
    then says why)."""
    try:
        with zipfile.ZipFile(io.BytesIO(content)) as archive:
            if len(archive.infolist()) > WORKBOOK_MAX_PARTS:
                return None
            workbook_part, _type, _strings = _content_types(archive)
            return [name for name, _relationship in _sheets(archive, workbook_part)]
    except (Refused, *UNREADABLE):
        return None


def first_sheet_parts(archive: zipfile.ZipFile) -> tuple[str, str, str]:
    """The parts of the first sheet, the shared strings and the styles ("" when there is none),
    found as `workbook_checked` finds them, under the archive's bounds (Refused past one)."""
    parts = archive.infolist()
    if len(parts) > WORKBOOK_MAX_PARTS:
        raise Refused(f"has {len(parts):,} parts; an Excel workbook of a plan has a few")
    if sum(part.file_size for part in parts) > WORKBOOK_MAX_XML_BYTES:
        raise Refused(f"unpacks to more than {WORKBOOK_MAX_XML_BYTES:,} bytes")
    names = set(archive.namelist())
    workbook_part, _type, declared_strings = _content_types(archive)
    relationships_part = get_rels_path(workbook_part)
    relationships = (
        _relationships(archive, relationships_part) if relationships_part in names else {}
    )
    sheets = _sheets(archive, workbook_part)
    if len(sheets) > WORKBOOK_MAX_SHEETS:
        raise Refused(
            f"has {len(sheets):,} sheets; a workbook of a plan has at most {WORKBOOK_MAX_SHEETS}"
        )
    first = ""
    for _name, relationship in sheets[:1]:
        kind, target = relationships.get(relationship, ("", ""))
        first = target if kind.endswith(_WORKSHEET_REL) and target in names else ""
    strings = next(
        (target for kind, target in relationships.values() if kind.endswith(_STRINGS_REL)),
        declared_strings,
    )
    return (
        first,
        strings if strings in names else "",
        ARC_STYLE if ARC_STYLE in names else "",
    )


def _checked(content: bytes, reads: Callable[[str], bool]) -> CheckedWorkbook:
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        parts = archive.infolist()
        if len(parts) > WORKBOOK_MAX_PARTS:
            raise Refused(f"has {len(parts):,} parts; an Excel workbook of a plan has a few")
        unpacked = sum(part.file_size for part in parts)
        if unpacked > WORKBOOK_MAX_XML_BYTES:
            raise Refused(
                f"unpacks to {unpacked:,} bytes; a workbook of a plan within the limits "
                f"unpacks to at most {WORKBOOK_MAX_XML_BYTES:,}"
            )
        names = set(archive.namelist())
        workbook_part, workbook_type, declared_strings = _content_types(archive)
        if workbook_part not in names:
            raise Refused(f"has no workbook part (its content types name {workbook_part})")
        relationships_part = get_rels_path(workbook_part)
        relationships = (
            _relationships(archive, relationships_part) if relationships_part in names else {}
        )
        sheets = _sheets(archive, workbook_part)
        if len(sheets) > WORKBOOK_MAX_SHEETS:
            raise Refused(
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
            raise Refused("uses one part as two")
        checked = io.BytesIO()
        with zipfile.ZipFile(checked, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as out:
            out.writestr(
                ARC_CONTENT_TYPES, _content_types_xml(workbook_part, workbook_type, strings)
            )
            out.writestr(workbook_part, archive.read(workbook_part))
            if relationships_part in names:
                out.writestr(relationships_part, archive.read(relationships_part))
            if styles:
                _copied(archive, out, styles, WHOLE)
            if strings:
                _copied(archive, out, strings, STRINGS)
            for target, name in read.items():
                _copied(archive, out, target, SHEET, sheet=name)
    return CheckedWorkbook(checked.getvalue(), [name for name, _relationship in sheets])


def _copied(
    source: zipfile.ZipFile,
    out: zipfile.ZipFile,
    part: str,
    limits: Limits,
    *,
    sheet: str = "",
) -> None:
    with out.open(part, "w", force_zip64=True) as copy:
        walked(source, part, limits, copy=copy, sheet=sheet)


def _content_types(archive: zipfile.ZipFile) -> tuple[str, str, str]:
    """The workbook part and its content type, and the shared strings part the content types
    declare ("" if none), as openpyxl finds them."""
    overrides: list[tuple[str, str]] = []
    defaults: set[str] = set()

    def seen(name: str, attributes: dict[str, str]) -> None:
        if name == tag(CONTYPES_NS, "Override"):
            part = attributes.get("PartName", "")
            overrides.append(
                (part[1:] if part.startswith("/") else part, attributes.get("ContentType", ""))
            )
        elif name == tag(CONTYPES_NS, "Default"):
            defaults.add(attributes.get("ContentType", ""))

    walked(archive, ARC_CONTENT_TYPES, WHOLE, seen=seen)
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
            raise Refused("has no workbook part in its content types")
        workbook = ("xl/workbook.xml", kind)
    strings = next((part for part, kind in overrides if kind == SHARED_STRINGS), "")
    return workbook[0], workbook[1], strings


def _relationships(archive: zipfile.ZipFile, part: str) -> dict[str, tuple[str, str]]:
    """Each relationship's type and target part, resolved as openpyxl resolves them."""
    parent = posixpath.split(posixpath.dirname(part))[0]
    found: dict[str, tuple[str, str]] = {}

    def seen(name: str, attributes: dict[str, str]) -> None:
        if name != tag(PKG_REL_NS, "Relationship") or attributes.get("TargetMode") == "External":
            return
        target = attributes.get("Target", "")
        target = (
            target[1:]
            if target.startswith("/")
            else posixpath.normpath(posixpath.join(parent, target))
        )
        found.setdefault(attributes.get("Id", ""), (attributes.get("Type", ""), target))

    walked(archive, part, WHOLE, seen=seen)
    return found


def _sheets(archive: zipfile.ZipFile, part: str) -> list[tuple[str, str]]:
    """The name and relationship of every sheet the workbook lists (openpyxl skips one without
    a relationship)."""
    sheets: list[tuple[str, str]] = []

    def seen(name: str, attributes: dict[str, str]) -> None:
        if name == tag(SHEET_MAIN_NS, "sheet") and attributes.get(tag(REL_NS, "id")):
            sheets.append((attributes.get("name", ""), attributes[tag(REL_NS, "id")]))

    walked(archive, part, WHOLE, seen=seen)
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

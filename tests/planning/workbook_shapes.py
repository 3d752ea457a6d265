"""Excel workbooks written part by part with zipfile, as a hostile (or a very large) file would
be: the shapes the import's bounds are tested with (planning.transfer.imports.workbook_bounds).
Each part is a bytes value, or a function that writes it to the open part (to stream a large
one), and `plan_workbook` writes a plan document the way Excel does, its texts as shared
strings."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import IO, Any
from xml.sax.saxutils import escape, quoteattr

from planning.transfer.imports.columns import ACTION_FIELDS, NODE_FIELDS

MAIN = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
RELATIONSHIPS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PACKAGE_RELATIONSHIPS = "http://schemas.openxmlformats.org/package/2006/relationships"
WORKBOOK_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"
STRINGS_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"
WORKSHEET_REL = RELATIONSHIPS + "/worksheet"
STRINGS_REL = RELATIONSHIPS + "/sharedStrings"
DECLARATION = b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'

Part = bytes | Callable[[IO[bytes]], None]


def content_types(overrides: Mapping[str, str]) -> bytes:
    return (
        DECLARATION
        + b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Default Extension="rels" '
        b'ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
        b'<Default Extension="xml" ContentType="application/xml"/>'
        + "".join(
            f"<Override PartName={quoteattr('/' + part)} ContentType={quoteattr(kind)}/>"
            for part, kind in overrides.items()
        ).encode()
        + b"</Types>"
    )


def workbook_xml(sheets: list[tuple[str, str]]) -> bytes:
    """`sheets`: each sheet's name and relationship id."""
    listed = "".join(
        f'<sheet name={quoteattr(name)} sheetId="{n}" r:id="{rid}"/>'
        for n, (name, rid) in enumerate(sheets, start=1)
    )
    return (
        DECLARATION
        + f'<workbook xmlns="{MAIN}" xmlns:r="{RELATIONSHIPS}"><sheets>{listed}</sheets>'
        "</workbook>".encode()
    )


def relationships_xml(relationships: list[tuple[str, str, str]]) -> bytes:
    """`relationships`: each one's id, type and target."""
    listed = "".join(
        f'<Relationship Id="{rid}" Type="{kind}" Target={quoteattr(target)}/>'
        for rid, kind, target in relationships
    )
    return (
        DECLARATION
        + f'<Relationships xmlns="{PACKAGE_RELATIONSHIPS}">{listed}'.encode()
        + (b"</Relationships>")
    )


def sheet_xml(rows: str) -> bytes:
    return (
        DECLARATION
        + f'<worksheet xmlns="{MAIN}"><sheetData>{rows}</sheetData></worksheet>'.encode()
    )


def inline_row(number: int, *texts: str) -> str:
    cells = "".join(
        f'<c r="{chr(ord("A") + n)}{number}" t="inlineStr"><is><t>{escape(text)}</t></is></c>'
        for n, text in enumerate(texts)
    )
    return f'<row r="{number}">{cells}</row>'


def workbook(
    sheets: Mapping[str, Part],
    *,
    strings: Part | None = None,
    strings_part: str = "xl/sharedStrings.xml",
    strings_related: bool = True,
    extra: Mapping[str, Part] | None = None,
    path: Path | None = None,
) -> bytes:
    """A workbook of `sheets` (name: its part's XML) at xl/worksheets/sheetN.xml, with shared
    strings at `strings_part` (declared in the content types, and named by the workbook's
    relationships when `strings_related`), and `extra` parts as they are. Written to `path`
    when given (and then b"" is returned)."""
    overrides = {"xl/workbook.xml": WORKBOOK_TYPE}
    relationships = [
        (f"rId{n}", WORKSHEET_REL, f"worksheets/sheet{n}.xml") for n in range(1, len(sheets) + 1)
    ]
    parts: dict[str, Part] = {
        "xl/workbook.xml": workbook_xml(
            [(name, f"rId{n}") for n, name in enumerate(sheets, start=1)]
        ),
    }
    for n, part in enumerate(sheets.values(), start=1):
        parts[f"xl/worksheets/sheet{n}.xml"] = part
    if strings is not None:
        overrides[strings_part] = STRINGS_TYPE
        parts[strings_part] = strings
        if strings_related:
            relationships.append(("rIdS", STRINGS_REL, "/" + strings_part))
    parts["xl/_rels/workbook.xml.rels"] = relationships_xml(relationships)
    parts = {"[Content_Types].xml": content_types(overrides), **parts, **(extra or {})}
    target: Any = path if path is not None else io.BytesIO()
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, part in parts.items():
            if isinstance(part, bytes):
                archive.writestr(name, part)
            else:
                with archive.open(name, "w", force_zip64=True) as out:
                    part(out)
    return b"" if path is not None else target.getvalue()


def plan_workbook(document: Mapping[str, Any], *, path: Path | None = None) -> bytes:
    """The plan `document` (the JSON format) as Excel writes a workbook: sheets Nodes and
    Actions with a header row, numbers as numbers, every text a shared string."""
    strings: dict[str, int] = {}

    def sheet(
        fields: tuple[str, ...], rows: list[Mapping[str, Any]]
    ) -> Callable[[IO[bytes]], None]:
        def write(out: IO[bytes]) -> None:
            out.write(DECLARATION + f'<worksheet xmlns="{MAIN}"><sheetData>'.encode())
            header = {name: name for name in fields}
            for number, row in enumerate([header, *rows], start=1):
                cells = []
                for column, name in enumerate(fields):
                    value = row.get(name)
                    reference = f"{chr(ord('A') + column)}{number}"
                    if value is None:
                        continue
                    if isinstance(value, int | float) and not isinstance(value, bool):
                        cells.append(f'<c r="{reference}"><v>{value}</v></c>')
                    else:
                        index = strings.setdefault(str(value), len(strings))
                        cells.append(f'<c r="{reference}" t="s"><v>{index}</v></c>')
                out.write(f'<row r="{number}">{"".join(cells)}</row>'.encode())
            out.write(b"</sheetData></worksheet>")

        return write

    def shared(out: IO[bytes]) -> None:
        out.write(DECLARATION + f'<sst xmlns="{MAIN}">'.encode())
        for text in strings:  # written after the sheets, which filled it
            out.write(f"<si><t>{escape(text)}</t></si>".encode())
        out.write(b"</sst>")

    return workbook(
        {
            "Nodes": sheet(NODE_FIELDS, document["nodes"]),
            "Actions": sheet(ACTION_FIELDS, document["actions"]),
        },
        strings=shared,
        path=path,
    )

"""An Excel workbook is checked before openpyxl reads it (planning.transfer.imports.
workbook_bounds; docs/subsystems/import-bounds.md "Excel workbooks"): its parts are found through
the content types and the workbook's relationships, whatever they are named; shared strings,
cells, sheets, rows and what lies outside them are bounded, each refusal one problem naming
the sheet and cell where it has one; and openpyxl never sees a part that was not walked. Every
shape is written part by part with zipfile (tests/planning/workbook_shapes.py), small; the large
ones
are in test_import_bounds.py, measured in a child process."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Callable
from typing import IO, Any

import pytest

from planning.transfer.imports import workbook as workbook_module
from planning.transfer.imports.plan_file import plan_file_import
from planning.transfer.imports.problems import ImportRejected
from planning.transfer.imports.workbook_xml import (
    CELL_MAX_CHARS,
    ROW_MAX_ELEMENTS,
    SHEET_MAX_OTHER_ELEMENTS,
    STRINGS_MAX,
    STRINGS_MAX_TEXT_BYTES,
    TOKEN_MAX_BYTES,
    WORKBOOK_MAX_SHEETS,
)
from tests.planning.workbook_shapes import (
    DECLARATION,
    MAIN,
    inline_row,
    relationships_xml,
    sheet_xml,
    workbook,
    workbook_xml,
)

pytestmark = pytest.mark.django_db

NODES = sheet_xml(inline_row(1, "ref", "name", "kind") + inline_row(2, "S", "Site", "site"))
ACTIONS = sheet_xml(inline_row(1, "node_ref", "title", "kind", "planned_year"))


@pytest.fixture
def never_parsed(monkeypatch: pytest.MonkeyPatch) -> None:
    """openpyxl must not be reached: the workbook is refused from its walk alone."""

    def parse(*_arguments: Any, **_options: Any) -> None:
        raise AssertionError("openpyxl was asked to parse a workbook the bounds refuse")

    monkeypatch.setattr(workbook_module, "workbook_parse", parse)


def _problems(user: Any, content: bytes) -> list[str]:
    with pytest.raises(ImportRejected) as rejected:
        plan_file_import(owner=user, content=content, filename="plan.xlsx")
    return [str(problem) for problem in rejected.value.problems]


def _strings(count: int, text: str = "") -> Callable[[IO[bytes]], None]:
    def write(out: IO[bytes]) -> None:
        out.write(DECLARATION + f'<sst xmlns="{MAIN}">'.encode())
        entry = f"<si><t>{text}</t></si>".encode() if text else b"<si><t/></si>"
        for _ in range(count // 10_000):
            out.write(entry * 10_000)
        out.write(entry * (count % 10_000))
        out.write(b"</sst>")

    return write


@pytest.mark.usefixtures("never_parsed")
def test_shared_strings_under_another_name_are_counted_before_a_parse(user: Any) -> None:
    """The probe's shape: xl/s.xml, declared only in the content types, with more entries than
    a workbook of a plan has (its bound counted only parts named sharedStrings.xml)."""
    content = workbook(
        {"Nodes": NODES},
        strings=_strings(STRINGS_MAX + 1),
        strings_part="xl/s.xml",
        strings_related=False,
    )

    assert len(content) < 100_000
    assert _problems(user, content) == [
        f"plan.xlsx: part xl/s.xml (shared strings) has more than {STRINGS_MAX:,} strings"
    ]


@pytest.mark.usefixtures("never_parsed")
@pytest.mark.parametrize(("text", "width"), [("a", 1), ("\u0142", 2), ("\U0001f600", 4)])
def test_shared_strings_of_more_text_than_the_bound_are_refused(
    user: Any, text: str, width: int
) -> None:
    """Bounded as Python keeps them: a string with an emoji takes 4 bytes a character."""
    count = STRINGS_MAX_TEXT_BYTES // width // 30_000 + 1
    content = workbook({"Nodes": NODES}, strings=_strings(count, text * 30_000))

    assert _problems(user, content) == [
        "plan.xlsx: part xl/sharedStrings.xml (shared strings) has more than "
        f"{STRINGS_MAX_TEXT_BYTES:,} bytes of text (a character takes 1, 2 or 4 bytes, by the "
        "widest of its string)"
    ]
    fits = workbook({"Nodes": NODES}, strings=_strings(count - 2, text * 30_000))
    with pytest.raises(ImportRejected, match="openpyxl was asked"):  # within: on to the parse
        plan_file_import(owner=user, content=fits, filename="plan.xlsx")


@pytest.mark.usefixtures("never_parsed")
def test_one_cell_longer_than_excel_allows_is_refused_naming_its_sheet_and_cell(
    user: Any,
) -> None:
    rows = inline_row(1, "ref", "name", "kind") + inline_row(2, "S", "x" * (CELL_MAX_CHARS + 1))

    problems = _problems(user, workbook({"Nodes": sheet_xml(rows), "Actions": ACTIONS}))

    assert problems == [
        f"sheet Nodes cell B2: has more than {CELL_MAX_CHARS:,} characters (the most a cell holds)"
    ]


@pytest.mark.usefixtures("never_parsed")
def test_one_shared_string_longer_than_a_cell_is_refused_naming_it(user: Any) -> None:
    content = workbook({"Nodes": NODES}, strings=_strings(3, "y" * (CELL_MAX_CHARS + 1)))

    assert _problems(user, content) == [
        "plan.xlsx: part xl/sharedStrings.xml (shared strings), string 1, has more than "
        f"{CELL_MAX_CHARS:,} characters (the most a cell holds)"
    ]


@pytest.mark.usefixtures("never_parsed")
def test_more_sheets_than_a_plan_has_are_refused(user: Any) -> None:
    sheets = {f"Sheet {n}": NODES for n in range(WORKBOOK_MAX_SHEETS)}

    problems = _problems(user, workbook({"Nodes": NODES, **sheets}))

    assert problems == [
        f"plan.xlsx: has {WORKBOOK_MAX_SHEETS + 1} sheets; a workbook of a plan has at most "
        f"{WORKBOOK_MAX_SHEETS}"
    ]


@pytest.mark.usefixtures("never_parsed")
def test_many_sheets_of_one_part_are_refused_from_the_workbook_part(user: Any) -> None:
    """100,000 sheets naming one part: openpyxl would open it for each of them."""
    sheets = [(f"S{n}", "rId1") for n in range(100_000)]
    content = workbook(
        {"Nodes": NODES},
        extra={"xl/workbook.xml": workbook_xml(sheets)},
    )

    assert _problems(user, content) == [
        "plan.xlsx: part xl/workbook.xml has more than 100,000 elements"
    ]


@pytest.mark.usefixtures("never_parsed")
@pytest.mark.parametrize(
    ("shape", "problem"),
    [
        (
            "<x/>" * (SHEET_MAX_OTHER_ELEMENTS + 1),
            f"sheet Nodes: has more than {SHEET_MAX_OTHER_ELEMENTS:,} elements outside its rows",
        ),
        (
            '<row r="2">' + "<x/>" * ROW_MAX_ELEMENTS + "</row>",
            f"sheet Nodes row 2: has more than {ROW_MAX_ELEMENTS:,} elements in one row",
        ),
        ('<row r="1048577"/>', "sheet Nodes: has a row beyond Excel's last (1,048,576)"),
        (
            f'<row r="2"><c r="A2" s="{"1" * 4 * TOKEN_MAX_BYTES}"/></row>',
            f"sheet Nodes: has a tag or comment of more than {TOKEN_MAX_BYTES:,} bytes",
        ),
    ],
    ids=["outside rows", "one row", "far row", "long tag"],
)
def test_a_sheet_whose_rows_or_the_rest_would_be_kept_beyond_bounds_is_refused(
    user: Any, shape: str, problem: str
) -> None:
    rows = inline_row(1, "ref", "name", "kind") + shape

    assert _problems(user, workbook({"Nodes": sheet_xml(rows)})) == [problem]


@pytest.mark.usefixtures("never_parsed")
def test_a_doctype_is_refused_so_no_entity_is_expanded(user: Any) -> None:
    laughs = (
        b'<?xml version="1.0"?><!DOCTYPE worksheet [<!ENTITY a "aaaaaaaaaa">'
        b'<!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        + f'<worksheet xmlns="{MAIN}"><sheetData/></worksheet>'.encode()
    )

    assert _problems(user, workbook({"Nodes": laughs})) == [
        "sheet Nodes: declares a DOCTYPE, which no workbook has"
    ]


def test_parts_are_found_through_content_types_and_relationships_not_names(user: Any) -> None:
    """A workbook part, sheets and shared strings under names of their own import as Excel
    would open them."""
    # a string of formatted runs, read as their text
    strings = (
        DECLARATION
        + f'<sst xmlns="{MAIN}"><si><r><t>De</t></r><r><rPr><b/></rPr><t>pot</t></r>'
        "</si></sst>".encode()
    )
    nodes = sheet_xml(
        inline_row(1, "ref", "name", "kind")
        + '<row r="2"><c r="A2" t="inlineStr"><is><t>S</t></is></c>'
        '<c r="B2" t="s"><v>0</v></c><c r="C2" t="inlineStr"><is><t>site</t></is></c></row>'
    )
    types = (
        DECLARATION
        + b'<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Override PartName="/book/main.xml" ContentType="application/vnd.openxmlformats-'
        b'officedocument.spreadsheetml.sheet.main+xml"/></Types>'
    )
    relationships = relationships_xml(
        [
            (
                "r1",
                "http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet",
                "tabs/one.xml",
            ),
            (
                "r2",
                "http://schemas.openxmlformats.org/officeDocument/2006/relationships/sharedStrings",
                "/book/texts.xml",
            ),
        ]
    )
    content = workbook(
        {},
        extra={
            "[Content_Types].xml": types,
            "book/main.xml": workbook_xml([("Nodes", "r1")]),
            "book/_rels/main.xml.rels": relationships,
            "book/tabs/one.xml": nodes,
            "book/texts.xml": strings,
        },
    )

    plan = plan_file_import(owner=user, content=content, filename="Depot.xlsx")

    assert [node.name for node in plan.nodes.all()] == ["Depot"]


def test_a_sheet_the_import_does_not_read_is_never_unpacked(
    user: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A sheet "Notes" that would be refused if it were walked: the import reads Nodes and
    Actions only, and openpyxl is never given it."""
    notes = sheet_xml("<x/>" * (SHEET_MAX_OTHER_ELEMENTS + 1))
    content = workbook({"Nodes": NODES, "Actions": ACTIONS, "Notes": notes})
    given: list[set[str]] = []
    parse = workbook_module.workbook_parse

    def parse_seen(checked: bytes) -> Any:
        with zipfile.ZipFile(io.BytesIO(checked)) as archive:
            given.append(set(archive.namelist()))
        return parse(checked)

    monkeypatch.setattr(workbook_module, "workbook_parse", parse_seen)

    plan = plan_file_import(owner=user, content=content, filename="Depot.xlsx")

    assert plan.nodes.count() == 1
    # Nodes, Actions and Notes are sheet1, sheet2 and sheet3 (workbook_shapes.workbook).
    [names] = given
    sheets = sorted(name for name in names if name.startswith("xl/worksheets/"))
    assert sheets == ["xl/worksheets/sheet1.xml", "xl/worksheets/sheet2.xml"]

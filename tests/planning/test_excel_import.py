"""Excel in and out (issue 26 point 6): the plan's workbook and CSV pair in the import format
import back to the same plan; a workbook is read as a person made it (labels, titled columns,
spreadsheet numbers and dates, a sheet "Plan"); what is no workbook, or would unpack beyond
its bounds, is a listed problem (planning.transfer.imports.workbook)."""

from __future__ import annotations

import datetime
import io
import json
import zipfile
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from openpyxl import load_workbook

from planning.models import Plan
from planning.transfer.imports.csv_pair import plan_import_csv
from planning.transfer.imports.plan_file import plan_file_import
from planning.transfer.imports.problems import ImportRejected
from planning.transfer.imports.workbook_xml import WORKBOOK_MAX_XML_BYTES
from tests.planning.test_plan_export import quay_plan  # noqa: F401 (the fixture `plan`)
from tests.planning.workbooks import workbook_of

pytestmark = pytest.mark.django_db


def _json_export(client: Client, plan: Plan) -> dict[str, Any]:
    return dict(json.loads(client.get(reverse("planning:export_plan", args=[plan.number])).content))


def test_the_plan_workbook_imports_back_to_the_same_plan(
    client: Client, user: Any, plan: Plan
) -> None:
    client.force_login(user)
    response = client.get(reverse("planning:export_plan_as", args=[plan.number, "xlsx"]))
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    content = response.getvalue()

    copy = plan_file_import(owner=user, content=content, filename="quay.xlsx")

    assert copy.number != plan.number and copy.name == plan.name
    assert _json_export(client, copy) == _json_export(client, plan)


def test_the_plan_workbook_is_laid_out_for_a_person(client: Client, user: Any, plan: Plan) -> None:
    client.force_login(user)
    response = client.get(reverse("planning:export_plan_as", args=[plan.number, "xlsx"]))

    book = load_workbook(io.BytesIO(response.getvalue()))

    assert book.sheetnames == ["Plan", "Nodes", "Actions"]
    fields = {row[0]: row[1] for row in book["Plan"].iter_rows(min_row=2, values_only=True)}
    assert fields["Annual budget (CHF)"] == 150000 and fields["Currency"] == "CHF"
    actions = book["Actions"]
    header = [cell.value for cell in actions[1]]
    assert header[:5] == ["Node ref", "Title", "Kind", "Planned year", "Estimated cost (CHF)"]
    hinges = next(row for row in actions.iter_rows(min_row=2) if row[1].value == "Oil hinges")
    assert (hinges[2].value, hinges[5].value) == ("Repair", "Planned")
    assert (hinges[4].value, hinges[4].number_format) == (80.1, "#,##0.00")
    assert header[7:] == ["Completed on", "Actual cost (CHF)"]
    survey = next(row for row in actions.iter_rows(min_row=2) if row[1].value == "Survey")
    assert (survey[5].value, survey[7].value, survey[8].value) == (
        "Done",
        datetime.datetime(2026, 2, 3),
        1250.5,
    )
    assert survey[7].is_date and survey[8].number_format == "#,##0.00"
    doors = [row for row in book["Nodes"].iter_rows(min_row=2) if row[2].value == "Door"]
    assert {door[12].value for door in doors} == {datetime.datetime(2025, 4, n) for n in (1, 2)}
    assert all(door[12].is_date and door[12].number_format == "yyyy-mm-dd" for door in doors)


def test_the_plan_csv_pair_imports_back_to_the_same_plan(
    client: Client, user: Any, plan: Plan
) -> None:
    client.force_login(user)
    nodes, actions, plan_file = (
        client.get(reverse("planning:export_plan_table", args=[plan.number, table])).getvalue()
        for table in ("nodes", "actions", "plan")
    )

    copy = plan_import_csv(
        owner=user,
        nodes_csv=nodes,
        actions_csv=actions,
        plan_csv=plan_file,
        name=None,
        currency="EUR",  # the plan file's CHF comes first
    )

    # The plan file carries the name, the currency and the prices.
    assert copy.currency == "CHF"
    assert _json_export(client, copy) == _json_export(client, plan)


def test_the_plan_workbooks_currency_comes_before_the_one_chosen(user: Any) -> None:
    nodes = [["Ref", "Name", "Kind"], ["S", "Site", "site"]]
    with_currency = workbook_of({"Plan": [["Currency", "sek"]], "Nodes": nodes})
    without = workbook_of({"Nodes": nodes})

    plans = [
        plan_file_import(owner=user, content=content, filename="x.xlsx", currency="NOK")
        for content in (with_currency, without)
    ]

    assert [plan.currency for plan in plans] == ["SEK", "NOK"]


def test_a_workbook_is_read_as_a_person_made_it(user: Any) -> None:
    content = workbook_of(
        {
            "Plan": [["Field", "Value"], ["Name", "Harbour"], ["Index rate percent", 2.5]],
            "nodes": [
                [
                    "Ref",
                    "Parent ref",
                    "Name",
                    "Kind",
                    "Quantity",
                    "Condition grade",
                    "Condition assessed on",
                ],
                [101, None, "Hall", "Building", None, None, None],
                ["R", 101, "Roof", "component", 363.1, 2, datetime.datetime(2025, 5, 4)],
                [None, None, None, None, None, None, None],
            ],
            "ACTIONS": [
                ["Node ref", "Title", "Kind", "Planned year", "Estimated cost (EUR)", "Status"],
                ["R", "Retile", "Replacement", 2030.0, 0.1 + 0.2, "planned"],
                ["R", "Paint & <seal>", "repair", 2031, 114000, "Done"],
            ],
        }
    )

    plan = plan_file_import(owner=user, content=content, filename="upload.xlsx")

    assert (plan.name, plan.index_rate_percent) == ("Harbour", Decimal("2.5"))
    roof = plan.nodes.get(name="Roof")
    assert roof.parent is not None and roof.parent.ref == "101"
    assert (roof.ref, roof.quantity) == ("R", Decimal("363.1"))
    assert (roof.condition_grade, roof.condition_assessed_on) == (2, datetime.date(2025, 5, 4))
    rows = sorted(
        plan.actions.values_list("title", "kind", "planned_year", "estimated_cost", "status")
    )
    assert rows == [
        ("Paint & <seal>", "repair", 2031, Decimal("114000.00"), "done"),
        ("Retile", "replacement", 2030, Decimal("0.30"), "planned"),
    ]


def test_done_rows_of_a_workbook_become_completions(user: Any) -> None:
    year = timezone.now().year  # Y as the code reads it: UTC
    content = workbook_of(
        {
            "Nodes": [["Ref", "Name", "Kind"], ["B", "Hall", "Building"]],
            "Actions": [
                [
                    "Node ref",
                    "Title",
                    "Kind",
                    "Planned year",
                    "Status",
                    "Interval years",
                    "Completed on",
                    "Actual cost (EUR)",
                ],
                [
                    "B",
                    "Relay roof",
                    "Replacement",
                    year - 2,
                    "Done",
                    None,
                    datetime.datetime(year - 2, 5, 4),
                    1040.5,
                ],
                [
                    "B",
                    "Service boiler",
                    "Repair",
                    year - 4,
                    "Done",
                    5,
                    datetime.datetime(year - 3, 6, 1),
                    None,
                ],
            ],
        }
    )

    plan = plan_file_import(owner=user, content=content, filename="hall.xlsx")

    rows = [
        (
            action.title,
            action.status,
            action.planned_year,
            list(action.completions.values_list("completed_on", "actual_cost", "planned_year")),
        )
        for action in plan.actions.order_by("title")
    ]
    assert rows == [
        (
            "Relay roof",
            "done",
            year - 2,
            [(datetime.date(year - 2, 5, 4), Decimal("1040.50"), year - 2)],
        ),
        ("Service boiler", "planned", year + 2, [(datetime.date(year - 3, 6, 1), None, year - 4)]),
    ]


def test_a_workbook_without_a_plan_sheet_is_named_after_its_file(user: Any) -> None:
    content = workbook_of({"Nodes": [["ref", "name", "kind"], ["S", "Site", "site"]]})

    plan = plan_file_import(owner=user, content=content, filename="North estate.xlsx")

    assert (plan.name, plan.nodes.count(), plan.actions.count()) == ("North estate", 1, 0)


def _problems(content: bytes, filename: str = "plan.xlsx") -> list[str]:
    with pytest.raises(ImportRejected) as rejected:
        plan_file_import(owner=None, content=content, filename=filename)  # type: ignore[arg-type]
    return [str(problem) for problem in rejected.value.problems]


def test_a_workbook_problem_names_its_sheet_row_and_column(user: Any) -> None:
    content = workbook_of(
        {
            "Nodes": [["ref", "name", "kind"], ["S", "Site", "castle"]],
            "Actions": [["node_ref", "title", "kind", "planned_yaer"]],
        }
    )

    problems = _problems(content)

    assert problems[0].startswith('sheet Nodes row 2 (ref "S"): kind:')
    assert (
        'sheet Actions row 1: planned_yaer: unknown column; did you mean "planned_year"?'
        in problems
    )


def test_a_file_that_is_no_workbook_is_a_problem_not_a_500(user: Any) -> None:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("hello.txt", "not a spreadsheet")

    assert _problems(buffer.getvalue())[0].startswith("plan.xlsx: not a readable Excel workbook")
    no_nodes = workbook_of({"Sheet1": [["a"]]})
    assert 'has no sheet "Nodes" (its sheets: Sheet1)' in _problems(no_nodes)[0]


def test_a_workbook_that_would_unpack_beyond_its_bound_is_refused_unread(user: Any) -> None:
    """A few KB of zeros that unpack to more than the bound: refused from the archive's
    directory, before a byte is unpacked."""
    buffer = io.BytesIO()
    archive = zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED)
    with archive, archive.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as part:
        chunk = b"\0" * (1024 * 1024)
        for _ in range(WORKBOOK_MAX_XML_BYTES // len(chunk) + 1):
            part.write(chunk)

    assert len(buffer.getvalue()) < 1024 * 1024
    assert "unpacks to" in _problems(buffer.getvalue())[0]


def test_a_workbook_in_the_csv_slot_is_told_where_it_belongs(user: Any) -> None:
    content = workbook_of({"Nodes": [["ref", "name", "kind"]]})

    with pytest.raises(ImportRejected) as rejected:
        plan_import_csv(owner=user, nodes_csv=content, actions_csv=b"node_ref\n", name="x")

    assert "is an Excel workbook, not CSV text: upload it as the plan file" in str(
        rejected.value.problems[0]
    )


def test_a_cell_the_csv_export_neutralised_reads_back_as_named(user: Any) -> None:
    nodes = 'ref,name,kind\n"B","\'=HYPERLINK(""x"")","building"\n'
    actions = 'node_ref,title,kind,planned_year\n"B","Fix;\'@SUM(A1)","repair",2030\n'

    plan = plan_import_csv(
        owner=user, nodes_csv=nodes.encode(), actions_csv=actions.encode(), name="Traps"
    )

    assert plan.nodes.get().name == '=HYPERLINK("x")'
    assert plan.actions.get().title == "Fix;@SUM(A1)"


@pytest.mark.parametrize("separator", [",", ";", "\t"])
def test_a_csv_pair_with_any_separator_and_labels_imports(user: Any, separator: str) -> None:
    nodes = (
        separator.join(["Ref", "Name", "Kind"]) + "\n" + separator.join(["B", "Hall", "Building"])
    )
    actions = separator.join(["Node ref", "Title", "Kind", "Planned year", "Estimated cost (EUR)"])
    actions += "\n" + separator.join(["B", "Paint", "Repair", "2030", "1250.50"])

    plan = plan_import_csv(
        owner=user, nodes_csv=nodes.encode(), actions_csv=actions.encode(), name="Semi"
    )

    assert list(plan.actions.values_list("kind", "estimated_cost")) == [
        ("repair", Decimal("1250.50"))
    ]


def test_a_semicolon_file_may_write_decimal_commas(user: Any) -> None:
    nodes = "ref;name;kind;quantity\nB;Hall;building;\nR;Roof;component;1.250,5\n"
    actions = (
        "node_ref;title;kind;planned_year;estimated_cost\nR;Retile;replacement;2030;48.000,50\n"
    )
    actions += "R;Gutter;repair;2031;950,25\nR;Check;inspection;2032;1200\n"

    plan = plan_import_csv(
        owner=user, nodes_csv=nodes.encode(), actions_csv=actions.encode(), name="Comma"
    )

    assert plan.nodes.get(name="Roof").quantity == Decimal("1250.5")
    assert sorted(plan.actions.values_list("estimated_cost", flat=True)) == [
        Decimal("950.25"),
        Decimal("1200.00"),
        Decimal("48000.50"),
    ]

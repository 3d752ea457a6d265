"""The plan's tabs for portfolio-sized plans: tree search, node lookup for the pickers, the
Actions tab's filters and order, settings and delete, projects, exports, and query counts that do
not grow with the plan."""

from __future__ import annotations

import csv
import io
import zipfile
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from planning.management.commands.generate_plan import synthetic_plan_document
from planning.models import Action, Code, NodeKind, Plan, PlanChange, PlanRole, Project
from planning.transfer.imports.plan_document import plan_import_document
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
    UserFactory,
)
from tests.planning.workbooks import exported_sheet

pytestmark = pytest.mark.django_db


@pytest.fixture
def estate(user: Any) -> dict[str, Any]:
    plan = PlanFactory.create(name="Harbour estate")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    code = CodeFactory.create(code="777.7", name="Heat pump")
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="North site")
    hall = StructureNodeFactory.create(plan=plan, parent=site, kind="building", name="Hall A")
    shed = StructureNodeFactory.create(plan=plan, parent=site, kind="building", name="Shed B")
    heating = StructureNodeFactory.create(plan=plan, parent=hall, kind="system", name="Heating")
    pump = StructureNodeFactory.create(plan=plan, parent=heating, name="Pump 1", code=code)
    door = StructureNodeFactory.create(plan=plan, parent=shed, name="Door")
    project = ProjectFactory.create(plan=plan, name="Hall works", year=2031)
    return {
        "plan": plan,
        "site": site,
        "hall": hall,
        "shed": shed,
        "pump": pump,
        "door": door,
        "project": project,
        "replace_pump": ActionFactory.create(
            node=pump,
            title="Replace pump",
            kind="replacement",
            planned_year=2031,
            estimated_cost=Decimal("12000.00"),
            project=project,
        ),
        "inspect_pump": ActionFactory.create(
            node=pump,
            title="Inspect pump",
            kind="inspection",
            planned_year=2027,
            estimated_cost=Decimal("150.00"),
        ),
        "paint_door": ActionFactory.create(
            node=door,
            title="Paint door",
            kind="repair",
            planned_year=2029,
            estimated_cost=Decimal("800.00"),
            status="done",
        ),
    }


@pytest.fixture
def owner_client(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def _listed(page: str, *actions: Action) -> list[bool]:
    return [f'data-action-id="{action.pk}"' in page for action in actions]


# --- structure -------------------------------------------------------------------------------


def test_tree_search_finds_nodes_by_name_or_code_with_their_path(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    url = reverse("planning:plan_detail", args=[estate["plan"].number])

    by_name = owner_client.get(url, {"q": "pump"}).content.decode()
    by_code = owner_client.get(url, {"q": "777"}).content.decode()
    nothing = owner_client.get(url, {"q": "zeppelin"}).content.decode()

    assert f'data-node-id="{estate["pump"].pk}"' in by_name
    assert "in North site \u203a Hall A \u203a Heating" in by_name
    assert f'data-node-id="{estate["door"].pk}"' not in by_name
    assert f'data-node-id="{estate["pump"].pk}"' in by_code
    assert 'id="no-matches"' in nothing and "zeppelin" in nothing


def test_node_lookup_answers_the_pickers_and_narrows_by_kind(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    url = reverse("planning:node_lookup", args=[estate["plan"].number])

    anything = owner_client.get(url, {"q": "h"}).json()
    buildings = owner_client.get(url, {"q": "h", "kind": "building"}).json()
    bad_kind = owner_client.get(url, {"q": "h", "kind": "moon"}).json()

    assert {r["name"] for r in anything["results"]} == {"Hall A", "Heating", "North site", "Shed B"}
    assert [r["name"] for r in buildings["results"]] == ["Hall A", "Shed B"]
    assert buildings["results"][0]["path"] == "North site"
    assert bad_kind == {"results": [], "more": False}


def test_children_of_a_node_of_another_plan_are_404(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    foreign = StructureNodeFactory.create()

    response = owner_client.get(
        reverse("planning:node_children", args=[estate["plan"].number, foreign.pk])
    )

    assert response.status_code == 404


# --- actions tab -----------------------------------------------------------------------------


def test_actions_are_searched_filtered_and_show_their_building(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    url = reverse("planning:plan_actions", args=[estate["plan"].number])
    every = (estate["replace_pump"], estate["inspect_pump"], estate["paint_door"])

    text = owner_client.get(url, {"q": "pump replace"}).content.decode()
    by_code = owner_client.get(url, {"q": "777.7"}).content.decode()
    kind = owner_client.get(url, {"kind": "repair"}).content.decode()
    status = owner_client.get(url, {"status": "planned"}).content.decode()
    years = owner_client.get(url, {"year_from": "2028", "year_to": "2030"}).content.decode()
    building = owner_client.get(url, {"building": str(estate["hall"].pk)}).content.decode()
    project = owner_client.get(url, {"project": str(estate["project"].pk)}).content.decode()
    no_project = owner_client.get(url, {"project": "none"}).content.decode()
    not_a_building = owner_client.get(url, {"building": str(estate["pump"].pk)}).content.decode()

    assert _listed(text, *every) == [True, False, False]
    assert _listed(by_code, *every) == [True, True, False]
    assert _listed(kind, *every) == [False, False, True]
    assert _listed(status, *every) == [True, True, False]
    assert _listed(years, *every) == [False, False, True]
    assert _listed(building, *every) == [True, True, False]
    assert _listed(project, *every) == [True, False, False]
    assert _listed(no_project, *every) == [False, True, True]
    assert "No building of this plan has this id" in not_a_building
    assert _listed(not_a_building, *every) == [True, True, True]
    row = text[text.index(f'data-action-id="{estate["replace_pump"].pk}"') :]
    assert "<td>Hall A</td>" in row[: row.index("</tr>")]
    assert "12,000.00\xa0EUR" in row[: row.index("</tr>")]


def test_actions_are_sorted_by_a_column_both_ways(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    url = reverse("planning:plan_actions", args=[estate["plan"].number])

    by_cost = owner_client.get(url, {"sort": "cost"}).content.decode()
    by_cost_desc = owner_client.get(url, {"sort": "-cost"}).content.decode()

    def order(page: str) -> list[str]:
        titles = ("Inspect pump", "Paint door", "Replace pump")
        return sorted(titles, key=lambda title: page.index(f"<td>{title}</td>"))

    assert order(by_cost) == ["Inspect pump", "Paint door", "Replace pump"]
    assert order(by_cost_desc) == ["Replace pump", "Paint door", "Inspect pump"]
    # the Estimated cost header now sorts the other way, and says how it is sorted
    assert 'aria-sort="ascending"><a href="?sort=-cost">' in by_cost
    assert 'aria-sort="descending"><a href="?sort=cost">' in by_cost_desc


def test_mark_done_returns_to_the_same_filters_and_page(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    plan = estate["plan"]
    back = f"/plans/{plan.number}/actions/?kind=inspection&page=1"

    response = owner_client.post(
        reverse("planning:action_done", args=[plan.number, estate["inspect_pump"].pk]),
        {"next": back},
    )
    elsewhere = owner_client.post(
        reverse("planning:action_cancel", args=[plan.number, estate["replace_pump"].pk]),
        {"next": "https://evil.example/plans/1/"},
    )

    assert response["Location"] == back
    assert elsewhere["Location"] == f"/plans/{plan.number}/actions/"


# --- settings and delete --------------------------------------------------------------------


def test_plan_is_renamed_and_its_currency_shows_on_amounts(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    plan = estate["plan"]
    url = reverse("planning:plan_settings", args=[plan.number])

    response = owner_client.post(
        url, {"plan-name": "Harbour", "plan-description": "Port", "plan-currency": "chf"}
    )
    actions = owner_client.get(
        reverse("planning:plan_actions", args=[plan.number]), {"q": "replace"}
    ).content.decode()

    assert response.status_code == 302
    plan.refresh_from_db()
    assert (plan.name, plan.description, plan.currency) == ("Harbour", "Port", "CHF")
    assert "12,000.00\xa0CHF" in actions


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"plan-name": " ", "plan-currency": "EUR"}, "This field"),
        ({"plan-name": "X", "plan-currency": "EURO"}, "at most 3 characters"),
        ({"plan-name": "X", "plan-currency": "E1R"}, "3-letter currency code"),
    ],
)
def test_bad_settings_are_refused_with_a_message(
    owner_client: Client, estate: dict[str, Any], data: dict[str, str], message: str
) -> None:
    plan = estate["plan"]

    response = owner_client.post(reverse("planning:plan_settings", args=[plan.number]), data)

    assert response.status_code == 200
    assert message in response.content.decode()
    plan.refresh_from_db()
    assert (plan.name, plan.currency) == ("Harbour estate", "EUR")


def test_new_plans_take_the_default_currency(settings: Any, user: Any) -> None:
    settings.PLAN_DEFAULT_CURRENCY = "USD"

    assert PlanFactory.create().currency == "USD"


def test_delete_needs_the_plans_exact_name(owner_client: Client, estate: dict[str, Any]) -> None:
    plan = estate["plan"]
    url = reverse("planning:plan_delete", args=[plan.number])

    wrong = owner_client.post(url, {"delete-confirm_name": "harbour estate"})
    assert wrong.status_code == 200
    assert "That is not the name of the plan; nothing was deleted." in wrong.content.decode()
    assert Plan.objects.filter(pk=plan.pk).exists()

    right = owner_client.post(url, {"delete-confirm_name": "Harbour estate"})

    assert right.status_code == 302 and right["Location"] == reverse("planning:plan_list")
    assert not Plan.objects.filter(pk=plan.pk).exists()
    assert not Action.objects.filter(plan_id=plan.pk).exists()
    assert not PlanChange.objects.filter(plan_id=plan.pk).exists()
    listing = owner_client.get(reverse("planning:plan_list")).content.decode()
    assert "Plan #" in listing and "deleted" in listing


def test_an_editor_cannot_delete_the_plan(client: Client, estate: dict[str, Any]) -> None:
    editor = PlanMembershipFactory.create(plan=estate["plan"], role=PlanRole.EDITOR)
    client.force_login(editor.user)

    page = client.get(reverse("planning:plan_settings", args=[estate["plan"].number]))
    response = client.post(
        reverse("planning:plan_delete", args=[estate["plan"].number]),
        {"delete-confirm_name": "Harbour estate"},
    )

    assert "Only an owner of the plan can delete it." in page.content.decode()
    assert response.status_code == 403
    assert Plan.objects.filter(pk=estate["plan"].pk).exists()


# --- projects --------------------------------------------------------------------------------


def test_projects_list_counts_and_totals(owner_client: Client, estate: dict[str, Any]) -> None:
    ActionFactory.create(
        node=estate["door"],
        planned_year=2031,
        estimated_cost=Decimal("1000000"),
        project=estate["project"],
    )
    ActionFactory.create(
        node=estate["door"],
        planned_year=2031,
        estimated_cost=Decimal("5"),
        project=estate["project"],
        status="cancelled",
    )

    page = owner_client.get(
        reverse("planning:project_list", args=[estate["plan"].number])
    ).content.decode()

    row = page[page.index(f'data-project-id="{estate["project"].pk}"') :]
    row = row[: row.index("</tr>")]
    assert "Hall works" in row and ">2031<" in row and ">3<" in row
    assert "1,012,000.00\xa0EUR" in row


def test_project_is_renamed_given_actions_and_deleted_keeping_them(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    plan, project = estate["plan"], estate["project"]
    url = reverse("planning:project_detail", args=[plan.number, project.pk])

    owner_client.post(url, {"project-name": "Hall renewal", "project-year": "2032"})
    found = owner_client.get(url, {"q": "door"}).content.decode()
    owner_client.post(
        reverse("planning:project_actions_add", args=[plan.number, project.pk]),
        {"action": [str(estate["paint_door"].pk)]},
    )
    owner_client.post(
        reverse(
            "planning:project_action_remove",
            args=[plan.number, project.pk, estate["replace_pump"].pk],
        )
    )

    project.refresh_from_db()
    assert (project.name, project.year) == ("Hall renewal", 2032)
    assert f'value="{estate["paint_door"].pk}"' in found
    assert list(project.actions.values_list("title", flat=True)) == ["Paint door"]

    owner_client.post(reverse("planning:project_delete", args=[plan.number, project.pk]))

    assert not Project.objects.filter(pk=project.pk).exists()
    estate["paint_door"].refresh_from_db()
    assert estate["paint_door"].project is None


def test_actions_of_another_plan_cannot_join_a_project(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    alien = ActionFactory.create()
    plan, project = estate["plan"], estate["project"]

    owner_client.post(
        reverse("planning:project_actions_add", args=[plan.number, project.pk]),
        {"action": [str(alien.pk)]},
    )

    alien.refresh_from_db()
    assert alien.project is None


# --- export ----------------------------------------------------------------------------------


def test_actions_export_as_csv_and_xlsx(owner_client: Client, estate: dict[str, Any]) -> None:
    trap = StructureNodeFactory.create(plan=estate["plan"], kind="site", name='=HYPERLINK("x")')
    ActionFactory.create(node=trap, title="@SUM(A1)", planned_year=2030)
    number = estate["plan"].number

    csv_response = owner_client.get(reverse("planning:export_actions", args=[number, "csv"]))
    xlsx_response = owner_client.get(reverse("planning:export_actions", args=[number, "xlsx"]))

    assert csv_response["Content-Type"].startswith("text/csv")
    assert "attachment" in csv_response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(csv_response.getvalue().decode("utf-8-sig"))))
    assert len(rows) == Action.objects.filter(plan=estate["plan"]).count() + 1
    assert rows[0][:3] == ["Node path", "Building", "Code"]
    by_title = {row[3]: row for row in rows[1:]}
    assert by_title["Replace pump"][:3] == [
        "North site / Hall A / Heating / Pump 1",
        "Hall A",
        "777.7",
    ]
    assert by_title["Replace pump"][6] == "12000.00"
    trap_row = by_title["'@SUM(A1)"]
    assert trap_row[0] == '\'=HYPERLINK("x")'

    parts = exported_sheet(xlsx_response.getvalue())
    sheet = parts.sheet
    cells = parts.table
    assert len(cells) == len(rows) and parts.below == []
    assert cells[0] == rows[0]
    assert parts.title == f"Actions of plan #{number} {estate['plan'].name}"
    assert parts.facts["Organisation"] == estate["plan"].organisation.name
    assert parts.facts["Filters"] == "none: every action of the plan"
    titles = {row[3]: row for row in cells[1:]}
    assert titles["Replace pump"][6] == 12000
    # Kinds and statuses by their labels, as the pages show them.
    assert (titles["Replace pump"][4], titles["Replace pump"][9]) == ("Replacement", "Planned")
    # A text that looks like a formula is an inline string: text, kept exactly as named.
    assert titles["@SUM(A1)"][0] == '=HYPERLINK("x")'
    assert all(cell.data_type != "f" for row in sheet.iter_rows() for cell in row)


def test_the_xlsx_export_is_laid_out_for_a_spreadsheet(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    """Money as numbers in a money format, a bold frozen header with a filter, set widths."""
    number = estate["plan"].number
    response = owner_client.get(reverse("planning:export_actions", args=[number, "xlsx"]))

    parts = exported_sheet(response.getvalue())
    sheet, first = parts.sheet, parts.table_first_row
    assert sheet["A1"].font.b and sheet["A1"].font.sz == 14  # the title
    header = [cell for cell in next(sheet.iter_rows(min_row=first, max_row=first))]
    assert all(cell.font.b for cell in header) and header[0].fill.fgColor.rgb == "FFE7ECF2"
    assert sheet.freeze_panes == f"A{first + 1}"  # the title block and the header stay
    assert sheet.auto_filter.ref == f"A{first}:M{sheet.max_row}"
    data = list(sheet.iter_rows(min_row=first + 1))
    cost = next(row for row in data if row[3].value == "Replace pump")[6]
    assert (cost.value, cost.number_format, cost.data_type) == (12000, "#,##0.00", "n")
    year = data[0][5]
    assert isinstance(year.value, int) and year.number_format == "General"
    widths = {letter: sheet.column_dimensions[letter].width for letter in "ABDG"}
    assert widths["A"] >= len("North site / Hall A / Heating / Pump 1")
    assert all(8 <= width <= 62 for width in widths.values())


def test_the_actions_workbook_starts_before_a_row_is_read(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    """The first bytes leave before the export reads the plan (a big plan's rows take a second
    to read and sort), and the workbook that follows holds every part."""
    number = estate["plan"].number
    response = owner_client.get(reverse("planning:export_actions", args=[number, "xlsx"]))
    chunks = iter(response.streaming_content)  # type: ignore[attr-defined]

    with CaptureQueriesContext(connection) as queries:
        first = next(chunks)
    content = first + b"".join(chunks)

    assert first.startswith(b"PK") and queries.captured_queries == []
    with zipfile.ZipFile(io.BytesIO(content)) as archive:
        assert archive.testzip() is None
        assert sorted(archive.namelist()) == [
            "[Content_Types].xml",
            "_rels/.rels",
            "xl/_rels/workbook.xml.rels",
            "xl/styles.xml",
            "xl/workbook.xml",
            "xl/worksheets/sheet1.xml",
        ]
    titles = [row[3] for row in exported_sheet(content).table[1:]]
    assert len(titles) == Action.objects.filter(plan=estate["plan"]).count()


def test_actions_export_keeps_the_filters(owner_client: Client, estate: dict[str, Any]) -> None:
    response = owner_client.get(
        reverse("planning:export_actions", args=[estate["plan"].number, "csv"]), {"kind": "repair"}
    )

    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    assert [row[3] for row in rows[1:]] == ["Paint door"]


def test_the_actions_workbook_states_its_filters_in_words(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    response = owner_client.get(
        reverse("planning:export_actions", args=[estate["plan"].number, "xlsx"]),
        {"kind": "inspection", "building": str(estate["hall"].pk), "year_from": "bad"},
    )

    parts = exported_sheet(response.getvalue())
    # a bad value is left out, as the list leaves it out
    assert parts.facts["Filters"] == "Kind: Inspection; Building: Hall A"
    assert [row[3] for row in parts.table[1:]] == ["Inspect pump"]


def test_budget_export_sums_planned_cost_per_building_and_year(
    owner_client: Client, estate: dict[str, Any]
) -> None:
    ActionFactory.create(node=estate["door"], planned_year=2031, estimated_cost=Decimal("50.50"))
    ActionFactory.create(node=estate["site"], planned_year=2030, estimated_cost=Decimal("7"))

    response = owner_client.get(
        reverse("planning:export_budget", args=[estate["plan"].number, "csv"]),
        {"year_from": 2027, "year_to": 2031},
    )

    # the building, then its key figures (six columns), then the years
    rows = [
        [row[0], *row[7:13]]  # past the six key figures
        for row in csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig")))
    ]
    inspect_cost = f"{estate['inspect_pump'].estimated_cost:.2f}"
    hall_total = f"{Decimal('12000') + estate['inspect_pump'].estimated_cost:.2f}"
    total = "Total 2027\u20132031 (EUR, today's prices)"
    assert rows[0] == ["Building", "2027", "2028", "2029", "2030", "2031", total]
    # as on the planning page: buildings by name, then actions outside any building
    assert rows[1] == ["Hall A", inspect_cost, "0.00", "0.00", "0.00", "12000.00", hall_total]
    # the done action is left out
    assert rows[2] == ["Shed B", "0.00", "0.00", "0.00", "0.00", "50.50", "50.50"]
    assert rows[3] == ["(no building)", "0.00", "0.00", "0.00", "7.00", "0.00", "7.00"]
    assert rows[4][0] == "Total"


def test_unknown_export_format_is_404(owner_client: Client, estate: dict[str, Any]) -> None:
    response = owner_client.get(
        reverse("planning:export_actions", args=[estate["plan"].number, "pdf"])
    )

    assert response.status_code == 404


# --- size --------------------------------------------------------------------------------------


def _generated_plan(user: Any, nodes: int, actions: int) -> Plan:
    document = synthetic_plan_document(
        nodes=nodes,
        actions=actions,
        seed=7,
        year=timezone.now().year,
        codes=list(Code.objects.order_by("code")),
    )
    plan = plan_import_document(owner=user, document=document)
    return plan


@pytest.mark.usefixtures("starter_catalog")
@pytest.mark.parametrize(
    ("url_name", "query"),
    [
        ("plan_detail", ""),
        ("plan_actions", ""),
        ("project_list", ""),
        # A grouping card reads its actions (one query for the page): both plans show the same
        # kinds of cards, so the counts compare like with like.
        ("action_planning", "?suggestion_type=project_grouping"),
        ("action_planning", "?suggestion_type=deviation&suggestion_type=missing_code"),
    ],
)
def test_plan_tabs_make_as_many_queries_for_10_as_for_2000_nodes(
    client: Client, url_name: str, query: str
) -> None:
    user = UserFactory.create()
    small = _generated_plan(user, 10, 30)
    large = _generated_plan(user, 2000, 6000)
    client.force_login(user)
    counts = []
    for plan in (small, large):
        url = reverse(f"planning:{url_name}", args=[plan.number]) + query
        client.get(url)  # the first visit of the planning tab syncs the plan
        with CaptureQueriesContext(connection) as queries:
            response = client.get(url)
        assert response.status_code == 200
        counts.append(len(queries))

    assert counts[0] == counts[1]

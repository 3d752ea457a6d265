"""CSV written by planning.transfer.csv_stream: every text cell quoted, so no separator a
spreadsheet may use (comma, semicolon, tab) splits a cell into a formula, and the formula
neutralisation kept for every cell (issue 27, point 8)."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planning.models import PlanRole
from planning.transfer.csv_stream import as_csv
from planning.transfer.imports.csv_pair import plan_import_csv
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"

# A cell, and how a CSV reader splitting on commas reads it back from the export.
TRAPS = {
    "Roof;=HYPERLINK(B1);": "Roof;'=HYPERLINK(B1);",  # the probe's cell
    ";=cmd|' /C calc'!A0": ";'=cmd|' /C calc'!A0",  # the separator first
    "Roof,=SUM(A1:A9)": "Roof,'=SUM(A1:A9)",
    "Roof\t=1+1": "Roof\t'=1+1",
    "Roof\n=1+1": "Roof\n'=1+1",
    "Roof\r\n@SUM(A1)": "Roof\r\n'@SUM(A1)",
    "Roof; =1": "Roof; '=1",  # spaces after the separator
    'Roof;"=1"': 'Roof;"\'=1"',  # a quote after the separator
    "Roof;;\t-1+1": "Roof;;\t'-1+1",
    'say "=1" then': 'say "=1" then',  # no separator before the formula character
    "=1;2": "'=1;2",  # a leading formula character and a separator
    "-2;+3": "'-2;'+3",
    "\t=1": "'\t'=1",
    "a@b.example, 5 - 3": "a@b.example, 5 - 3",  # nothing a new cell would start with
}


def _cells(text: str, delimiter: str) -> list[str]:
    return [cell for row in csv.reader(io.StringIO(text), delimiter=delimiter) for cell in row]


def _formula(cell: str) -> bool:
    """Whether a spreadsheet may read the cell as a formula, also after trimming spaces, tabs,
    line breaks and stray quotes off it."""
    return cell.strip(' "\t\r\n').startswith(("=", "+", "-", "@"))


def _written(rows: list[tuple[Any, ...]]) -> str:
    data = as_csv(rows)
    assert data.startswith("\ufeff".encode())
    return data.decode("utf-8-sig")


@pytest.mark.parametrize("trap", TRAPS)
@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
def test_no_separator_a_spreadsheet_may_use_makes_a_formula_cell(trap: str, delimiter: str) -> None:
    """Read with another separator than ours, a line's first cell is quoted and the rest of
    the line is split as bare text: the trap is tried in both places."""
    text = _written(
        [("Node path", "Title", "Year", "Cost"), (trap, trap, 2030, Decimal("5")), ("x", trap)]
    )

    for cell in _cells(text, delimiter):
        assert not _formula(cell), (trap, delimiter, cell)


@pytest.mark.parametrize(("trap", "read_back"), TRAPS.items())
def test_every_text_cell_is_quoted_and_reads_back_neutralised(trap: str, read_back: str) -> None:
    text = _written([(trap, "", "Hall A")])

    assert text.startswith('"') and text.endswith('"Hall A"\r\n')
    assert list(csv.reader(io.StringIO(text))) == [[read_back, "", "Hall A"]]


def test_numbers_stay_bare_numbers() -> None:
    text = _written([("Building", 2030, "Total"), ("Hall A", Decimal("12000.50"), Decimal("-3"))])

    assert text == '"Building",2030,"Total"\r\n"Hall A",12000.50,-3\r\n'


@pytest.mark.django_db
def test_the_actions_export_quotes_the_probe_cell(client: Client, user: Any) -> None:
    plan = PlanFactory.create(name="Harbour")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    site = StructureNodeFactory.create(plan=plan, kind="site", name="Roof;=HYPERLINK(B1);")
    ActionFactory.create(node=site, title="Fix;@SUM(A1)", planned_year=2030)
    client.force_login(user)

    response = client.get(reverse("planning:export_actions", args=[plan.number, "csv"]))

    text = response.getvalue().decode("utf-8-sig")
    assert '"Roof;\'=HYPERLINK(B1);","","","Fix;\'@SUM(A1)","repair",2030,' in text
    for delimiter in (",", ";"):
        assert not any(_formula(cell) for cell in _cells(text, delimiter))


@pytest.mark.django_db
def test_the_import_reads_back_a_csv_pair_written_this_way(user: Any) -> None:
    """The plan import takes files in the export's CSV dialect: the example pair rewritten
    with every text cell quoted, and names with separators and quotes, import as written."""

    def rewritten(name: str, renames: dict[str, str]) -> bytes:
        rows = list(csv.reader(io.StringIO((EXAMPLES / name).read_text(encoding="utf-8"))))
        return as_csv([tuple(renames.get(cell, cell) for cell in row) for row in rows])

    tricky = 'Warehouse; east, "old"'
    nodes = rewritten("nodes.csv", {"Warehouse": tricky})
    actions = rewritten("actions.csv", {"Retile roof": 'Retile; roof, "all"'})
    assert nodes.decode("utf-8-sig").splitlines()[0].startswith('"ref","parent_ref"')

    plan = plan_import_csv(owner=user, nodes_csv=nodes, actions_csv=actions, name="Round trip")

    assert plan.nodes.filter(name=tricky).exists()
    assert plan.actions.filter(title='Retile; roof, "all"', planned_year=2028).exists()
    original = plan_import_csv(
        owner=user,
        nodes_csv=(EXAMPLES / "nodes.csv").read_bytes(),
        actions_csv=(EXAMPLES / "actions.csv").read_bytes(),
        name="Original",
    )
    assert plan.nodes.count() == original.nodes.count()
    assert sorted(plan.actions.values_list("estimated_cost", flat=True)) == sorted(
        original.actions.values_list("estimated_cost", flat=True)
    )


def test_budget_rows_come_in_natural_order_on_the_page_and_in_the_export(
    client: Any, user: Any
) -> None:
    from decimal import Decimal

    from django.utils import timezone

    from planning.figures.budget import plan_budget
    from planning.models import NodeKind, PlanRole
    from tests.factories import (
        ActionFactory,
        PlanFactory,
        PlanMembershipFactory,
        StructureNodeFactory,
    )

    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    year = timezone.localdate().year
    for name in ("Block 10", "Block 2", "block 1"):
        building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name=name)
        ActionFactory.create(node=building, planned_year=year, estimated_cost=Decimal("10"))
    budget = plan_budget(plan=plan, year_from=year, year_to=year + 9)
    assert [row.name for row in budget.rows] == ["block 1", "Block 2", "Block 10"]
    client.force_login(user)
    text = client.get(f"/plans/{plan.number}/export/budget.csv").getvalue().decode("utf-8-sig")
    assert text.index("block 1") < text.index("Block 2") < text.index("Block 10")


def test_a_nodes_page_lists_its_children_in_natural_order(client: Client, user: Any) -> None:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    site = StructureNodeFactory.create(plan=plan, kind="site", name="Estate")
    for name in ("Building 10", "Building 2", "building 1", "Annex"):
        StructureNodeFactory.create(plan=plan, parent=site, kind="building", name=name)
    client.force_login(user)

    html = client.get(reverse("planning:node_detail", args=[plan.number, site.pk])).content
    text = html.decode()

    positions = [
        text.index(f">{name}</a>") for name in ("Annex", "building 1", "Building 2", "Building 10")
    ]
    assert positions == sorted(positions)


@pytest.mark.parametrize("sort", ["node", "-node"])
def test_the_actions_list_and_its_export_sort_node_names_naturally(
    client: Client, user: Any, sort: str
) -> None:
    """In SQL on both databases (the natural_order collation), so a page of 50 out of 100,000
    is still the right 50."""
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    site = StructureNodeFactory.create(plan=plan, kind="site", name="Estate")
    names = ["Annex", "building 1", "Building 2", "Building 10", "Building 10a", "Building 100"]
    for name in reversed(names):
        house = StructureNodeFactory.create(plan=plan, parent=site, kind="building", name=name)
        ActionFactory.create(node=house, title=f"Paint [{name}]", planned_year=2030)
    client.force_login(user)
    expected = names if sort == "node" else names[::-1]

    export = client.get(
        reverse("planning:export_actions", args=[plan.number, "csv"]), {"sort": sort}
    )

    rows = list(csv.reader(io.StringIO(export.getvalue().decode("utf-8-sig"))))
    assert [row[3] for row in rows[1:]] == [f"Paint [{name}]" for name in expected]
    page = client.get(reverse("planning:plan_actions", args=[plan.number]), {"sort": sort})
    text = page.content.decode()
    shown = [text.index(f"Paint [{name}]") for name in expected]
    assert shown == sorted(shown)

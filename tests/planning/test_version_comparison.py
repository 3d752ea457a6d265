"""A version's comparison as a person reads it (docs/subsystems/versions.md "Versions"): the page,
the CSV and the XLSX, through the test client, after each kind of change (an action added, deleted,
its cost, year, node or building, status changed, a recurring action marked done), under each
building's filter, version against version; and a version's planned cost, the plan list's
ten-year figure at adoption, with its years and prices."""

from __future__ import annotations

import csv
import datetime
import io
from dataclasses import dataclass, field
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.models import (
    Action,
    NodeKind,
    Plan,
    PlanRole,
    PlanVersion,
    StructureNode,
    VersionAction,
)
from planning.plans.services.actions import (
    action_cancel,
    action_create,
    action_mark_done,
    action_update,
)
from planning.plans.services.nodes import node_delete
from planning.records.adoption import plan_adopt
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)
from tests.planning.workbooks import exported_sheet

pytestmark = pytest.mark.django_db

ARROW = "→"
DASH = "\u2013"  # an en dash, as year spans are written


def this_year() -> int:
    """Y as the comparison's years and a version's planned cost read it."""
    return timezone.localdate().year


# --- the plan -----------------------------------------------------------------------------


@dataclass
class Harbour:
    """A plan of two buildings, adopted as version 1. In Y .. Y + 9, today's prices:
    North 20,100.00 (New roof 19,000 in Y + 2, Gutters 300 in Y + 1, Paint 800 in Y),
    South 6,602.00 (Service 1,150.50 every 3 years from Y: 4 times; Lift check 2,000 in Y + 4);
    26,702.00 in all."""

    plan: Plan
    version: PlanVersion
    north: StructureNode
    south: StructureNode
    roof: StructureNode
    wall: StructureNode
    boiler: StructureNode
    lift: StructureNode
    actions: dict[str, Action]
    year: int


@pytest.fixture
def harbour(user: Any) -> Harbour:
    year = this_year()
    plan = PlanFactory.create(name="Harbour")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    north = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="North")
    south = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="South")
    roof = StructureNodeFactory.create(plan=plan, parent=north, name="Roof")
    wall = StructureNodeFactory.create(plan=plan, parent=north, name="Wall")
    boiler = StructureNodeFactory.create(plan=plan, parent=south, name="Boiler")
    lift = StructureNodeFactory.create(plan=plan, parent=south, name="Lift")
    made = {
        "New roof": dict(node=roof, planned_year=year + 2, estimated_cost=Decimal("19000")),
        "Gutters": dict(node=roof, planned_year=year + 1, estimated_cost=Decimal("300")),
        "Paint": dict(node=wall, planned_year=year, estimated_cost=Decimal("800")),
        "Service": dict(
            node=boiler, planned_year=year, estimated_cost=Decimal("1150.50"), interval_years=3
        ),
        "Lift check": dict(node=lift, planned_year=year + 4, estimated_cost=Decimal("2000")),
    }
    actions = {title: ActionFactory.create(title=title, **fields) for title, fields in made.items()}
    version = plan_adopt(plan=plan, name="Board")
    return Harbour(plan, version, north, south, roof, wall, boiler, lift, actions, year)


def _edit(action: Action, **changes: Any) -> None:
    """The action's edit form sent with these fields changed."""
    fields: dict[str, Any] = {
        "node": action.node,
        "title": action.title,
        "kind": action.kind,
        "planned_year": action.planned_year,
        "estimated_cost": action.estimated_cost,
        "interval_years": action.interval_years,
    }
    action_update(action=action, **{**fields, **changes})


# --- reading the three surfaces -----------------------------------------------------------


class _Tables(HTMLParser):
    """The text of every cell of every row of the tables with an id, by table id and part
    (thead, tbody, tfoot); the text of a `<small>` in a cell after a "|"."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, dict[str, list[list[str]]]] = {}
        self.table: str | None = None
        self.part = "tbody"
        self.cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self.table = dict(attrs).get("id") or None
            if self.table:
                self.tables[self.table] = {"thead": [], "tbody": [], "tfoot": []}
        elif self.table is None:
            return
        elif tag in ("thead", "tbody", "tfoot"):
            self.part = tag
        elif tag == "tr":
            self.tables[self.table][self.part].append([])
        elif tag in ("td", "th"):
            self.cell = []
        elif tag == "small" and self.cell is not None:
            self.cell.append(" | ")

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.table = None
        elif tag in ("td", "th") and self.table and self.cell is not None:
            self.tables[self.table][self.part][-1].append(" ".join("".join(self.cell).split()))
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell.append(data)


@dataclass
class Seen:
    """A comparison as each surface shows it."""

    page: str
    rows: list[list[str]]  # the page's differences: change, action, building, node, year,
    # cost, status, and what changed (the "Changed:" line)
    years: list[list[str]]  # the page's totals: year, before, after, difference
    total: list[str]
    exports: dict[str, list[list[str]]] = field(default_factory=dict)  # csv, xlsx: differences
    export_years: dict[str, list[list[str]]] = field(default_factory=dict)  # with the Total

    def row(self, title: str) -> list[str]:
        (found,) = [row for row in self.rows if row[1] == title]
        return found

    def export_row(self, fmt: str, title: str) -> list[str]:
        (found,) = [row for row in self.exports[fmt] if row[2] == title]
        return found


def _xlsx_text(value: Any) -> str:
    """A cell as the CSV writes it: a blank is "", a cost has two decimals."""
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.2f}"
    return str(value)


def _split(rows: list[list[str]]) -> tuple[list[list[str]], list[list[str]]]:
    """An export's differences (after the header) and its totals (their header first)."""
    blank = next(i for i, row in enumerate(rows) if not any(row))
    return rows[1:blank], rows[blank + 1 :]


def _read(
    client: Client, harbour: Harbour, version: PlanVersion | None = None, **query: Any
) -> Seen:
    version = version or harbour.version
    args = [harbour.plan.number, version.pk]
    response = client.get(reverse("planning:plan_version", args=args), query)
    assert response.status_code == 200
    page = response.content.decode()
    parser = _Tables()
    parser.feed(page)
    actions = parser.tables.get("comparison-actions", {"tbody": []})["tbody"]
    rows = []
    for cells in actions:
        status, _, what = cells[-1].partition(" | ")
        assert what.startswith("Changed: "), cells
        rows.append([*cells[:-1], status, what.removeprefix("Changed: ")])
    years = parser.tables["comparison-years"]
    seen = Seen(page, rows, years["tbody"], years["tfoot"][0])

    csv_response = client.get(reverse("planning:plan_version_export", args=[*args, "csv"]), query)
    assert csv_response.status_code == 200
    text = csv_response.getvalue().decode("utf-8-sig")
    seen.exports["csv"], seen.export_years["csv"] = _split(list(csv.reader(io.StringIO(text))))

    xlsx_response = client.get(reverse("planning:plan_version_export", args=[*args, "xlsx"]), query)
    assert xlsx_response.status_code == 200
    parts = exported_sheet(xlsx_response.getvalue())
    width = len(parts.table[0])
    sheet_rows = [[_xlsx_text(value) for value in row[:width]] for row in parts.table + parts.below]
    seen.exports["xlsx"], seen.export_years["xlsx"] = _split(sheet_rows)
    return seen


def _export(
    kind: str,
    action_id: Any,
    title: str,
    building: tuple[str, str],
    node: tuple[str, str],
    year: tuple[Any, Any],
    cost: tuple[str, str],
    status: tuple[str, str],
    what: str,
) -> list[str]:
    """An export's row of one difference: each pair is (before, after)."""
    return [
        kind,
        str(action_id),
        title,
        *building,
        *node,
        *(str(value) for value in year),
        *cost,
        *status,
        what,
    ]


def _assert_exports(seen: Seen, title: str, expected: list[str]) -> None:
    for fmt in ("csv", "xlsx"):
        assert seen.export_row(fmt, title) == expected, fmt


def _assert_totals(seen: Seen, before: str, after: str, difference: str) -> None:
    """The totals of the page ("Total" row) and of both exports."""
    assert seen.total == ["Total", before, after, difference]
    plain = [value.replace(",", "").removeprefix("+") for value in (before, after, difference)]
    for fmt in ("csv", "xlsx"):
        total = seen.export_years[fmt][-1]
        assert [total[0], *total[9:12]] == ["Total", *plain], fmt


def _year_row(seen: Seen, year: int) -> list[str]:
    (found,) = [row for row in seen.years if row[0] == str(year)]
    return found


def _logged_in(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


# --- nothing changed ----------------------------------------------------------------------


def test_the_unchanged_plan_lists_no_difference_and_equal_totals(
    client: Client, user: Any, harbour: Harbour
) -> None:
    seen = _read(_logged_in(client, user), harbour)
    assert seen.rows == [] and "No action differs." in seen.page
    _assert_totals(seen, "26,702.00", "26,702.00", "0.00")
    assert seen.exports == {"csv": [], "xlsx": []}
    north = _read(client, harbour, building=str(harbour.north.pk))
    _assert_totals(north, "20,100.00", "20,100.00", "0.00")


# --- each change ----------------------------------------------------------------------------


def test_an_added_action_is_listed_as_new_under_its_building_only(
    client: Client, user: Any, harbour: Harbour
) -> None:
    y = harbour.year
    facade = action_create(
        plan=harbour.plan,
        node=harbour.wall,
        title="Facade",
        kind="repair",
        planned_year=y + 1,
        estimated_cost=Decimal("2500"),
    )
    seen = _read(_logged_in(client, user), harbour)
    assert seen.rows == [
        ["added", "Facade", "North", "Wall", str(y + 1), "2,500.00", "Planned", "new action"]
    ]
    _assert_exports(
        seen,
        "Facade",
        _export(
            "added",
            facade.pk,
            "Facade",
            ("", "North"),
            ("", "Wall"),
            ("", y + 1),
            ("", "2500.00"),
            ("", "Planned"),
            "new action",
        ),
    )
    _assert_totals(seen, "26,702.00", "29,202.00", "+2,500.00")
    assert _year_row(seen, y + 1) == [str(y + 1), "300.00", "2,800.00", "+2,500.00"]
    assert "1 action added, 0 removed, 0 changed" in " ".join(seen.page.split()).replace(
        "<strong>", ""
    ).replace("</strong>", "")

    north = _read(client, harbour, building=str(harbour.north.pk))
    assert [row[:2] for row in north.rows] == [["added", "Facade"]]
    _assert_totals(north, "20,100.00", "22,600.00", "+2,500.00")
    south = _read(client, harbour, building=str(harbour.south.pk))
    assert south.rows == [] and south.exports == {"csv": [], "xlsx": []}
    _assert_totals(south, "6,602.00", "6,602.00", "0.00")


def test_a_deleted_action_is_listed_as_deleted(client: Client, user: Any, harbour: Harbour) -> None:
    y = harbour.year
    lift_check = harbour.actions["Lift check"]
    node_delete(node=harbour.lift)  # its action goes with it
    seen = _read(_logged_in(client, user), harbour)
    assert seen.rows == [
        ["removed", "Lift check", "South", "Lift", str(y + 4), "2,000.00", "Planned", "deleted"]
    ]
    _assert_exports(
        seen,
        "Lift check",
        _export(
            "removed",
            lift_check.pk,
            "Lift check",
            ("South", ""),
            ("Lift", ""),
            (y + 4, ""),
            ("2000.00", ""),
            ("Planned", ""),
            "deleted",
        ),
    )
    _assert_totals(seen, "26,702.00", "24,702.00", "-2,000.00")
    assert _year_row(seen, y + 4) == [str(y + 4), "2,000.00", "0.00", "-2,000.00"]

    south = _read(client, harbour, building=str(harbour.south.pk))
    assert [row[:2] for row in south.rows] == [["removed", "Lift check"]]
    _assert_totals(south, "6,602.00", "4,602.00", "-2,000.00")
    assert _read(client, harbour, building=str(harbour.north.pk)).rows == []


def test_a_cost_change_shows_both_costs_with_thousands_separators(
    client: Client, user: Any, harbour: Harbour
) -> None:
    y = harbour.year
    roof = harbour.actions["New roof"]
    _edit(roof, estimated_cost=Decimal("21500.25"))
    seen = _read(_logged_in(client, user), harbour)
    assert seen.rows == [
        [
            "changed",
            "New roof",
            "North",
            "Roof",
            str(y + 2),
            f"19,000.00 {ARROW} 21,500.25",
            "Planned",
            "estimated cost",
        ]
    ]
    _assert_exports(
        seen,
        "New roof",
        _export(
            "changed",
            roof.pk,
            "New roof",
            ("North", "North"),
            ("Roof", "Roof"),
            (y + 2, y + 2),
            ("19000.00", "21500.25"),
            ("Planned", "Planned"),
            "estimated cost",
        ),
    )
    _assert_totals(seen, "26,702.00", "29,202.25", "+2,500.25")
    north = _read(client, harbour, building=str(harbour.north.pk))
    assert [row[:2] for row in north.rows] == [["changed", "New roof"]]
    _assert_totals(north, "20,100.00", "22,600.25", "+2,500.25")
    assert _read(client, harbour, building=str(harbour.south.pk)).rows == []


def test_a_year_change_moves_the_cost_between_the_years(
    client: Client, user: Any, harbour: Harbour
) -> None:
    y = harbour.year
    roof = harbour.actions["New roof"]
    _edit(roof, planned_year=y + 5)
    seen = _read(_logged_in(client, user), harbour)
    assert seen.rows == [
        [
            "changed",
            "New roof",
            "North",
            "Roof",
            f"{y + 2} {ARROW} {y + 5}",
            "19,000.00",
            "Planned",
            "year",
        ]
    ]
    _assert_exports(
        seen,
        "New roof",
        _export(
            "changed",
            roof.pk,
            "New roof",
            ("North", "North"),
            ("Roof", "Roof"),
            (y + 2, y + 5),
            ("19000.00", "19000.00"),
            ("Planned", "Planned"),
            "year",
        ),
    )
    assert _year_row(seen, y + 2) == [str(y + 2), "19,000.00", "0.00", "-19,000.00"]
    assert _year_row(seen, y + 5) == [str(y + 5), "0.00", "19,000.00", "+19,000.00"]
    _assert_totals(seen, "26,702.00", "26,702.00", "0.00")
    for fmt in ("csv", "xlsx"):
        (moved_from,) = [row for row in seen.export_years[fmt] if row[0] == str(y + 2)]
        assert moved_from[9:12] == ["19000.00", "0.00", "-19000.00"], fmt


def test_a_node_change_within_a_building_names_both_nodes(
    client: Client, user: Any, harbour: Harbour
) -> None:
    gutters = harbour.actions["Gutters"]
    _edit(gutters, node=harbour.wall)
    seen = _read(_logged_in(client, user), harbour)
    assert seen.row("Gutters")[2:4] == ["North", f"Roof {ARROW} Wall"]
    assert seen.row("Gutters")[-1] == "node"
    assert seen.export_row("csv", "Gutters")[3:7] == ["North", "North", "Roof", "Wall"]
    assert seen.export_row("xlsx", "Gutters")[-1] == "node"
    _assert_totals(seen, "26,702.00", "26,702.00", "0.00")


def test_an_action_moved_to_another_building_reads_as_changed_under_both_buildings(
    client: Client, user: Any, harbour: Harbour
) -> None:
    """Under a building's filter the totals are that building's on each side, and an action
    moved out or in is listed as changed (node, building): the row says why the building's
    total moved. It is never "added" or "removed": it was neither created nor deleted."""
    y = harbour.year
    gutters = harbour.actions["Gutters"]
    _edit(gutters, node=harbour.boiler)
    expected_page = [
        "changed",
        "Gutters",
        f"North {ARROW} South",
        f"Roof {ARROW} Boiler",
        str(y + 1),
        "300.00",
        "Planned",
        "node, building",
    ]
    expected_export = _export(
        "changed",
        gutters.pk,
        "Gutters",
        ("North", "South"),
        ("Roof", "Boiler"),
        (y + 1, y + 1),
        ("300.00", "300.00"),
        ("Planned", "Planned"),
        "node, building",
    )
    seen = _read(_logged_in(client, user), harbour)
    assert seen.rows == [expected_page]
    _assert_exports(seen, "Gutters", expected_export)
    _assert_totals(seen, "26,702.00", "26,702.00", "0.00")

    north = _read(client, harbour, building=str(harbour.north.pk))
    assert north.rows == [expected_page]
    _assert_exports(north, "Gutters", expected_export)
    _assert_totals(north, "20,100.00", "19,800.00", "-300.00")

    south = _read(client, harbour, building=str(harbour.south.pk))
    assert south.rows == [expected_page]
    _assert_exports(south, "Gutters", expected_export)
    _assert_totals(south, "6,602.00", "6,902.00", "+300.00")


def test_actions_moved_between_buildings_are_read_by_id_in_pieces(
    client: Client, user: Any, harbour: Harbour, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The other side's states of the moved actions are read a few ids at a time: every piece
    is read (one id a read here)."""
    monkeypatch.setattr("planning.records.comparison.IDS_PER_READ", 1)
    for title in ("New roof", "Gutters", "Paint"):
        _edit(harbour.actions[title], node=harbour.boiler)
    client = _logged_in(client, user)
    for building in (harbour.north, harbour.south):
        seen = _read(client, harbour, building=str(building.pk))
        assert sorted((row[0], row[1], row[-1]) for row in seen.rows) == [
            ("changed", title, "node, building") for title in ("Gutters", "New roof", "Paint")
        ]
    north = _read(client, harbour, building=str(harbour.north.pk))
    _assert_totals(north, "20,100.00", "0.00", "-20,100.00")


def test_a_one_off_action_marked_done_shows_its_status_in_words(
    client: Client, user: Any, harbour: Harbour
) -> None:
    y = harbour.year
    paint = harbour.actions["Paint"]
    action_mark_done(action=paint, completed_on=timezone.localdate())
    seen = _read(_logged_in(client, user), harbour)
    assert seen.rows == [
        ["changed", "Paint", "North", "Wall", str(y), "800.00", f"Planned {ARROW} Done", "status"]
    ]
    _assert_exports(
        seen,
        "Paint",
        _export(
            "changed",
            paint.pk,
            "Paint",
            ("North", "North"),
            ("Wall", "Wall"),
            (y, y),
            ("800.00", "800.00"),
            ("Planned", "Done"),
            "status",
        ),
    )
    # Done work is no longer planned: it leaves the planned cost.
    _assert_totals(seen, "26,702.00", "25,902.00", "-800.00")
    north = _read(client, harbour, building=str(harbour.north.pk))
    assert [row[:2] for row in north.rows] == [["changed", "Paint"]]


def test_a_cancelled_action_shows_its_status_in_words(
    client: Client, user: Any, harbour: Harbour
) -> None:
    gutters = harbour.actions["Gutters"]
    action_cancel(action=gutters)
    seen = _read(_logged_in(client, user), harbour)
    assert seen.row("Gutters")[-2:] == [f"Planned {ARROW} Cancelled", "status"]
    for fmt in ("csv", "xlsx"):
        assert seen.export_row(fmt, "Gutters")[11:] == ["Planned", "Cancelled", "status"]
    _assert_totals(seen, "26,702.00", "26,402.00", "-300.00")


def test_a_recurring_action_marked_done_reads_as_done_not_as_a_changed_year(
    client: Client, user: Any, harbour: Harbour
) -> None:
    y = harbour.year
    service = harbour.actions["Service"]
    done_on = datetime.date(y, 1, 1)  # never after today
    action_mark_done(action=service, completed_on=done_on)
    seen = _read(_logged_in(client, user), harbour)
    assert seen.rows == [
        [
            "changed",
            "Service",
            "South",
            "Boiler",
            f"{y} {ARROW} {y + 3}",
            "1,150.50",
            f"done {done_on.isoformat()}, next {y + 3}",
            f"done {done_on.isoformat()}",
        ]
    ]
    _assert_exports(
        seen,
        "Service",
        _export(
            "changed",
            service.pk,
            "Service",
            ("South", "South"),
            ("Boiler", "Boiler"),
            (y, y + 3),
            ("1150.50", "1150.50"),
            ("Planned", "Planned"),
            f"done {done_on.isoformat()}",
        ),
    )
    # The occurrence of Y is done; Y + 3, Y + 6 and Y + 9 remain.
    assert _year_row(seen, y) == [str(y), "1,950.50", "800.00", "-1,150.50"]
    _assert_totals(seen, "26,702.00", "25,551.50", "-1,150.50")
    south = _read(client, harbour, building=str(harbour.south.pk))
    assert [row[-1] for row in south.rows] == [f"done {done_on.isoformat()}"]
    _assert_totals(south, "6,602.00", "5,451.50", "-1,150.50")
    assert _read(client, harbour, building=str(harbour.north.pk)).rows == []


def test_a_recurring_action_done_and_then_moved_says_both(
    client: Client, user: Any, harbour: Harbour
) -> None:
    y = harbour.year
    service = harbour.actions["Service"]
    action_mark_done(action=service, completed_on=timezone.localdate())
    service.refresh_from_db()
    _edit(service, planned_year=y + 4)  # not the year the completion gave it
    seen = _read(_logged_in(client, user), harbour)
    assert seen.row("Service")[-1] == f"done {timezone.localdate().isoformat()}, year"


def test_a_recurring_action_done_whose_next_year_stays_still_reads_as_done(
    client: Client, user: Any, harbour: Harbour
) -> None:
    """Planned for Y + 3 every 3 years and done in Y: Mark done gives it Y + 3 again, so no
    field differs, and the row still says it was done."""
    y = harbour.year
    service = harbour.actions["Service"]
    service.planned_year = y + 3
    service.save(update_fields=["planned_year"])
    version = plan_adopt(plan=harbour.plan, name="Service moved")
    action_mark_done(action=service, completed_on=timezone.localdate())
    service.refresh_from_db()
    assert service.planned_year == y + 3
    seen = _read(_logged_in(client, user), harbour, version)
    done = f"done {timezone.localdate().isoformat()}"
    assert seen.rows == [
        [
            "changed",
            "Service",
            "South",
            "Boiler",
            str(y + 3),
            "1,150.50",
            f"{done}, next {y + 3}",
            done,
        ]
    ]
    for fmt in ("csv", "xlsx"):
        assert seen.export_row(fmt, "Service")[-1] == done


# --- version against version --------------------------------------------------------------


def test_two_versions_compare_older_to_newer_and_later_changes_stay_out(
    client: Client, user: Any, harbour: Harbour
) -> None:
    y = harbour.year
    action_create(
        plan=harbour.plan,
        node=harbour.roof,
        title="Skylight",
        kind="replacement",
        planned_year=y + 3,
        estimated_cost=Decimal("4000"),
    )
    node_delete(node=harbour.lift)
    done_on = timezone.localdate()
    action_mark_done(action=harbour.actions["Service"], completed_on=done_on)
    second = plan_adopt(plan=harbour.plan, name="Spring")
    # After the second version: neither comparison of the two versions may show these.
    _edit(harbour.actions["New roof"], estimated_cost=Decimal("1"))
    action_mark_done(action=harbour.actions["Service"], completed_on=done_on)

    client = _logged_in(client, user)
    from_first = _read(client, harbour, against=str(second.pk))
    from_second = _read(client, harbour, second, against=str(harbour.version.pk))
    for seen in (from_first, from_second):
        assert "From version 1 “Board” to version 2 “Spring”" in seen.page
        assert [(row[0], row[1], row[-1]) for row in seen.rows] == [
            ("added", "Skylight", "new action"),
            ("removed", "Lift check", "deleted"),
            ("changed", "Service", f"done {done_on.isoformat()}"),
        ]
        # 26,702.00 + 4,000 (Skylight) - 2,000 (Lift check) - 1,150.50 (Service in Y)
        _assert_totals(seen, "26,702.00", "27,551.50", "+849.50")
        assert seen.exports["csv"][0][3:5] == ["", "North"]
        for fmt in ("csv", "xlsx"):
            assert [row[2] for row in seen.exports[fmt]] == ["Skylight", "Lift check", "Service"]
    header = from_first.export_years["csv"][0]
    assert header[9:12] == [
        "Planned cost (EUR, today's prices, version 1 “Board”)",
        "Planned cost (EUR, today's prices, version 2 “Spring”)",
        "Difference",
    ]


# --- many changes at once, and the filter's input -------------------------------------------


def test_every_kind_of_change_at_once_renders_and_exports(
    client: Client, user: Any, harbour: Harbour
) -> None:
    """The 500 of issue 36 came from a page with an added and a removed action beside changed
    ones: every kind of row on one page and in both exports."""
    y = harbour.year
    action_create(
        plan=harbour.plan,
        node=harbour.wall,
        title="Facade",
        kind="repair",
        planned_year=y + 1,
        estimated_cost=Decimal("2500"),
    )
    node_delete(node=harbour.lift)
    _edit(harbour.actions["New roof"], planned_year=y + 3, estimated_cost=Decimal("20000"))
    _edit(harbour.actions["Gutters"], node=harbour.boiler)
    action_mark_done(action=harbour.actions["Paint"], completed_on=timezone.localdate())
    action_mark_done(action=harbour.actions["Service"], completed_on=timezone.localdate())
    seen = _read(_logged_in(client, user), harbour)
    done = f"done {timezone.localdate().isoformat()}"
    expected = [
        ("added", "Facade", "new action"),
        ("removed", "Lift check", "deleted"),
        ("changed", "Paint", "status"),
        ("changed", "Gutters", "node, building"),
        ("changed", "New roof", "year, estimated cost"),
        ("changed", "Service", done),
    ]
    assert [(row[0], row[1], row[-1]) for row in seen.rows] == expected
    for fmt in ("csv", "xlsx"):
        assert [(row[0], row[2], row[-1]) for row in seen.exports[fmt]] == expected
    # + 2,500 - 2,000 + 1,000 - 800 - 1,150.50
    _assert_totals(seen, "26,702.00", "26,251.50", "-450.50")


def test_a_building_filter_that_names_no_building_is_reported_and_all_are_compared(
    client: Client, user: Any, harbour: Harbour
) -> None:
    _edit(harbour.actions["Gutters"], estimated_cost=Decimal("350"))
    seen = _read(_logged_in(client, user), harbour, building=str(harbour.roof.pk))
    assert "No building of this plan has this id" in seen.page
    assert [row[1] for row in seen.rows] == ["Gutters"]
    _assert_totals(seen, "26,702.00", "26,752.00", "+50.00")


def test_a_status_the_app_no_longer_knows_is_shown_as_the_version_stored_it(
    client: Client, user: Any, harbour: Harbour
) -> None:
    """A version is never rewritten: a status a later release renamed still renders."""
    VersionAction.objects.filter(version=harbour.version, title="Paint").update(status="deferred")
    seen = _read(_logged_in(client, user), harbour)
    assert seen.row("Paint")[-2:] == [f"deferred {ARROW} Planned", "status"]
    for fmt in ("csv", "xlsx"):
        assert seen.export_row(fmt, "Paint")[11:] == ["deferred", "Planned", "status"]


# --- a version's planned cost ---------------------------------------------------------------


def test_a_versions_planned_cost_is_the_plan_lists_figure_at_adoption_with_its_years(
    client: Client, user: Any, harbour: Harbour
) -> None:
    """Both read Y .. Y + 9 in today's prices, every live occurrence: a recurring action four
    times, one planned after Y + 9 not at all, a done one not at all."""
    y = harbour.year
    ActionFactory.create(node=harbour.roof, planned_year=y + 10, estimated_cost=Decimal("999"))
    action_mark_done(action=harbour.actions["Paint"], completed_on=timezone.localdate())
    client = _logged_in(client, user)
    parser = _Tables()
    parser.feed(client.get(reverse("planning:plan_list")).content.decode())
    (plan_row,) = [
        row
        for table in parser.tables.values()
        for row in table["tbody"]
        if row[0] == f"#{harbour.plan.number}"
    ]
    version = plan_adopt(plan=harbour.plan, name="Autumn")
    assert plan_row[4] == "25,902.00 EUR" and version.total_cost == Decimal("25902.00")

    years = f"{y}{DASH}{y + 9}"
    listed = _Tables()
    listed.feed(
        client.get(reverse("planning:plan_versions", args=[harbour.plan.number])).content.decode()
    )
    head = listed.tables["versions-table"]["thead"][0]
    assert head[-1] == "Planned cost (the ten years from adoption)"
    rows = {row[1].split(" | ")[0]: row for row in listed.tables["versions-table"]["tbody"]}
    assert rows["Autumn"][-1] == f"25,902.00 EUR | {years}, today's prices"
    assert rows["Board"][-1] == f"26,702.00 EUR | {years}, today's prices"

    seen = _read(client, harbour, version)
    assert f"planned cost 25,902.00 EUR ({years}, today's prices)" in " ".join(
        seen.page.replace("\xa0", " ").split()
    )

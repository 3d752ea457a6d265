"""Building data and a component's condition (docs/subsystems/domain.md "The tables"), and the key
figures of docs/subsystems/figures.md "Key figures": planned cost per m2 per year, maintenance debt,
debt per
m2."""

from __future__ import annotations

import csv
import datetime
import io
import json
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.figures.key_figures import building_key_figures, plan_key_figures
from planning.models import ActionStatus, NodeKind, Plan, PlanRole, StructureNode
from planning.transfer.imports.json_file import plan_import
from planning.transfer.imports.problems import ImportRejected
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db

Y = timezone.localdate().year  # the year the key figures are computed in (this year)


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(price_base_year=Y)
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    return plan


@pytest.fixture
def owner_client(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def _building(plan: Plan, name: str, area: str | None) -> StructureNode:
    return StructureNodeFactory.create(
        plan=plan,
        kind=NodeKind.BUILDING,
        name=name,
        gross_floor_area_m2=Decimal(area) if area else None,
    )


@pytest.fixture
def estate(plan: Plan) -> dict[str, Any]:
    """Two buildings with areas, one without; actions before, inside and after Y..Y+9."""
    north = _building(plan, "North", "1000")
    south = _building(plan, "South", "300")
    shed = _building(plan, "Shed", None)
    roof = StructureNodeFactory.create(plan=plan, parent=north, name="Roof")
    ActionFactory.create(node=roof, planned_year=Y - 2, estimated_cost=Decimal("500.00"))  # debt
    ActionFactory.create(node=roof, planned_year=Y + 3, estimated_cost=Decimal("12000.00"))
    ActionFactory.create(  # every 4 years: Y+1, Y+5, Y+9 in the ten years
        node=roof, planned_year=Y + 1, interval_years=4, estimated_cost=Decimal("1000.00")
    )
    ActionFactory.create(node=roof, planned_year=Y + 10, estimated_cost=Decimal("99999"))  # after
    ActionFactory.create(
        node=roof, planned_year=Y - 1, estimated_cost=Decimal("7"), status=ActionStatus.DONE
    )
    ActionFactory.create(node=south, planned_year=Y, estimated_cost=Decimal("1000.00"))
    ActionFactory.create(  # overdue recurring: its one overdue occurrence is the debt
        node=south, planned_year=Y - 3, interval_years=2, estimated_cost=Decimal("100.00")
    )
    ActionFactory.create(node=shed, planned_year=Y + 2, estimated_cost=Decimal("800.00"))
    return {"north": north, "south": south, "shed": shed}


# --- key figures ------------------------------------------------------------------------------


def test_key_figures_per_building(plan: Plan, estate: dict[str, Any]) -> None:
    figures = {f.name: f for f in plan_key_figures(plan=plan, year=Y).buildings}

    north = figures["North"]
    assert north.ten_year_cost == Decimal("15000.00")  # 12,000 + 3 x 1,000
    assert north.cost_per_m2_year == Decimal("1.50")  # 15,000 / 10 / 1,000 m2
    assert north.debt == Decimal("500.00")
    assert north.debt_per_m2 == Decimal("0.50")
    south = figures["South"]
    # 1,000 in Y, and the overdue one every 2 years from Y-3: Y+1, Y+3, ..., Y+9 (5 x 100)
    assert south.ten_year_cost == Decimal("1500.00")
    assert south.cost_per_m2_year == Decimal("0.50")
    assert south.debt == Decimal("100.00")
    assert south.debt_per_m2 == Decimal("0.33")  # 0.333... rounded half up
    shed = figures["Shed"]
    assert shed.ten_year_cost == Decimal("800.00")
    assert shed.cost_per_m2_year is None and shed.debt_per_m2 is None


def test_key_figures_of_the_plan_divide_by_the_areas_given(
    plan: Plan, estate: dict[str, Any]
) -> None:
    figures = plan_key_figures(plan=plan, year=Y)

    assert figures.plan.area == Decimal("1300")
    assert figures.buildings_with_area == 2
    assert figures.plan.ten_year_cost == Decimal("17300.00")  # the shed's cost counts too
    assert figures.plan.cost_per_m2_year == Decimal("1.33")  # 17,300 / 10 / 1,300 = 1.3307...
    assert figures.plan.debt == Decimal("600.00")
    assert figures.plan.debt_per_m2 == Decimal("0.46")  # 0.4615...


def test_one_buildings_key_figures_are_those_of_the_plans_list(
    plan: Plan, estate: dict[str, Any]
) -> None:
    listed = {f.name: f for f in plan_key_figures(plan=plan, year=Y).buildings}

    for name in ("North", "South", "Shed"):
        assert building_key_figures(node=estate[name.lower()], year=Y) == listed[name]


def test_the_node_page_of_a_building_shows_its_key_figures(
    owner_client: Client, plan: Plan, estate: dict[str, Any]
) -> None:
    html = owner_client.get(
        reverse("planning:node_detail", args=[plan.number, estate["north"].pk])
    ).content.decode()

    assert '<dd data-figure="cost-per-m2-year">1.50\u00a0EUR</dd>' in html
    assert '<dd data-figure="debt">500.00\u00a0EUR</dd>' in html


def test_the_planning_page_shows_the_plans_key_figures_and_each_buildings(
    owner_client: Client, plan: Plan, estate: dict[str, Any]
) -> None:
    html = owner_client.get(reverse("planning:action_planning", args=[plan.number])).content
    page = html.decode()

    assert f'Key figures <small class="help">{Y}\u2013{Y + 9}' in page
    assert '<dd data-figure="debt">600.00\u00a0EUR</dd>' in page
    assert "sum of the 2 buildings with a gross floor area (of 3)" in page
    per_building = owner_client.get(reverse("planning:key_figures", args=[plan.number]))
    listed = per_building.content.decode()
    assert f'data-building-id="{estate["south"].pk}"><th scope="row">' in listed
    assert '<td class="num">0.33</td>' in listed  # South's debt per m2
    assert '<th scope="row">The plan</th><td class="num">1300.00</td>' in listed


def test_the_budget_export_has_each_buildings_key_figures(
    owner_client: Client, plan: Plan, estate: dict[str, Any]
) -> None:
    response = owner_client.get(
        reverse("planning:export_budget", args=[plan.number, "csv"]),
        {"year_from": Y, "year_to": Y + 2},
    )

    rows = {row[0]: row for row in csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig")))}
    assert rows["Building"][1:5] == [
        "Gross floor area (m2)",
        f"Planned cost per m2 per year ({Y}\u2013{Y + 9}, today's prices)",
        f"Maintenance debt (planned before {Y}, today's prices)",
        "Debt per m2",
    ]
    assert rows["North"][1:5] == ["1000.00", "1.50", "500.00", "0.50"]
    assert rows["Shed"][1:5] == ["", "", "0.00", ""]
    assert rows["Total"][1:5] == ["1300.00", "1.33", "600.00", "0.46"]


# --- the forms --------------------------------------------------------------------------------


def _post(client: Client, plan: Plan, node: StructureNode, what: str, **data: str) -> Any:
    return client.post(
        reverse(f"planning:node_{what}", args=[plan.number, node.pk]),
        {f"{what}-{key}": value for key, value in data.items()},
    )


def test_a_buildings_data_is_saved_from_its_page(owner_client: Client, plan: Plan) -> None:
    house = _building(plan, "House", None)

    response = _post(
        owner_client,
        plan,
        house,
        "building",
        address="1 Quay Street",
        gross_floor_area_m2="845.5",
        year_built="1968",
    )

    assert response.status_code == 302
    house.refresh_from_db()
    assert (house.address, house.gross_floor_area_m2, house.year_built) == (
        "1 Quay Street",
        Decimal("845.5"),
        1968,
    )


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("gross_floor_area_m2", "0", "Enter a floor area above 0 m²."),
        ("gross_floor_area_m2", "-3", "Enter a floor area above 0 m²."),
        ("gross_floor_area_m2", "many", "Enter a number."),
        ("year_built", "1850", "Enter a year between 1900 and 2200."),
    ],
)
def test_bad_building_data_is_refused_with_its_message(
    owner_client: Client, plan: Plan, field: str, value: str, message: str
) -> None:
    house = _building(plan, "House", None)

    response = _post(owner_client, plan, house, "building", **{field: value})

    assert response.status_code == 200
    assert message in response.content.decode()


def test_building_data_on_a_component_is_refused(owner_client: Client, plan: Plan) -> None:
    pump = StructureNodeFactory.create(plan=plan, name="Pump")

    response = _post(owner_client, plan, pump, "building", gross_floor_area_m2="10")

    assert response.status_code == 200
    assert (
        "Only a building has a gross floor area (m²); clear it for a component node."
        in response.content.decode()
    )
    pump.refresh_from_db()
    assert pump.gross_floor_area_m2 is None


def test_a_components_condition_is_saved_and_shown(owner_client: Client, plan: Plan) -> None:
    pump = StructureNodeFactory.create(plan=plan, name="Pump")

    _post(
        owner_client,
        plan,
        pump,
        "condition",
        condition_grade="2",
        condition_assessed_on="2026-05-04",
    )

    pump.refresh_from_db()
    assert (pump.condition_grade, pump.condition_assessed_on) == (2, datetime.date(2026, 5, 4))
    page = owner_client.get(reverse("planning:node_detail", args=[plan.number, pump.pk]))
    assert "2: moderate symptoms</strong>, assessed on 2026-05-04" in page.content.decode()


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"condition_grade": "4"}, "Enter a condition grade from 0 to 3."),
        ({"condition_assessed_on": "2026-02-30"}, "Enter a valid date."),
    ],
)
def test_a_bad_condition_is_refused(
    owner_client: Client, plan: Plan, data: dict[str, str], message: str
) -> None:
    pump = StructureNodeFactory.create(plan=plan, name="Pump")

    response = _post(owner_client, plan, pump, "condition", **data)

    assert response.status_code == 200 and message in response.content.decode()


def test_a_building_with_data_cannot_silently_become_a_system(
    owner_client: Client, plan: Plan
) -> None:
    house = _building(plan, "House", "100")

    response = owner_client.post(
        reverse("planning:node_details", args=[plan.number, house.pk]),
        {
            "details-kind": "system",
            "details-quantity": "",
            "details-unit": "",
            "details-install_year": "",
        },
    )

    assert response.status_code == 200
    assert "Only a building has a gross floor area (m²); clear it for a system node." in (
        response.content.decode()
    )
    house.refresh_from_db()
    assert house.kind == NodeKind.BUILDING


# --- import -----------------------------------------------------------------------------------


def _document(**node: Any) -> bytes:
    return json.dumps(
        {
            "name": "Harbour",
            "nodes": [
                {"ref": "B", "name": "Warehouse", "kind": "building"},
                {"ref": "C", "parent_ref": "B", "name": "Door", "kind": "component"},
                node,
            ],
        }
    ).encode()


def test_building_data_and_condition_are_imported(user: Any) -> None:
    content = json.dumps(
        {
            "name": "Harbour",
            "nodes": [
                {
                    "ref": "B",
                    "name": "Warehouse",
                    "kind": "building",
                    "address": "Pier 4",
                    "gross_floor_area_m2": "1200.50",
                    "year_built": 1971,
                },
                {
                    "ref": "C",
                    "parent_ref": "B",
                    "name": "Door",
                    "kind": "component",
                    "condition_grade": 3,
                    "condition_assessed_on": "2025-11-02",
                },
            ],
        }
    ).encode()

    plan = plan_import(owner=user, content=content, filename="plan.json")

    building = plan.nodes.get(name="Warehouse")
    door = plan.nodes.get(name="Door")
    assert (building.address, building.gross_floor_area_m2, building.year_built) == (
        "Pier 4",
        Decimal("1200.50"),
        1971,
    )
    assert (door.condition_grade, door.condition_assessed_on) == (3, datetime.date(2025, 11, 2))


@pytest.mark.parametrize(
    ("node", "problem"),
    [
        (
            {"ref": "X", "name": "X", "kind": "building", "gross_floor_area_m2": 0},
            'node 3 (ref "X"): gross_floor_area_m2: Enter a floor area above 0 m².',
        ),
        (
            {"ref": "X", "name": "X", "kind": "component", "condition_grade": 5},
            'node 3 (ref "X"): condition_grade: Enter a condition grade from 0 to 3.',
        ),
        (
            {"ref": "X", "name": "X", "kind": "component", "condition_assessed_on": "2025-13-01"},
            'node 3 (ref "X"): condition_assessed_on: '
            'must be a date as YYYY-MM-DD, got "2025-13-01"',
        ),
        (
            {"ref": "X", "name": "X", "kind": "system", "address": "Pier 4"},
            'node 3 (ref "X"): address: '
            "Only a building has an address; clear it for a system node.",
        ),
    ],
)
def test_bad_building_data_in_a_file_is_a_listed_problem(
    user: Any, node: dict[str, Any], problem: str
) -> None:
    with pytest.raises(ImportRejected) as rejected:
        plan_import(owner=user, content=_document(**node), filename="plan.json")

    assert [str(p) for p in rejected.value.problems] == [problem]

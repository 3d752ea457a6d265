"""The budget workbook as it is forwarded (docs/subsystems/exports.md "Title block"), read back
with openpyxl: a title block that says what it is, a sheet per price basis, a table whose
autofilter holds the buildings and nothing else, and below it each site's subtotal and the
total, all from planning.figures."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.models import NodeKind, Plan, PlanRole
from tests.factories import (
    ActionFactory,
    OrganisationFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)
from tests.planning.workbooks import exported_sheet, workbook_sheets

pytestmark = pytest.mark.django_db

YEARS = {"year_from": 2027, "year_to": 2029}


@pytest.fixture
def estate(user: Any) -> Plan:
    """Two sites (three buildings), a depot on no site, and a cost outside every building;
    nominal is today's prices plus 10 % overhead (no index)."""
    plan = PlanFactory.create(
        name="Harbour estate",
        organisation=OrganisationFactory.create(name="Harbour Co-op"),
        price_base_year=2026,
        markups=[{"name": "Overhead", "percent": "10.00"}],
        overhead_percent=Decimal("10"),
    )
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    costs = {
        ("North campus", "Library"): [(2027, "1000.00"), (2029, "500.00")],
        ("North campus", "Science block 10"): [(2028, "200.00")],
        ("North campus", "Science block 2"): [(2027, "300.00")],
        ("Harbour quarter", "Block A"): [(2028, "4000.00")],
        (None, "Depot"): [(2029, "50.00")],
    }
    sites: dict[str, Any] = {}
    for (site_name, building_name), actions in costs.items():
        parent = None
        if site_name is not None:
            parent = sites.get(site_name) or StructureNodeFactory.create(
                plan=plan, kind=NodeKind.SITE, name=site_name
            )
            sites[site_name] = parent
        building = StructureNodeFactory.create(
            plan=plan, parent=parent, kind=NodeKind.BUILDING, name=building_name
        )
        roof = StructureNodeFactory.create(plan=plan, parent=building, name="Roof")
        for year, cost in actions:
            ActionFactory.create(node=roof, planned_year=year, estimated_cost=Decimal(cost))
    ActionFactory.create(
        node=sites["North campus"], planned_year=2028, estimated_cost=Decimal("7.00")
    )
    return plan


def _workbook(client: Client, user: Any, plan: Plan) -> bytes:
    client.force_login(user)
    response = client.get(reverse("planning:export_budget", args=[plan.number, "xlsx"]), YEARS)
    assert response.status_code == 200
    return response.getvalue()


def test_the_budget_workbook_has_a_title_block_and_a_sheet_per_price_basis(
    client: Client, user: Any, estate: Plan
) -> None:
    content = _workbook(client, user, estate)

    assert list(workbook_sheets(content)) == ["Today's prices", "Nominal"]
    today = exported_sheet(content, "Today's prices")
    assert today.title == "Budget per building and year, 2027\u20132029, today's prices"
    assert today.facts == {
        "Plan": f"#{estate.number} Harbour estate",
        "Organisation": "Harbour Co-op",
        "Date": datetime.datetime.combine(timezone.localdate(), datetime.time()),
        "Prices": "today's prices",
        "Currency": "EUR",
        "Years": "2027\u20132029",
    }
    nominal = exported_sheet(content, "Nominal")
    assert nominal.title.endswith("nominal: 2026 prices, no index, overhead 10\xa0%")
    assert nominal.facts["Prices"] == "nominal: 2026 prices, no index, overhead 10\xa0%"
    # the key figures are in today's prices: on that sheet only
    assert today.table[0][:3] == ["Site", "Building", "Gross floor area (m2)"]
    assert nominal.table[0] == [
        "Site",
        "Building",
        2027,
        2028,
        2029,
        "Total 2027\u20132029 (EUR, nominal: 2026 prices, no index, overhead 10\xa0%)",
    ]


def test_the_autofilter_holds_the_buildings_and_the_totals_sit_below(
    client: Client, user: Any, estate: Plan
) -> None:
    content = _workbook(client, user, estate)

    for name, columns in (("Today's prices", "L"), ("Nominal", "F")):
        sheet = exported_sheet(content, name)
        first = sheet.table_first_row
        # the header and six rows (five buildings and the cost outside them), nothing more
        assert sheet.filter_ref == f"A{first}:{columns}{first + 6}"
        assert sheet.sheet.freeze_panes == f"A{first + 1}"
        # by site, natural order, the buildings without a site and then no building last
        assert [row[:2] for row in sheet.table[1:]] == [
            ["Harbour quarter", "Block A"],
            ["North campus", "Library"],
            ["North campus", "Science block 2"],
            ["North campus", "Science block 10"],
            [None, "Depot"],
            [None, "(no building)"],
        ]
        total = sheet.sheet.cell(first + len(sheet.table) + len(sheet.below) - 1, 1)
        assert (total.value, total.font.b) == ("Total", True)


def test_the_site_subtotals_are_the_sums_of_their_buildings(
    client: Client, user: Any, estate: Plan
) -> None:
    content = _workbook(client, user, estate)

    today = exported_sheet(content, "Today's prices")
    # the site, the subtotal, then 2027, 2028, 2029 and the total
    assert [[*row[:2], *row[8:]] for row in today.below] == [
        [None] * 6,
        ["Harbour quarter", "Subtotal, 1 building", 0, 4000, 0, 4000],
        ["North campus", "Subtotal, 3 buildings", 1300, 200, 500, 2000],
        ["Buildings without a site", "Subtotal, 1 building", 0, 0, 50, 50],
        ["Total", None, 1300, 4207, 550, 6057],
    ]
    nominal = exported_sheet(content, "Nominal")
    assert [row[2:] for row in nominal.below[1:]] == [
        [0, 4400, 0, 4400],
        [1430, 220, 550, 2200],
        [0, 0, 55, 55],
        [1430, 4627.7, 605, 6662.7],
    ]
    total_row = next(today.sheet.iter_rows(min_row=today.sheet.max_row))
    assert all(cell.font.b for cell in total_row if cell.value is not None)
    assert total_row[-1].number_format == "#,##0.00"

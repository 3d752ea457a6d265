"""The organisation's portfolio in headless Chromium at 1366 and 390 px, as a member uses it:
opens it from the organisation's tabs, reads each plan's figures and the totals, filters by
name, sorts by the FCI, downloads the CSV; nothing scrolls sideways and axe finds no serious or
critical violation."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from organisations.models import OrganisationRole
from planning.models import NodeKind
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    OrganisationFactory,
    OrganisationMembershipFactory,
    PlanFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _axe_problems(page: Any) -> list[str]:
    """Serious and critical axe violations of the page (as tests/test_accessibility.py)."""
    from axe_playwright_python.sync_playwright import Axe

    return [
        f"{violation['id']} ({violation['impact']})"
        for violation in Axe().run(page).response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("width", [1366, 390])
def test_a_member_reads_filters_and_sorts_the_portfolio(
    new_page: Any, user: Any, width: int, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    year = timezone.localdate().year
    organisation = OrganisationFactory.create(name="Riverside co-op", slug="riverside")
    OrganisationMembershipFactory.create(
        organisation=organisation, user=user, role=OrganisationRole.VIEWER
    )
    for name, debt in (("Block 2", "2000.00"), ("Block 10", "35000.00"), ("Annex", "0")):
        plan = PlanFactory.create(organisation=organisation, name=name, price_base_year=year)
        house = StructureNodeFactory.create(
            plan=plan,
            kind=NodeKind.BUILDING,
            name="House",
            gross_floor_area_m2=Decimal("100"),
            replacement_value=Decimal("100000"),
        )
        ActionFactory.create(node=house, planned_year=year + 1, estimated_cost=Decimal("500"))
        if Decimal(debt):
            ActionFactory.create(node=house, planned_year=year - 1, estimated_cost=Decimal(debt))
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto("/organisations/riverside/")
    page.get_by_role("link", name="Portfolio", exact=True).click()
    expect(page.get_by_role("heading", name="Portfolio")).to_contain_text(
        f"{year}\u2013{year + 9}, today's prices"
    )
    table = page.locator("#portfolio-table")
    expect(table.locator("tbody tr")).to_have_count(3)
    block_10 = table.locator("tbody tr", has_text="Block 10")
    expect(block_10.locator('[data-figure="debt"]')).to_have_text("35,000.00 EUR")
    expect(block_10.locator('[data-figure="fci"]')).to_contain_text("35.00 % critical")
    total = table.locator('tfoot tr[data-total="EUR"]')
    expect(total).to_contain_text("Total, 3 plans in EUR")
    expect(total.locator('[data-figure="cost"]')).to_have_text("1,500.00 EUR")
    assert _axe_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.get_by_label("Plan name contains").fill("block")
    page.get_by_role("button", name="Filter").click()
    expect(table.locator("tbody tr")).to_have_count(2)
    expect(total).to_contain_text("Total, 2 plans in EUR")
    expect(total.locator('[data-figure="debt"]')).to_have_text("37,000.00 EUR")

    page.get_by_role("link", name="FCI", exact=True).click()  # the highest first
    rows = table.locator("tbody tr th")
    expect(rows).to_have_count(2)  # the filter is kept
    expect(rows.nth(0)).to_contain_text("Block 10")
    expect(rows.nth(1)).to_contain_text("Block 2")
    expect(page.locator('th[aria-sort="descending"]')).to_contain_text("FCI")
    assert _axe_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    with page.expect_download() as download:
        page.get_by_role("link", name="CSV").click()
    path = tmp_path / "portfolio.csv"
    download.value.save_as(path)
    rows_read = list(csv.reader(io.StringIO(path.read_text(encoding="utf-8-sig"))))
    assert [row[1] for row in rows_read[1:]] == ["Block 10", "Block 2", "Total, 2 plans"]

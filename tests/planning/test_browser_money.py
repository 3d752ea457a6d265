"""Money in headless Chromium at 1366 px: change the plan's prices through the Settings form (a
bad value first), then switch the planning page between today's and nominal prices."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from planning.models import NodeKind, Plan, PlanRole
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_change_the_prices_and_switch_the_planning_page_to_nominal(
    new_page: Any, user: Any
) -> None:
    from playwright.sync_api import expect

    plan = PlanFactory.create(name="Town hall", price_base_year=2026)
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Town hall")
    ActionFactory.create(node=house, planned_year=2028, estimated_cost=Decimal("1000.00"))
    page = new_page(viewport={"width": 1366, "height": 900})
    browser_login(page, user.email)

    page.goto(f"/plans/{plan.number}/settings/")
    page.fill("#id_money-index_rate_percent", "60")
    page.fill("#id_money-markup_1_name", "Overhead")
    page.fill("#id_money-markup_1_percent", "10")
    page.click("#plan-money button[type=submit]")
    expect(page.locator("#plan-money")).to_contain_text("Enter a percentage between -10 and 50.")
    page.fill("#id_money-index_rate_percent", "5")
    page.fill("#id_money-annual_budget", "900")
    page.click("#plan-money button[type=submit]")
    expect(page.get_by_text("Prices and budget saved.")).to_be_visible()
    plan.refresh_from_db()
    assert (plan.index_rate_percent, plan.overhead_percent) == (Decimal("5"), Decimal("10"))

    page.goto(f"/plans/{plan.number}/planning/?year_from=2026&year_to=2030")
    expect(page.locator("#prices-unit")).to_contain_text("today's prices")
    expect(page.locator("#grand-total")).to_have_text("1,000")
    expect(page.locator("#budget-cap")).to_contain_text("Above it in 1 year: 2028")
    page.get_by_role("link", name="Nominal").click()
    # 1000 x 1.05^2 x 1.1 = 1,212.75, in whole euros in the grid
    expect(page.locator("#grand-total")).to_have_text("1,213")
    expect(page.locator("#prices-unit")).to_contain_text(
        "nominal: 2026 prices indexed 5\u00a0% a year, overhead 10\u00a0%"
    )
    expect(page.locator("#prices-switch a[aria-current=true]")).to_have_text("Nominal")
    # another range keeps the prices
    page.fill("#id_year_to", "2029")
    page.click("#year-range button[type=submit]")
    expect(page.locator("#grand-total")).to_have_text("1,213")
    assert "prices=nominal" in page.url
    # the building's rows come in the same prices
    page.get_by_role("button", name="Show the nodes of Town hall").click()
    expect(page.locator("#planning-grid .node-row").first).to_contain_text("1,213")
    assert page.evaluate("document.documentElement.scrollWidth") <= 1366
    assert Plan.objects.get(pk=plan.pk).annual_budget == Decimal("900")

"""The Funding tab in headless Chromium at 1366 and 390 px: an editor opens it from the plan,
types the fund's settings and saves, reads the yearly table, the lowest balance and the goals,
adds a scenario solved for a goal and finds it compared; nothing scrolls sideways and axe finds
no serious or critical violation."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from planning.models import ActionKind, Fund, FundingScenario, PlanRole
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)
from tests.planning.test_browser_version_comparison import _axe_problems

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_an_editor_sets_up_the_fund_and_compares_a_scenario(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    plan = PlanFactory.create(name="Harbour flats", price_base_year=2026, currency="EUR")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    code = CodeFactory.create(service_life_years=30)
    for year, cost in ((2029, "60000"), (2034, "150000")):
        roof = StructureNodeFactory.create(plan=plan, code=code, install_year=2000, name="Roof")
        ActionFactory.create(
            node=roof, kind=ActionKind.REPLACEMENT, planned_year=year, estimated_cost=Decimal(cost)
        )
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto(f"/plans/{plan.number}/")
    page.get_by_role("link", name="Funding", exact=True).click()
    expect(page.get_by_text("This plan has no fund yet.")).to_be_visible()
    form = page.locator("#fund-form")
    form.get_by_label("Opening balance").fill("20000")
    form.get_by_label("Start year").fill("2026")
    form.get_by_label("Interest (% a year)").fill("1.5")
    form.get_by_label("Contribution in the first year").fill("12000")
    form.get_by_label("Yearly increase of the contribution (%)").fill("2")
    form.get_by_label("Horizon (years)").fill("20")
    form.get_by_role("button", name="Save fund").click()

    expect(page.get_by_text("Fund saved.")).to_be_visible()
    fund = Fund.objects.get(plan=plan)
    assert (fund.contribution, fund.horizon_years) == (Decimal("12000.00"), 20)
    expect(page.locator("#fund-years tbody tr")).to_have_count(20)
    expect(page.locator("#fund-wording")).to_contain_text("2026\u20132045")
    expect(page.locator("#fund-lowest")).to_contain_text("at the end of")
    expect(page.locator("#fund-goals")).to_contain_text("Baseline: the balance never below zero")
    expect(page.locator("#fund-chart svg")).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert _axe_problems(page) == []

    page.locator("#scenario-new summary").click()
    scenario = page.locator("#scenario-form")
    scenario.get_by_label("Name").fill("Just enough")
    scenario.get_by_label("Or solve the contribution for a goal").select_option("baseline")
    scenario.get_by_role("button", name="Add scenario").click()

    expect(page.get_by_text("Scenario “Just enough” added.")).to_be_visible()
    assert FundingScenario.objects.get(plan=plan).goal == "baseline"
    comparison = page.locator("#scenario-comparison")
    expect(comparison).to_contain_text("Just enough")
    expect(comparison).to_contain_text("Percent funded, year 10")
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert _axe_problems(page) == []

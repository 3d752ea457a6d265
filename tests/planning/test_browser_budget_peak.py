"""A budget peak's one-click move in headless Chromium: the planner presses the card's button,
lands back on the planning page with the confirmation and its Undo, and Undo puts the action
back (at 1366 and 390 px)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from planning.models import Action, NodeKind, PlanRole
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_a_planner_moves_a_peak_years_repair_and_undoes_it(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    year = timezone.now().year + 1
    plan = PlanFactory.create(name="Harbour flats", annual_budget=Decimal("1000.00"))
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Block A")
    roof = ActionFactory.create(
        plan=plan,
        node=house,
        title="Roof repair",
        kind="repair",
        planned_year=year,
        estimated_cost=Decimal("800"),
    )
    ActionFactory.create(
        plan=plan, node=house, kind="inspection", planned_year=year, estimated_cost=Decimal("400")
    )
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto(f"/plans/{plan.number}/planning/")
    card = page.locator('article.suggestion[data-type="budget_peak"]')
    expect(card).to_contain_text(f"Planned costs in {year} exceed the annual budget by 200.00")
    card.get_by_role("button", name=f"Apply: move 1 action to {year + 1}").click()

    expect(page.get_by_text(f"1 action moved from {year} to {year + 1}.")).to_be_visible()
    assert Action.objects.get(pk=roof.pk).planned_year == year + 1
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    page.get_by_role("button", name="Undo").click()

    expect(page.get_by_text(f"1 action back in {year}.")).to_be_visible()
    assert Action.objects.get(pk=roof.pk).planned_year == year

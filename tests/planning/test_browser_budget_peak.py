"""A budget peak's one-click move in headless Chromium: the planner presses the card's button,
lands back on the planning page with the confirmation, which names every action moved and its
building (two buildings share a name here, so each is named with its site), and its Undo puts
the actions back and names them again (at 1366 and 390 px)."""

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
def test_a_planner_moves_a_peak_years_actions_reads_which_and_undoes_it(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    year = timezone.now().year + 1
    plan = PlanFactory.create(name="Harbour flats", annual_budget=Decimal("1000.00"))
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    north, south = (
        StructureNodeFactory.create(
            plan=plan,
            kind=NodeKind.BUILDING,
            name="House 3",
            parent=StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name=site),
        )
        for site in ("Block A", "Block B")
    )
    moving = [
        ActionFactory.create(
            plan=plan,
            node=north,
            title="Replace roof",
            kind="replacement",
            planned_year=year,
            estimated_cost=Decimal("500"),
        ),
        ActionFactory.create(
            plan=plan,
            node=south,
            title="Paint facade",
            kind="repair",
            planned_year=year,
            estimated_cost=Decimal("400"),
        ),
    ]
    ActionFactory.create(
        plan=plan, node=north, kind="inspection", planned_year=year, estimated_cost=Decimal("900")
    )
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto(f"/plans/{plan.number}/planning/")
    card = page.locator('article.suggestion[data-type="budget_peak"]')
    expect(card).to_contain_text(f"Planned costs in {year} exceed the annual budget by 800.00")
    expect(card).to_contain_text("the most of it is in House 3 (Block A).")
    card.get_by_role("button", name=f"Apply: move 2 actions to {year + 1}").click()

    moved = page.get_by_role("status").filter(
        has_text=(
            f"Moved 2 actions to {year + 1}: “Replace roof” in House 3 (Block A), "
            "“Paint facade” in House 3 (Block B)."
        )
    )
    expect(moved).to_be_in_viewport()
    assert [Action.objects.get(pk=a.pk).planned_year for a in moving] == [year + 1] * 2
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    moved.get_by_role("button", name="Undo").click()

    back = page.get_by_role("status").filter(
        has_text=(
            f"Moved 2 actions back to {year}: “Replace roof” in House 3 (Block A), "
            "“Paint facade” in House 3 (Block B)."
        )
    )
    expect(back).to_be_in_viewport()
    assert [Action.objects.get(pk=a.pk).planned_year for a in moving] == [year] * 2
    assert page.evaluate("document.documentElement.scrollWidth") <= width

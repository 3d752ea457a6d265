"""Where the confirmation of a card's button shows (issue 26 point 2): after a fix, a dismissal
or their Undo the page lands on the card that takes the place of the one gone, and the message
must be in view there, at 1366 and at 390 px, not at the top of a long page."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from planning.models import ActionKind, NodeKind, Plan, PlanRole, Suggestion
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _plan_with_deviations(user: Any, count: int = 12) -> Plan:
    """`count` cost deviations, one a roof: the reference is 1,000.00, each costs three times."""
    plan = PlanFactory.create(name="Harbour house")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    code = CodeFactory.create(name="Roof membrane", keywords="membrane", unit_cost=Decimal("100"))
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House A")
    for i in range(count):
        roof = StructureNodeFactory.create(
            plan=plan, parent=building, name=f"Roof {i:02d}", code=code, quantity=Decimal("10")
        )
        ActionFactory.create(
            node=roof,
            planned_year=2030,
            kind=ActionKind.REPLACEMENT,
            estimated_cost=Decimal("3000.00"),
            title=f"Replace roof {i:02d}",
        )
    return plan


@pytest.mark.parametrize("width", [1366, 390])
def test_fix_dismiss_and_undo_confirm_in_view(new_page: Any, user: Any, width: int) -> None:
    from playwright.sync_api import expect

    plan = _plan_with_deviations(user)
    page = new_page(viewport={"width": width, "height": 800})
    browser_login(page, user.email)
    planning = f"/plans/{plan.number}/planning/"
    page.goto(planning)
    cards = page.locator("article.suggestion")
    expect(cards).to_have_count(13)  # and one grouping of the twelve

    # a fix far down the list: its confirmation is beside the next card, in view, with an Undo
    card = cards.nth(8)
    fixed_id = card.get_attribute("data-suggestion-id")
    card.get_by_role("button", name="Set cost to reference").click()
    message = page.get_by_role("status").filter(has_text="now costs 1,000.00\xa0EUR")
    expect(message).to_be_in_viewport()
    fixed = Suggestion.objects.get(pk=fixed_id)
    action_id = fixed.recommended_action_json["action_ids"][0]
    assert fixed.status == "resolved"
    assert plan.actions.get(pk=action_id).estimated_cost == Decimal("1000.00")

    # its Undo puts the cost back and the suggestion in its place, and says so in view
    message.get_by_role("button", name="Undo").click()
    undone = page.get_by_role("status").filter(has_text="Fix undone")
    expect(undone).to_be_in_viewport()
    expect(page.locator(f"#suggestion-{fixed_id}")).to_be_in_viewport()
    assert plan.actions.get(pk=action_id).estimated_cost == Decimal("3000.00")
    assert Suggestion.objects.get(pk=fixed_id).status == "open"

    # a dismissal far down: in view too, and its Undo restores the suggestion
    card = page.locator("article.suggestion").nth(10)
    dismissed_id = card.get_attribute("data-suggestion-id")
    card.locator("summary").click()
    card.locator("select[name=reason]").select_option("accepted")
    card.get_by_role("button", name="Dismiss", exact=True).click()
    message = page.get_by_role("status").filter(has_text="Dismissed:")
    expect(message).to_be_in_viewport()
    assert Suggestion.objects.get(pk=dismissed_id).status == "dismissed"
    message.get_by_role("button", name="Undo").click()
    expect(page.get_by_role("status").filter(has_text="Restored")).to_be_in_viewport()
    assert Suggestion.objects.get(pk=dismissed_id).status == "open"

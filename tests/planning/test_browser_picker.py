"""The node picker in headless Chromium: text typed but not picked is not dropped silently (the
form is not sent and the picker says why); typing a listed name exactly picks it; a picked node
filters the Actions tab."""

from __future__ import annotations

from typing import Any

import pytest

from planning.models import NodeKind, PlanRole
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_text_that_names_no_node_is_not_dropped(new_page: Any, user: Any, width: int) -> None:
    from playwright.sync_api import expect

    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Town hall")
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    ActionFactory.create(node=roof, title="New roof")
    ActionFactory.create(node=house, title="Paint the hall")
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)
    page.goto(f"/plans/{plan.number}/actions/")

    picker = page.get_by_label("Node (with its subtree)")
    picker.fill("Garage")
    page.locator("#action-filters").get_by_role("button", name="Filter").click()
    expect(page.get_by_role("alert")).to_contain_text("“Garage” is no node you picked")
    assert "node=" not in page.url  # not sent: nothing filtered silently

    picker.fill("roof")  # a listed name typed exactly, case aside
    expect(page.get_by_role("option", name="Roof")).to_be_visible()
    page.get_by_role("heading", name="Actions", exact=True).click()  # away: the list closes
    expect(page.get_by_role("option", name="Roof")).to_be_hidden()
    page.locator("#action-filters").get_by_role("button", name="Filter").click()
    page.wait_for_url(f"**node={roof.pk}**")
    expect(page.locator("#actions-table")).to_contain_text("New roof")
    expect(page.locator("#actions-table")).not_to_contain_text("Paint the hall")

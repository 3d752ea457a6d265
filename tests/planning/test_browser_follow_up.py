"""Mark done in headless Chromium: an editor opens Mark done in an action's row, gives the
completion date and the actual cost as a person would, lands back on the row, and finds the
figures on the Follow-up tab."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.utils import timezone

from planning.models import Completion, NodeKind, PlanRole
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_an_editor_records_work_done_with_its_cost(new_page: Any, user: Any, width: int) -> None:
    from playwright.sync_api import expect

    this_year = timezone.localdate().year
    plan = PlanFactory.create(name="Town hall")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    hall = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Town hall")
    action = ActionFactory.create(
        node=hall, title="Paint windows", planned_year=this_year, estimated_cost=Decimal("800")
    )
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto(f"/plans/{plan.number}/actions/")
    row = page.locator(f"#action-{action.pk}")
    row.get_by_text("Mark done").click()
    date_input = row.get_by_label("Completed on")
    expect(date_input).to_have_value(timezone.localdate().isoformat())  # today, ready to send
    row.get_by_label("Actual cost").fill("950")
    row.get_by_role("button", name="Record as done").click()

    expect(page.get_by_text("Action “Paint windows” marked done.")).to_be_visible()
    assert page.url.endswith(f"#action-{action.pk}")
    expect(page.locator(f"#action-{action.pk} td.actual")).to_contain_text("950.00")
    assert Completion.objects.get(action=action).actual_cost == Decimal("950.00")
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.get_by_role("link", name="Follow-up", exact=True).click()
    expect(page.locator("#follow-up-years-table tfoot")).to_contain_text("+150.00")

"""Changing several rows at once in Chromium, as a person does it at 1366 and 390 px: every
open deviation of the planning page, beyond its first page, is dismissed and its one Undo
brings them all back; every action of the Actions tab's filter moves to a year and back. The
forms must be ones a browser sends (no required control a person cannot fill)."""

from __future__ import annotations

from typing import Any

import pytest

from planning.models import ActionKind, PlanRole, Suggestion
from tests.conftest import browser_login
from tests.planning.test_bulk import plan_with_roofs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_select_every_match_dismiss_and_undo_then_move_every_action(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    plan = plan_with_roofs(user, 55, role=PlanRole.OWNER)  # 55 deviations: three pages of 24
    deviations = Suggestion.objects.filter(plan=plan, suggestion_type="deviation")
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)
    page.goto(f"/plans/{plan.number}/planning/?suggestion_type=deviation#suggestions")
    expect(page.locator("article.suggestion")).to_have_count(24)

    # nothing ticked: said plainly, nothing dismissed
    form = page.locator("#bulk-dismiss")
    form.locator("summary").click()
    form.get_by_role("button", name="Dismiss").click()
    expect(page.get_by_role("status").filter(has_text="Tick the suggestions")).to_be_visible()
    assert deviations.filter(status="open").count() == 55

    # every match, on every page
    form = page.locator("#bulk-dismiss")
    form.locator("summary").click()
    form.get_by_label("All 55 that match these filters, on every page").check()
    form.locator("select[name=reason]").select_option("planned_elsewhere")
    form.get_by_role("button", name="Dismiss").click()
    message = page.get_by_role("status").filter(has_text="Dismissed 55 suggestions.")
    expect(message).to_be_in_viewport()
    assert deviations.filter(status="open").count() == 0
    expect(page.locator("article.suggestion")).to_have_count(0)

    # one Undo brings them all back
    message.get_by_role("button", name="Undo").click()
    expect(page.get_by_role("status").filter(has_text="Restored 55 suggestions")).to_be_visible()
    assert deviations.filter(status="open").count() == 55
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    # the Actions tab: every replacement (two pages of 50) to 2034, and back
    page.goto(f"/plans/{plan.number}/actions/?kind=replacement")
    form = page.locator("#bulk-actions")
    form.locator("summary").click()
    form.get_by_label("All 55 that match these filters, on every page").check()
    form.get_by_label("The year to move them to").fill("2034")
    form.get_by_role("button", name="Change these actions").click()
    message = page.get_by_role("status").filter(has_text="Moved 55 actions to 2034.")
    expect(message).to_be_visible()
    replacements = plan.actions.filter(kind=ActionKind.REPLACEMENT)
    assert set(replacements.values_list("planned_year", flat=True)) == {2034}
    assert set(
        plan.actions.exclude(kind=ActionKind.REPLACEMENT).values_list("planned_year", flat=True)
    ) == {2031}
    message.get_by_role("button", name="Undo").click()
    expect(page.get_by_role("status").filter(has_text="55 actions back")).to_be_visible()
    assert set(replacements.values_list("planned_year", flat=True)) == {2030}
    assert page.evaluate("document.documentElement.scrollWidth") <= width

"""The account pages in headless Chromium."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import expect

from tests.conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_register_shows_errors_then_logs_in_and_out(page):
    page.goto("/accounts/register/")
    page.fill("input[name=email]", "grace@example.com")
    page.fill("input[name=name]", "Grace")
    page.fill("input[name=password]", "12345678")
    page.click("button[type=submit]")

    expect(page.locator(".error").filter(has_text="This password is too common.")).to_be_visible()

    page.fill("input[name=password]", "plum-orchard-ladder-77")
    page.click("button[type=submit]")
    page.wait_for_url("**/plans/")

    expect(page.get_by_text("Welcome to Maintplan")).to_be_visible()
    assert get_user_model().objects.filter(email="grace@example.com").exists()

    page.get_by_role("button", name="Log out").click()
    page.wait_for_url("**/accounts/login/")
    expect(page.get_by_text("You have been logged out.")).to_be_visible()


def test_login_with_wrong_password_then_right_one(page, user):
    page.goto("/accounts/login/")
    page.fill("input[name=email]", user.email)
    page.fill("input[name=password]", "not-the-password")
    page.click("button[type=submit]")

    expect(page.get_by_role("alert").filter(has_text="not correct")).to_be_visible()

    browser_login(page, user.email)
    assert page.locator(".who").inner_text() == user.name


def test_password_reset_by_email_in_the_browser(page, user):
    import re

    from django.core import mail

    page.goto("/accounts/login/")
    page.click("text=Forgot your password?")
    page.fill("input[name=email]", user.email)
    page.click("button:has-text('Send the link')")
    expect(page.locator("h1")).to_have_text("Check your email")

    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", str(mail.outbox[-1].body))
    assert link is not None
    page.goto(link.group(1))
    page.fill("input[name=new_password1]", "quince-harbour-lantern-42")
    page.fill("input[name=new_password2]", "quince-harbour-lantern-42")
    page.click("button:has-text('Set the password')")
    expect(page.locator("h1")).to_have_text("Your password was changed")

    browser_login(page, user.email, "quince-harbour-lantern-42")
    expect(page.locator("h1")).to_have_text("Your plans")


def test_undo_of_a_cancel_restores_the_action(page, user):
    from tests.factories import ActionFactory, PlanMembershipFactory, StructureNodeFactory

    membership = PlanMembershipFactory.create(user=user, role="owner")
    node = StructureNodeFactory.create(plan=membership.plan, kind="building", name="Gym")
    action = ActionFactory.create(node=node, title="Paint the gym", planned_year=2030)
    browser_login(page, user.email)

    page.goto(f"/plans/{membership.plan.number}/actions/")
    page.click("button:has-text('Cancel action')")
    expect(page.locator(".messages")).to_contain_text("Action “Paint the gym” cancelled.")
    action.refresh_from_db()
    assert action.status == "cancelled"
    page.click(".messages button:has-text('Undo')")

    expect(page.locator(".messages")).to_contain_text("is planned again")
    expect(page.locator("button:has-text('Cancel action')")).to_be_visible()
    action.refresh_from_db()
    assert action.status == "planned"

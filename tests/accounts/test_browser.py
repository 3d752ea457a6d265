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

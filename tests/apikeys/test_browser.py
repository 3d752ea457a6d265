from __future__ import annotations

import re
from typing import Any

import pytest

from apikeys.keys import key_hash
from apikeys.models import ApiKey
from tests.conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_key_is_created_shown_once_and_revoked(page: Any, user: Any) -> None:
    from playwright.sync_api import expect

    browser_login(page, user.email)
    page.click("header a[href='/profile/']")
    page.click("nav.subnav a[href='/profile/integrations/api-keys/']")
    expect(page.locator("[data-testid=api-access-notice]")).to_be_visible()

    page.fill("input[name=name]", "Browser key")
    page.click("button:has-text('Create key')")
    shown = page.locator("[data-testid=new-api-key]")
    expect(shown).to_be_visible()
    raw = shown.inner_text().strip()
    assert re.fullmatch(r"mpk_[0-9A-Za-z]{38}", raw)
    assert ApiKey.objects.get(owner=user).key_hash == key_hash(raw)
    page.click("button:has-text('Copy key')")
    expect(page.locator("[data-copy-status]")).not_to_be_empty()

    page.click("text=Back to your API keys")
    row = page.locator("tr", has_text="Browser key")
    expect(row).to_contain_text(raw[:8])
    expect(row).to_contain_text("Active")
    assert raw not in page.content()

    row.locator("text=Revoke…").click()
    expect(page.locator("h1")).to_contain_text("Revoke “Browser key”?")
    page.click("button:has-text('Revoke key')")
    expect(page.locator(".msg")).to_contain_text("is revoked")
    expect(page.locator("[data-testid=no-live-key]")).to_be_visible()
    revoked = page.locator("[data-testid=past-keys] tr", has_text="Browser key")
    expect(revoked).to_be_hidden()  # past keys are collapsed
    page.click("summary:has-text('1 revoked or expired key')")
    expect(revoked).to_be_visible()
    expect(revoked).to_contain_text("Revoked")
    assert ApiKey.objects.get(owner=user).revoked_at is not None

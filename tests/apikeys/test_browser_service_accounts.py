"""An organisation's service accounts in headless Chromium, at 1366 and then 390 px: an owner
creates a service account with its first key (shown once), gives it a second key, renames it,
rolls and revokes a key; the service account keeps one id through all of it and stays listed
with no live key; nothing scrolls sideways and axe finds no serious or critical violation."""

from __future__ import annotations

import re
from typing import Any

import pytest

from apikeys.models import ApiKey, ServiceAccount
from organisations.services import organisation_create
from tests.conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _axe_problems(page: Any) -> list[str]:
    """Serious and critical axe violations of the page (as tests/test_accessibility.py)."""
    from axe_playwright_python.sync_playwright import Axe

    return [
        f"{violation['id']} ({violation['impact']}) {[n['html'] for n in violation['nodes']]}"
        for violation in Axe().run(page).response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


def test_an_owner_manages_service_accounts_and_their_keys(new_page: Any, user: Any) -> None:
    from playwright.sync_api import expect

    organisation = organisation_create(name="Harbour Co-op", owner=user)
    keys_url = f"/organisations/{organisation.slug}/integrations/api-keys/"
    for width, name in ((1366, "ERP"), (390, "CMMS")):
        page = new_page(viewport={"width": width, "height": 900})
        browser_login(page, user.email)
        page.goto(keys_url)
        page.get_by_label("Name").fill(name)
        page.get_by_role("button", name="Create service account").click()
        first_key = page.locator("#new-api-key")
        expect(first_key).to_contain_text(re.compile(r"mpk_[A-Za-z0-9]{30,}"))
        service_account = ServiceAccount.objects.get(organisation=organisation, name=name)

        page.goto(keys_url)
        section = page.locator(f"[data-service-account-id='{service_account.pk}']")
        expect(section.get_by_role("heading", name=name)).to_be_visible()
        section.get_by_role("link", name="New key…").click()
        expect(page.get_by_label("Name")).to_have_value(name)
        page.get_by_label("Name").fill(f"{name} spare")
        page.get_by_role("button", name="Create key").click()
        expect(page.locator("#new-api-key")).to_contain_text("mpk_")

        page.goto(keys_url)
        section.get_by_role("link", name="Rename…").click()
        page.get_by_label("Name").fill(f"{name} sync")
        page.get_by_role("button", name="Rename").click()
        expect(
            page.get_by_text(f"The service account is now called “{name} sync”.")
        ).to_be_visible()
        section = page.locator(f"[data-service-account-id='{service_account.pk}']")
        expect(section.get_by_role("heading", name=f"{name} sync")).to_be_visible()
        expect(section.locator("tbody tr")).to_have_count(2)
        assert page.evaluate("document.documentElement.scrollWidth") <= width
        assert _axe_problems(page) == []

    # Roll the ERP account's first key without grace, then revoke every key it has.
    erp = ServiceAccount.objects.get(organisation=organisation, name="ERP sync")
    first = ApiKey.objects.get(service_account=erp, name="ERP")
    page.goto(keys_url)
    page.locator(
        f"[data-service-account-id='{erp.pk}'] tr[data-api-key-id='{first.pk}']"
    ).get_by_role("link", name="Roll…").click()
    page.get_by_label("The old key keeps working for").select_option("0")
    page.get_by_role("button", name="Roll key").click()
    expect(page.locator("#new-api-key")).to_contain_text("mpk_")
    for api_key in ApiKey.objects.filter(
        service_account=erp, revoked_at__isnull=True, rolled_at__isnull=True
    ):
        page.goto(keys_url)
        page.locator(f"tr[data-api-key-id='{api_key.pk}']").get_by_role(
            "link", name="Revoke…"
        ).click()
        page.get_by_role("button", name="Revoke key").click()
        expect(page.get_by_text(f"The key “{api_key.name}” is revoked.")).to_be_visible()

    section = page.locator(f"[data-service-account-id='{erp.pk}']")
    expect(section).to_contain_text("No working key")
    expect(section).to_contain_text("3 revoked or expired keys")
    assert ApiKey.objects.filter(service_account=erp).count() == 3
    assert ServiceAccount.objects.filter(organisation=organisation).count() == 2
    assert _axe_problems(page) == []

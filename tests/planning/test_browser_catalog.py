"""The catalog page in headless Chromium, as an organisation's admin uses it: sets the
organisation's figure for a starter code, and adds a code of its own, by filling the forms."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from organisations.models import OrganisationRole
from planning.models import Code, CodeOverride
from tests.conftest import browser_login
from tests.factories import OrganisationFactory, OrganisationMembershipFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_an_admin_overrides_a_starter_code_and_adds_an_own_code(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    from planning.catalog.services import code_catalog_defaults_load

    code_catalog_defaults_load()  # a transactional test before this one may have flushed it
    organisation = OrganisationFactory.create(name="Riverside co-op", slug="riverside")
    OrganisationMembershipFactory.create(
        organisation=organisation, user=user, role=OrganisationRole.ADMIN
    )
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto("/organisations/riverside/")
    page.get_by_role("link", name="Catalog").click()
    page.get_by_label("Search the catalog").fill("flat roof bitumen")
    page.get_by_role("button", name="Search").click()
    page.get_by_role("link", name="363.2").click()
    page.get_by_label("Your unit cost").fill("92.50")
    page.get_by_role("button", name="Save your figures").click()

    expect(page.get_by_text("Code 363.2 saved.")).to_be_visible()
    row = page.locator('tr[data-code="363.2"]')
    expect(row).to_contain_text("92.50")
    expect(row).to_contain_text("Starter, your figures")
    starter = Code.objects.get(organisation__isnull=True, code="363.2")
    assert CodeOverride.objects.get(organisation=organisation, code=starter).unit_cost == Decimal(
        "92.50"
    )

    page.get_by_text("Add a code of your own").click()
    adding = page.locator("#add-code")
    adding.get_by_label("Code *").fill("RC-1")
    adding.get_by_label("Name *").fill("Sauna stove")
    adding.get_by_label("Unit cost").fill("2400")
    page.get_by_role("button", name="Add code").click()

    expect(page.get_by_text("Code RC-1 “Sauna stove” added to your catalog.")).to_be_visible()
    assert Code.objects.get(organisation=organisation, code="RC-1").unit_cost == Decimal("2400")
    expect(page.locator("#catalog-history")).to_contain_text("Code 363.2: your unit cost")
    assert page.evaluate("document.documentElement.scrollWidth") <= width

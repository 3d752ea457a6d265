"""The organisation pages in headless Chromium, used as a person would: an owner invites by
email, the invited person registers from the link with the email fixed, and then switches
between their organisations in the top bar (at 1366 and 390 px)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core import mail
from playwright.sync_api import expect

from organisations.models import OrganisationMembership
from organisations.services import organisation_create
from planning.plans.services.plans import plan_create
from tests.conftest import browser_login
from tests.factories import UserFactory

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_an_invited_person_registers_from_the_link_and_switches_organisation(
    new_page: Any, width: int
) -> None:
    owner = UserFactory.create(email="olga@example.com", name="Olga")
    co_op = organisation_create(name="Harbour Co-op", owner=owner)
    plan_create(owner=owner, name="Building 10", organisation=co_op)
    plan_create(owner=owner, name="Building 2", organisation=co_op)
    viewport = {"width": width, "height": 900}

    inviter = new_page(viewport=viewport)
    browser_login(inviter, owner.email)
    inviter.goto(f"/organisations/{co_op.slug}/invitations/")
    inviter.fill("input[name=invite-email]", "nina@example.com")
    inviter.select_option("select[name=invite-role]", "planner")
    inviter.click("button:has-text('Send invitation')")
    expect(inviter.get_by_text("Invitation sent to nina@example.com")).to_be_visible()
    expect(inviter.locator("#invitations")).to_contain_text("nina@example.com")

    link = re.search(r"https?://[^/]+(/invitations/\S+/)", str(mail.outbox[-1].body))
    assert link is not None
    invited = new_page(viewport=viewport)
    invited.goto(link.group(1))
    invited.click("text=Create your account to accept")
    email = invited.locator("input[name=email]")
    expect(email).to_have_value("nina@example.com")
    expect(email).to_be_disabled()
    invited.fill("input[name=name]", "Nina")
    invited.fill("input[name=password]", "harbour-lantern-quince-42")
    invited.click("button:has-text('Register and accept')")
    expect(invited.get_by_text("Welcome to Harbour Co-op")).to_be_visible()
    joined = OrganisationMembership.objects.get(organisation=co_op, user__email="nina@example.com")
    assert joined.role == "planner"

    # they land in the inviting organisation: its plans, its name in the top bar
    expect(invited.locator("h1")).to_have_text("Plans of Harbour Co-op")
    expect(invited.locator("#organisation-in-view")).to_contain_text("Harbour Co-op")
    names = invited.locator("#plans tbody tr td:nth-child(2) a").all_inner_texts()
    assert names == ["Building 2", "Building 10"]

    # the top bar's organisation opens the list to switch to (no Menu needed at 390 px)
    invited.locator("#organisation-in-view summary").click()
    invited.locator("#organisation-choices").get_by_role("link", name="Nina (personal)").click()
    expect(invited.locator("h1")).to_have_text("Your plans")
    expect(invited.locator("#organisation-in-view")).to_contain_text("Nina (personal)")
    scroll_width = invited.evaluate("document.documentElement.scrollWidth")
    assert scroll_width <= width


@pytest.mark.parametrize("width", [1366, 390])
def test_a_new_organisation_is_the_one_in_view(new_page: Any, width: int) -> None:
    person = UserFactory.create(email="olga@example.com", name="Olga")
    page = new_page(viewport={"width": width, "height": 800})
    browser_login(page, person.email)
    in_view = page.locator("#organisation-in-view")
    expect(in_view).to_contain_text("Olga (personal)")

    page.goto("/organisations/")
    page.fill("input[name=create-name]", "Northfield Housing Association of the Harbour Quarter")
    page.get_by_role("button", name="Create organisation").click()

    expect(page.locator("h1")).to_have_text(
        "Plans of Northfield Housing Association of the Harbour Quarter"
    )
    # named in the top bar without opening the menu, even at 390 px (a long name is cut short)
    expect(in_view).to_be_in_viewport()
    box = in_view.bounding_box()
    assert box is not None and box["x"] + box["width"] <= width
    # opened, it names the organisation in full, inside the screen
    in_view.locator("summary").click()
    full = in_view.get_by_text("You are working in Northfield Housing Association of the Harbour")
    expect(full).to_be_visible()
    box = full.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width
    in_view.locator("summary").click()
    # and a plan made now belongs to it
    page.fill("input[name=create-name]", "Quay houses")
    page.get_by_role("button", name="Create plan").click()
    expect(page.locator("h1")).to_contain_text("Quay houses")
    expect(in_view).to_contain_text("Northfield Housing Association")
    assert page.evaluate("document.documentElement.scrollWidth") <= width

"""Every page under the Content-Security-Policy in headless Chromium: a violation (an inline
script or style sheet, a foreign asset) is a console error, which the `page` fixture fails on."""

from __future__ import annotations

from typing import Any

import pytest

from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_no_page_violates_the_policy(page: Any, tmp_path: Any) -> None:
    violations: list[str] = []
    page.on(
        "console",
        lambda message: (
            violations.append(message.text) if "Content Security Policy" in message.text else None
        ),
    )
    for url in ("/accounts/login/", "/accounts/register/", "/api/v1/docs/"):
        response = page.goto(url)
        assert "script-src 'self'" in response.headers["content-security-policy"]
    page.wait_for_selector(".opblock-summary", timeout=15_000)  # the docs' script ran
    staff = UserFactory.create(is_staff=True, is_superuser=True)
    owner = PlanMembershipFactory.create(role="owner", user=staff)
    node = StructureNodeFactory.create(plan=owner.plan, kind="site", name="Campus")
    action = ActionFactory.create(node=node, title="Fix", planned_year=2030)
    number = owner.plan.number
    browser_login(page, staff.email)
    for url in (
        "/plans/",
        f"/plans/{number}/",
        f"/plans/{number}/nodes/{node.pk}/",
        f"/plans/{number}/actions/{action.pk}/edit/",
        f"/plans/{number}/members/",
        f"/plans/{number}/planning/",
        "/profile/integrations/api-keys/",
        "/profile/integrations/api-keys/new/",
        "/accounts/security-log/",
        "/admin/",
        "/admin/accounts/user/",
        f"/admin/accounts/user/{staff.pk}/change/",
    ):
        response = page.goto(url)
        assert response.status == 200, url
        assert "content-security-policy" in response.headers, url
    page.goto("/profile/integrations/api-keys/new/")
    page.fill("input[name=name]", "CSP key")
    page.click("button:has-text('Create key')")
    page.click("button:has-text('Copy key')")  # the page's script runs under the policy
    page.goto("/profile/integrations/api-keys/")
    page.click("text=Roll…")
    page.click("button:has-text('Roll key')")
    page.wait_for_selector("[data-testid=new-api-key]")

    # A phone's width: the key list (with its dates) and the security log scroll inside their
    # cards, never the page.
    page.set_viewport_size({"width": 390, "height": 800})
    for url in ("/profile/integrations/api-keys/", "/accounts/security-log/"):
        page.goto(url)
        width = page.evaluate("document.documentElement.scrollWidth")
        assert width <= 390, (url, width)
        page.screenshot(path=str(tmp_path / f"{url.strip('/').replace('/', '-')}.png"))

    assert violations == []

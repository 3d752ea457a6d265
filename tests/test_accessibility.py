"""Every page in headless Chromium at 1366 and 390 px: axe-core finds no serious or critical
violation, and no page scrolls sideways (what is wide scrolls inside its own box)."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse

from apikeys.models import ApiAccessRequest
from organisations.invitations import invitation_create
from organisations.services import member_add
from planning.models import PlanImport, PlanImportFormat, PlanImportStatus
from planning.records.adoption import plan_adopt
from planning.suggestions.sync.run import suggestion_sync
from tests.conftest import TEST_PASSWORD, browser_login
from tests.factories import UserFactory
from tests.planning.test_views import World, world  # noqa: F401 - the fixture

pytestmark = pytest.mark.django_db(transaction=True)


def _pages(w: World) -> list[str]:
    n = w.plan.number
    rejected = PlanImport.objects.create(
        owner=w.owner.user,
        idempotency_key="a11y",
        file_format=PlanImportFormat.DOCUMENT,
        filename="plan.json",
        status=PlanImportStatus.REJECTED,
        problems=['node 2 (ref "B1"): parent_ref: no node with ref "S9"'],
    )
    # The owner also runs the plan's organisation, with a pending invitation and a request for
    # API access on its pages (and two organisations, so the top bar lists them to switch to).
    organisation = w.plan.organisation
    member_add(organisation=organisation, user=w.owner.user, role="owner")
    requester = UserFactory.create()
    member_add(organisation=organisation, user=requester, role="planner")
    invitation_create(
        organisation=organisation,
        email="new@example.com",
        role="viewer",
        invited_by=None,
        send=False,
    )
    ApiAccessRequest.objects.create(organisation=organisation, requested_by=requester)
    slug = organisation.slug
    version = plan_adopt(plan=w.plan, name="Adopted by the board")
    w.action.planned_year += 1  # a difference for the comparison to show
    w.action.save()
    return [
        reverse("planning:plan_list"),
        reverse("planning:plan_list") + f"?org={slug}",
        reverse("organisations:list"),
        reverse("organisations:members", args=[slug]),
        reverse("organisations:invitations", args=[slug]),
        reverse("portfolio:portfolio", args=[slug]),
        reverse("integrations:organisation_api_access", args=[slug]),
        reverse("integrations:organisation_api_keys", args=[slug]),
        reverse("integrations:organisation_api_key_create", args=[slug]),
        reverse("webhooks:organisation_endpoints", args=[slug]),
        reverse("webhooks:organisation_endpoint_create", args=[slug]),
        reverse("planning:plan_detail", args=[n]),
        reverse("planning:plan_actions", args=[n]),
        reverse("planning:plan_settings", args=[n]),
        reverse("planning:members", args=[n]),
        reverse("planning:plan_reports", args=[n]),
        reverse("planning:follow_up", args=[n]),
        reverse("planning:plan_history", args=[n]),
        reverse("planning:plan_versions", args=[n]),
        reverse("planning:plan_version", args=[n, version.pk]),
        reverse("planning:action_planning", args=[n]),
        reverse("planning:node_detail", args=[n, w.component.pk]),
        reverse("planning:action_edit", args=[n, w.action.pk]),
        reverse("planning:plan_import_detail", args=[rejected.pk]),
        reverse("planning:plan_import_format"),
        reverse("profile:account"),
        reverse("profile:password"),
        reverse("accounts:security_log"),
        reverse("integrations:api_key_list"),
        reverse("integrations:api_key_create"),
        reverse("webhooks:endpoint_list"),
        reverse("webhooks:endpoint_create"),
    ]


VISITOR_PAGES = ["/", "/accounts/login/", "/accounts/register/", "/accounts/password-reset/"]


def _check(page: Any, url: str, width: int) -> list[str]:
    from axe_playwright_python.sync_playwright import Axe

    page.goto(url)
    problems = []
    results = Axe().run(page)
    for violation in results.response["violations"]:
        if violation["impact"] in ("serious", "critical"):
            targets = [node["target"] for node in violation["nodes"]][:3]
            problems.append(f"{url} @{width}: {violation['id']} ({violation['impact']}) {targets}")
    scroll_width = page.evaluate("document.documentElement.scrollWidth")
    if scroll_width > width:
        problems.append(f"{url} @{width}: scrolls sideways ({scroll_width} px)")
    return problems


@pytest.mark.parametrize("width", [1366, 390])
def test_every_page_passes_axe_and_fits_the_screen(
    browser: Any,
    live_server: Any,
    world: World,  # noqa: F811 - the fixture imported above
    width: int,
) -> None:
    suggestion_sync(plan=world.plan)
    pages = _pages(world)
    context = browser.new_context(
        base_url=live_server.url, viewport={"width": width, "height": 900}
    )
    page = context.new_page()
    try:
        problems = [p for url in VISITOR_PAGES for p in _check(page, url, width)]
        browser_login(page, world.owner.user.email, TEST_PASSWORD)
        problems += [p for url in pages for p in _check(page, url, width)]
    finally:
        context.close()
    assert not problems, "\n".join(problems)

"""Every paged page renders the one pager (templates/includes/pager.html): its links keep the
page's own parameter, the list's filters and the fragment, and it says where the reader is."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.paginator import Paginator
from django.template.loader import render_to_string
from django.test import Client

from accounts.models import SecurityEvent
from planning.models import NodeKind, PlanRole, Suggestion, SuggestionStatus
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
)
from tests.webhooks.factories import endpoint_for
from webhooks.events import endpoint_test_event_send
from webhooks.models import WebhookAttempt, WebhookDelivery

pytestmark = pytest.mark.django_db

PAGE_SIZES = [
    "planning.web.pages.ACTIONS_PER_PAGE",
    "planning.web.views.projects.PROJECTS_PER_PAGE",
    "planning.web.views.projects.PROJECT_ACTIONS_PER_PAGE",
    "planning.web.views.action_planning.BUILDINGS_PER_PAGE",
    "planning.web.views.action_planning.SUGGESTIONS_PER_PAGE",
    "planning.web.views.suggestions.DISMISSED_PER_PAGE",
    "webhooks.selectors.DELIVERY_LOG_PAGE_SIZE",
    "accounts.views.SECURITY_EVENTS_PER_PAGE",
]


@pytest.fixture
def urls(user: Any, client: Client, monkeypatch: pytest.MonkeyPatch) -> dict[str, str]:
    """One row per page, two rows of everything that pages: every list has two pages."""
    for size in PAGE_SIZES:
        monkeypatch.setattr(size, 1)
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    project = ProjectFactory.create(plan=plan)
    ProjectFactory.create(plan=plan)
    for name in ("House A", "House B"):  # two buildings with costs: two budget rows
        building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name=name)
        ActionFactory.create(node=building, planned_year=2030, project=project)
    for name in ("Fan 1", "Fan 2", "Fan 3", "Fan 4"):  # components without a code
        StructureNodeFactory.create(plan=plan, name=name)
    suggestion_sync(plan=plan)
    dismissed = Suggestion.objects.filter(plan=plan, status=SuggestionStatus.OPEN)[:2]
    suggestions_dismiss(
        plan=plan, suggestion_ids=[s.pk for s in dismissed], user=user, reason="not_applicable"
    )
    endpoint, _secret = endpoint_for(user)
    endpoint_test_event_send(endpoint=endpoint)
    delivery = WebhookDelivery.objects.get()
    WebhookAttempt.objects.bulk_create(
        WebhookAttempt(delivery=delivery, endpoint=endpoint, number=n, status_code=500)
        for n in (1, 2)
    )
    for _ in range(2):
        SecurityEvent.objects.create(user=user, kind=SecurityEvent.Kind.LOGIN)
    client.force_login(user)
    base = f"/plans/{plan.number}"
    return {
        "actions": f"{base}/actions/",
        "projects": f"{base}/projects/",
        "project": f"{base}/projects/{project.pk}/",
        "planning": f"{base}/planning/?year_from=2030&year_to=2031",
        "dismissed": f"{base}/planning/dismissed/",
        "delivery log": f"/profile/integrations/webhooks/{endpoint.pk}/",
        "security log": "/accounts/security-log/",
    }


@pytest.mark.parametrize(
    ("page", "label", "next_link"),
    [
        ("actions", "Action pages", 'href="?page=2"'),
        ("projects", "Project pages", 'href="?page=2"'),
        ("project", "Action pages", 'href="?page=2"'),
        ("planning", "Building pages", "bpage=2#budget"),
        ("planning", "Suggestion pages", "page=2#suggestions"),
        ("dismissed", "Dismissed pages", 'href="?page=2"'),
        ("delivery log", "Delivery log pages", 'href="?page=2"'),
        ("security log", "Security log pages", 'href="?page=2"'),
    ],
)
def test_every_paged_page_renders_the_one_pager(
    client: Client, urls: dict[str, str], page: str, label: str, next_link: str
) -> None:
    response = client.get(urls[page])

    assert response.status_code == 200
    pagers = re.findall(
        rf'<nav class="pager" aria-label="{label}">(.*?)</nav>', response.content.decode(), re.S
    )
    assert pagers, f"no pager {label!r} on {urls[page]}"
    for pager in pagers:
        assert re.search(r"Page 1 of [2-9]", pager)
        assert next_link in pager and 'rel="next"' in pager and 'rel="last"' in pager
        assert 'rel="prev"' not in pager  # the first page has no way back


def test_a_list_on_one_page_has_no_pager() -> None:
    page = Paginator(["only row"], 50).get_page(1)

    assert render_to_string("includes/pager.html", {"page": page}).strip() == ""

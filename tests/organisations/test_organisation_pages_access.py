"""Every page under /organisations/<slug>/, found from the URL configuration: a non-member gets
exactly what a missing organisation gets (404, nothing of it in the page), members who do not
manage it get 403 on the managing pages, owners and admins get the page
(docs/subsystems/organisations.md
"Organisations")."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from apikeys.models import ApiAccessRequest
from organisations.invitations import invitation_create
from organisations.services import member_add, organisation_create
from tests.factories import CodeFactory, UserFactory

pytestmark = pytest.mark.django_db

# Pages every member may use (the others manage the organisation).
MEMBER_PAGES = {
    "organisations:members",
    "integrations:organisation_api_access",
    "integrations:organisation_api_access_request",
    "portfolio:portfolio",
    "portfolio:download",
}
# Only an owner renames the organisation or changes an owner (the sample member is the owner).
OWNER_PAGES = {
    "organisations:rename",
    "organisations:member_remove",
    "organisations:member_role_set",
}
# Pages of one service-account key: the sample id is no key, so managers get its 404 too.
KEY_PAGES = "integrations:organisation_api_key_"
# Pages of one service account: likewise, the sample id is none.
SERVICE_ACCOUNT_PAGES = "integrations:organisation_service_account_"


def _routes(patterns: list[Any], prefix: str = "", namespace: str = "") -> list[tuple[str, str]]:
    found = []
    for entry in patterns:
        if isinstance(entry, URLResolver):
            space = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            found += _routes(entry.url_patterns, prefix + str(entry.pattern), space)
        elif isinstance(entry, URLPattern):
            found.append((prefix + str(entry.pattern), f"{namespace}{entry.name}"))
    return found


def organisation_pages() -> list[tuple[str, str]]:
    """The GET pages under /organisations/<slug>/ (their POSTs share the same check)."""
    return sorted(
        (route, name)
        for route, name in _routes(get_resolver().url_patterns)
        if route.startswith("organisations/<slug:slug>/")
    )


@pytest.mark.parametrize("role", ["owner", "admin", "planner", "viewer", "stranger"])
def test_every_organisation_page_answers_by_role(client: Client, role: str) -> None:
    owner = UserFactory.create()
    organisation = organisation_create(name="Secret Co-op", owner=owner)
    person = owner if role == "owner" else UserFactory.create()
    if role not in ("owner", "stranger"):
        member_add(organisation=organisation, user=person, role=role)
    invitation, _token = invitation_create(
        organisation=organisation, email="x@example.com", role="viewer", invited_by=None, send=False
    )
    access_request = ApiAccessRequest.objects.create(organisation=organisation, requested_by=owner)
    values = {
        "membership_id": organisation.memberships.get(user=owner).pk,
        "invitation_id": invitation.pk,
        "api_key_id": "00000000-0000-0000-0000-000000000000",
        "service_account_id": "00000000-0000-0000-0000-000000000000",
        "request_id": access_request.pk,
        "code_id": CodeFactory.create().pk,  # a starter code: its catalog page
        "fmt": "csv",  # the portfolio's download
    }
    client.force_login(person)
    routes = organisation_pages()
    assert len(routes) > 15
    wrong = []
    for route, name in routes:

        def fill(match: re.Match[str], slug: str) -> str:
            key = match.group(2)
            return slug if key == "slug" else str(values[key])

        url = "/" + re.sub(r"<(?:(\w+):)?(\w+)>", lambda m: fill(m, organisation.slug), route)
        missing = "/" + re.sub(r"<(?:(\w+):)?(\w+)>", lambda m: fill(m, "no-such-co-op"), route)
        for method in ("GET", "POST"):
            with transaction.atomic():
                if method == "GET":
                    response, gone = client.get(url), client.get(missing)
                else:  # a role change needs its field, or the form answers before the rights
                    body = {f"m{values['membership_id']}-role": "viewer"}
                    response, gone = client.post(url, body), client.post(missing, body)
                transaction.set_rollback(True)
            status = response.status_code
            if role == "stranger":
                ok = (
                    status == gone.status_code == 404
                    and "Secret Co-op" not in response.content.decode()
                )
            elif (
                (name.startswith(KEY_PAGES) and name != f"{KEY_PAGES}create")
                or name.startswith(SERVICE_ACCOUNT_PAGES)
            ) and role in (
                "owner",
                "admin",
            ):
                ok = status in (404, 405)
            elif role == "owner" or name in MEMBER_PAGES:
                ok = status not in (403, 404)
            elif role == "admin":
                ok = (status in (403, 405)) if name in OWNER_PAGES else status not in (403, 404)
            else:
                ok = status in (403, 405)
            if not ok:
                wrong.append(f"{method} {url} ({name}) -> {status}")
    assert wrong == [], f"{role}: " + "; ".join(wrong)

"""Content-Security-Policy on every page (no inline script anywhere) and Cache-Control: no-store
on every answer to a signed-in browser."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from tests.factories import (
    TEST_PASSWORD,
    ActionFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db
# A <script> element without src runs inline code (a JSON data block does not).
INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)(?![^>]*application/json)[^>]*>", re.I)


def _directives(response: Any) -> dict[str, list[str]]:
    policy = response["Content-Security-Policy"]
    return {
        name: values
        for name, *values in (part.split() for part in policy.split(";") if part.strip())
    }


@pytest.fixture
def signed_in_pages(client: Client) -> list[str]:
    owner = PlanMembershipFactory.create(
        role="owner", user=UserFactory(is_staff=True, is_superuser=True)
    )
    node = StructureNodeFactory.create(plan=owner.plan, kind="site", name="Campus")
    action = ActionFactory.create(node=node, title="Fix", planned_year=2030)
    client.force_login(owner.user)
    number = owner.plan.number
    return [
        "/plans/",
        f"/plans/{number}/",
        f"/plans/{number}/nodes/{node.pk}/",
        f"/plans/{number}/actions/{action.pk}/edit/",
        f"/plans/{number}/members/",
        f"/plans/{number}/planning/",
        "/profile/integrations/api-keys/",
        "/profile/integrations/api-keys/new/",
        "/admin/",
        "/admin/accounts/user/",
    ]


def test_every_page_forbids_inline_scripts(client: Client, signed_in_pages: list[str]) -> None:
    anonymous = Client()
    pages = [
        *(("signed in", client, url) for url in signed_in_pages),
        *(
            ("anonymous", anonymous, url)
            for url in ("/accounts/login/", "/accounts/register/", "/admin/login/")
        ),
    ]
    for who, browser, url in [*pages, ("anonymous", anonymous, "/api/v1/docs/")]:
        response = browser.get(url)
        assert response.status_code == 200, (who, url)
        directives = _directives(response)
        assert directives["script-src"] == ["'self'"], url
        assert directives["style-src"] == ["'self'"], url
        assert directives["object-src"] == ["'none'"], url
        assert INLINE_SCRIPT.findall(response.content.decode()) == [], url


def test_docs_page_serves_its_start_up_script_from_this_server(client: Client) -> None:
    page = client.get("/api/v1/docs/").content.decode()
    script_urls = re.findall(r'<script src="([^"]+)"', page)

    own = [url for url in script_urls if "script" in url.split("?")[-1]]
    assert len(own) == 1
    script = client.get(own[0].replace("&amp;", "&"))
    assert script.status_code == 200
    assert script["Content-Type"].startswith("application/javascript")
    assert b"SwaggerUIBundle" in script.content


def test_signed_in_pages_are_never_stored(client: Client, signed_in_pages: list[str]) -> None:
    for url in signed_in_pages:
        response = client.get(url)
        assert "no-store" in response.get("Cache-Control", ""), url


def test_the_json_login_is_never_stored(client: Client, user: Any) -> None:
    response = client.post(
        "/api/v1/auth/login/user",
        {"email": user.email, "password": TEST_PASSWORD},
        content_type="application/json",
    )

    assert response.status_code == 200
    assert "no-store" in response.get("Cache-Control", "")


def test_the_session_check_is_never_stored(client: Client, raw_key: str) -> None:
    response = client.post(
        "/api/v1/auth/session/api-key",
        {},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw_key}",
    )

    assert response.status_code == 200
    assert "no-store" in response.get("Cache-Control", "")

"""Plain http under /api/v1 while the TLS redirect is on: 403 transport.https_required in the
envelope, never a redirect (the key already travelled); the rest of the site is redirected."""

from __future__ import annotations

from typing import Any

import pytest

from tests.envelope import assert_envelope

pytestmark = pytest.mark.django_db


@pytest.fixture
def tls_redirect(settings: Any) -> None:
    settings.SECURE_SSL_REDIRECT = True


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("post", "/api/v1/auth/session/api-key"),
        ("get", "/api/v1/platform/plans/1/suggestions"),
        ("post", "/api/v1/auth/login/user"),
        ("get", "/api/v1/schema/"),
        ("get", "/api/v1/no-such-route"),
    ],
)
def test_plain_http_to_the_api_is_refused_not_redirected(
    client: Any, tls_redirect: None, raw_key: str, method: str, path: str
) -> None:
    response = getattr(client, method)(path, HTTP_AUTHORIZATION=f"Bearer {raw_key}")

    assert_envelope(response, 403, "transport.https_required")
    assert "Location" not in response


def test_https_to_the_api_is_answered(client: Any, tls_redirect: None, raw_key: str) -> None:
    response = client.post(
        "/api/v1/auth/session/api-key",
        {},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw_key}",
        secure=True,
    )

    assert_envelope(response, 200, "auth.api_key_valid")


def test_web_pages_are_still_redirected_to_https(client: Any, tls_redirect: None) -> None:
    response = client.get("/accounts/login/")

    assert response.status_code == 301
    assert response["Location"].startswith("https://")


def test_plain_http_is_answered_while_the_redirect_is_off(client: Any, raw_key: str) -> None:
    response = client.post(
        "/api/v1/auth/session/api-key",
        {},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw_key}",
    )

    assert response.status_code == 200

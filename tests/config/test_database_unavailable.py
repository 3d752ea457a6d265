"""While the database cannot be reached: 503 with Retry-After, one log line, no traceback."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.conf import settings
from django.db import OperationalError
from django.test import Client

from tests.envelope import assert_envelope
from tests.factories import TEST_PASSWORD

pytestmark = pytest.mark.django_db


def _down(*args: Any, **kwargs: Any) -> Any:
    raise OperationalError("connection to server failed: Connection refused")


def test_settings_check_a_persistent_connection_before_each_request() -> None:
    assert settings.DATABASES["default"]["CONN_HEALTH_CHECKS"] is True


def test_api_call_is_503_server_unavailable_with_retry_after(
    raw_key: str, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("platform_api.endpoints.suggestions.plan_for_key", _down)
    client = Client(raise_request_exception=False)

    with caplog.at_level(logging.INFO):
        response = client.get(
            "/api/v1/platform/plans/1/suggestions", HTTP_AUTHORIZATION=f"Bearer {raw_key}"
        )

    assert_envelope(response, 503, "server.unavailable")
    assert response["Retry-After"] == "5"
    assert not [r for r in caplog.records if r.exc_info or r.exc_text]
    assert [r.levelname for r in caplog.records if r.name == "maintplan.api"] == ["WARNING"]


def test_a_failing_session_write_is_a_503_envelope_under_api(
    user: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr("django.contrib.sessions.backends.db.SessionStore.create", _down)
    client = Client(raise_request_exception=False)

    with caplog.at_level(logging.INFO):
        response = client.post(
            "/api/v1/auth/login/user",
            {"email": user.email, "password": TEST_PASSWORD},
            content_type="application/json",
        )

    assert_envelope(response, 503, "server.unavailable")
    assert not [r for r in caplog.records if r.exc_info or r.exc_text]


def test_a_web_page_is_a_plain_503_page(
    user: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    client = Client(raise_request_exception=False)
    client.force_login(user)
    monkeypatch.setattr("planning.plans.selectors.plan_list_rows", _down)

    with caplog.at_level(logging.INFO):
        response = client.get("/plans/")

    assert response.status_code == 503
    assert response["Retry-After"] == "5"
    assert b"briefly unavailable" in response.content
    request_lines = [r for r in caplog.records if r.name == "django.request"]
    assert [r.levelname for r in request_lines] == ["WARNING"]
    assert not [r for r in caplog.records if r.exc_info or r.exc_text]


def test_other_errors_stay_500_with_their_traceback_logged(
    user: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    client = Client(raise_request_exception=False)
    client.force_login(user)
    monkeypatch.setattr("planning.plans.selectors.plan_list_rows", broken)

    with caplog.at_level(logging.INFO):
        response = client.get("/plans/")

    assert response.status_code == 500
    assert [r for r in caplog.records if r.name == "django.request" and (r.exc_info or r.exc_text)]

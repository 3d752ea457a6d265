"""The session check: POST /api/v1/auth/session/api-key."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.utils import timezone

from apikeys.models import ApiKey
from tests.apikeys.conftest import SESSION_CHECK_URL, session_check
from tests.envelope import assert_envelope


def test_session_check_returns_the_identity_behind_the_key(
    client: Any, api_user: Any, api_key_and_raw: tuple[ApiKey, str]
) -> None:
    api_key, raw = api_key_and_raw
    response = session_check(client, f"Bearer {raw}")
    assert response.status_code == 200
    body = response.json()
    assert body["success"] is True
    api_key.refresh_from_db()
    assert api_key.last_used_at is not None
    assert body["data"] == {
        "user": {"id": str(api_user.pk), "email": api_user.email, "name": api_user.name},
        "api_key": {
            "id": str(api_key.pk),
            "name": "ERP sync",
            "hint": raw[:8],
            "created_at": api_key.created_at.isoformat().replace("+00:00", "Z"),
            "expires_at": None,
            "last_used_at": api_key.last_used_at.isoformat().replace("+00:00", "Z"),
            "plan_numbers": None,
            "permission": "read",
        },
        "api_access_enabled": True,
        "principal": {"type": "user", "id": str(api_user.pk), "name": api_user.name},
        "organisation": None,
    }


def test_session_check_shows_the_expiry(client: Any, api_user: Any) -> None:
    from apikeys.services import api_key_create

    expires_at = timezone.now() + timedelta(days=30)
    _api_key, raw = api_key_create(user=api_user, name="short-lived", expires_at=expires_at)
    response = session_check(client, f"Bearer {raw}")
    assert response.json()["data"]["api_key"]["expires_at"] == expires_at.isoformat().replace(
        "+00:00", "Z"
    )


def test_session_check_answer_is_not_stored_by_caches(client: Any, raw_key: str) -> None:
    response = session_check(client, f"Bearer {raw_key}")

    assert_envelope(response, 200, "auth.api_key_valid")
    assert response["Cache-Control"] == "no-store"


def test_session_check_refusal_is_not_stored_by_caches(client: Any, db: Any) -> None:
    response = session_check(client, "Bearer mpk_notakey")

    assert_envelope(response, 401, "auth.invalid_api_key")
    assert response["Cache-Control"] == "no-store"


def test_session_check_accepts_a_missing_body(client: Any, raw_key: str) -> None:
    response = client.generic(
        "POST", SESSION_CHECK_URL, b"", HTTP_AUTHORIZATION=f"Bearer {raw_key}"
    )
    assert response.status_code == 200
    assert response.json()["success"] is True


def test_session_check_rejects_malformed_json(client: Any, raw_key: str) -> None:
    response = session_check(client, f"Bearer {raw_key}", body="{not json")
    assert_envelope(response, 400, "validation.malformed_json")


def test_session_check_rejects_a_body_that_is_not_an_object(client: Any, raw_key: str) -> None:
    response = session_check(client, f"Bearer {raw_key}", body="[1, 2]")
    assert_envelope(response, 400, "validation.body_not_object")


def test_session_check_checks_the_key_before_the_body(client: Any, db: Any) -> None:
    response = session_check(client, None, body="{not json")
    assert_envelope(response, 401, "auth.missing_api_key")


def test_session_check_answers_get_with_method_not_allowed(client: Any, raw_key: str) -> None:
    response = client.get(SESSION_CHECK_URL, HTTP_AUTHORIZATION=f"Bearer {raw_key}")
    assert_envelope(response, 405, "routing.method_not_allowed")


def test_first_use_records_last_used_at(client: Any, api_key_and_raw: tuple[ApiKey, str]) -> None:
    api_key, raw = api_key_and_raw
    assert api_key.last_used_at is None
    session_check(client, f"Bearer {raw}")
    api_key.refresh_from_db()
    assert api_key.last_used_at is not None


def test_last_used_at_is_written_at_most_once_a_minute(
    client: Any, api_key_and_raw: tuple[ApiKey, str]
) -> None:
    api_key, raw = api_key_and_raw
    recent = timezone.now() - timedelta(seconds=30)
    ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=recent)
    session_check(client, f"Bearer {raw}")
    api_key.refresh_from_db()
    assert api_key.last_used_at == recent


def test_last_used_at_is_refreshed_after_a_minute(
    client: Any, api_key_and_raw: tuple[ApiKey, str]
) -> None:
    api_key, raw = api_key_and_raw
    stale = timezone.now() - timedelta(seconds=61)
    ApiKey.objects.filter(pk=api_key.pk).update(last_used_at=stale)
    session_check(client, f"Bearer {raw}")
    api_key.refresh_from_db()
    assert api_key.last_used_at is not None
    assert api_key.last_used_at > stale


def test_rejected_key_does_not_record_a_use(
    client: Any, api_user: Any, api_key_and_raw: tuple[ApiKey, str]
) -> None:
    api_key, raw = api_key_and_raw
    api_user.is_active = False
    api_user.save(update_fields=["is_active"])
    session_check(client, f"Bearer {raw}")
    api_key.refresh_from_db()
    assert api_key.last_used_at is None


def test_request_log_line_names_the_key_owner(
    client: Any, api_user: Any, raw_key: str, caplog: Any
) -> None:
    with caplog.at_level("INFO", logger="maintplan.request"):
        session_check(client, f"Bearer {raw_key}")
    (record,) = [r for r in caplog.records if r.name == "maintplan.request"]
    assert record.user_id == str(api_user.pk)


def test_an_unanswerable_accept_is_refused_after_authentication(client: Any) -> None:
    missing_key = client.post(
        "/api/v1/auth/session/api-key",
        "{}",
        content_type="application/json",
        HTTP_ACCEPT="text/csv",
    )
    assert (missing_key.status_code, missing_key.json()["messageKey"]) == (
        401,
        "auth.missing_api_key",
    )


def test_an_unanswerable_accept_with_a_valid_key_is_406(client: Any, raw_key: str) -> None:
    response = client.post(
        "/api/v1/auth/session/api-key",
        "{}",
        content_type="application/json",
        HTTP_ACCEPT="text/csv",
        HTTP_AUTHORIZATION=f"Bearer {raw_key}",
    )
    assert (response.status_code, response.json()["messageKey"]) == (
        406,
        "routing.not_acceptable",
    )

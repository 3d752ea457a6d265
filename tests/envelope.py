"""The one assertion for an answer under /api/v1: the envelope, its status and messageKey."""

from __future__ import annotations

from typing import Any

ENVELOPE_FIELDS = {"success", "message", "messageKey", "data", "traceId"}


def assert_envelope(response: Any, status: int, message_key: str) -> dict[str, Any]:
    """Asserts the status, the envelope's shape, success (from the status), the messageKey, the
    trace id echoed in X-Request-ID, and for errors `data: null` (field errors aside),
    `Cache-Control: no-store` and the challenge of every 401 (Bearer, or Session for the
    password login). Returns the body."""
    body: dict[str, Any] = response.json()
    assert response.status_code == status, body
    assert response["Content-Type"].startswith("application/json")
    assert set(body) == ENVELOPE_FIELDS
    assert body["success"] is (status < 400)
    assert body["messageKey"] == message_key
    assert isinstance(body["message"], str) and body["message"]
    assert isinstance(body["traceId"], str) and body["traceId"]
    assert body["traceId"] == response["X-Request-ID"]
    if status >= 400 and message_key in ("validation.failed", "validation.query"):
        assert set(body["data"]) == {"errors"} and body["data"]["errors"]
    elif status >= 400:
        assert body["data"] is None
    if status == 401 and message_key == "auth.invalid_credentials":
        assert response["WWW-Authenticate"].startswith("Session")
    elif status == 401:
        assert response["WWW-Authenticate"].startswith("Bearer")
    if status >= 400:  # no cache may keep an error (api.errors.ApiError)
        assert "no-store" in response["Cache-Control"].split(", ")
    if "Allow" in response:
        assert "OPTIONS" not in response["Allow"]  # OPTIONS is a 405 here
    return body

"""Every answer under /api/v1 is the envelope, and carries the request's trace id."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.envelope import assert_envelope

pytestmark = pytest.mark.django_db

TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
TRACEPARENT = f"00-{TRACE_ID}-00f067aa0ba902b7-01"


@pytest.mark.parametrize(
    "path", ["/api/v1/anything", "/api/v1/", "/api/v2/platform/plans/1/suggestions", "/api"]
)
@pytest.mark.parametrize("method", ["get", "post", "put", "delete"])
def test_unknown_api_path_is_404_envelope(client, path, method):
    response = getattr(client, method)(path)

    body = assert_envelope(response, 404, "routing.not_found")
    assert body["data"] is None


def test_post_to_unknown_api_path_without_csrf_cookie_is_404_envelope():
    client = Client(enforce_csrf_checks=True)

    response = client.post("/api/v1/anything", "{}", content_type="application/json")

    assert_envelope(response, 404, "routing.not_found")


def test_non_api_unknown_path_is_a_page_not_json(client):
    response = client.get("/no-such-page/")

    assert response.status_code == 404
    assert not response["Content-Type"].startswith("application/json")


def test_trace_id_comes_from_valid_traceparent(client):
    response = client.get("/api/v1/anything", HTTP_TRACEPARENT=TRACEPARENT)

    assert response.json()["traceId"] == TRACE_ID
    assert response["X-Request-ID"] == TRACE_ID


def test_traceparent_wins_over_request_id(client):
    response = client.get(
        "/api/v1/anything", HTTP_TRACEPARENT=TRACEPARENT, HTTP_X_REQUEST_ID="req-12345678"
    )

    assert response.json()["traceId"] == TRACE_ID


def test_trace_id_comes_from_request_id_when_no_traceparent(client):
    response = client.get("/api/v1/anything", HTTP_X_REQUEST_ID="support-case-1234")

    assert response.json()["traceId"] == "support-case-1234"
    assert response["X-Request-ID"] == "support-case-1234"


@pytest.mark.parametrize(
    ("traceparent", "request_id"),
    [
        ("00-00000000000000000000000000000000-00f067aa0ba902b7-01", None),  # all-zero trace id
        ("ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", None),  # forbidden version
        ("garbage", None),
        (None, "short"),
        (None, "has spaces in it"),
        (None, "x" * 200),
        (None, "<script>alert(1)</script>"),
    ],
)
def test_invalid_trace_headers_get_a_generated_id(client, traceparent, request_id):
    headers = {}
    if traceparent:
        headers["HTTP_TRACEPARENT"] = traceparent
    if request_id:
        headers["HTTP_X_REQUEST_ID"] = request_id

    response = client.get("/api/v1/anything", **headers)

    trace_id = response.json()["traceId"]
    assert re.fullmatch(r"[0-9a-f]{32}", trace_id)
    assert trace_id != "0" * 32
    assert trace_id not in (traceparent or "") + (request_id or "")  # generated, not taken
    assert response["X-Request-ID"] == trace_id


def test_each_request_gets_its_own_generated_trace_id(client):
    first = client.get("/api/v1/anything").json()["traceId"]
    second = client.get("/api/v1/anything").json()["traceId"]

    assert first != second


def test_web_pages_also_echo_the_trace_id(client):
    response = client.get("/accounts/login/", HTTP_TRACEPARENT=TRACEPARENT)

    assert response["X-Request-ID"] == TRACE_ID


def test_success_envelope_carries_trace_id(client, user):
    from tests.conftest import TEST_PASSWORD

    response = client.post(
        "/api/v1/auth/login/user",
        {"email": user.email, "password": TEST_PASSWORD},
        content_type="application/json",
        HTTP_X_REQUEST_ID="login-trace-0001",
    )

    body = response.json()
    assert body["success"] is True
    assert body["traceId"] == "login-trace-0001"


def test_wrong_method_is_405_envelope(client):
    response = client.delete("/api/v1/auth/register/user", HTTP_TRACEPARENT=TRACEPARENT)

    body = assert_envelope(response, 405, "routing.method_not_allowed")
    assert body["traceId"] == TRACE_ID


def test_malformed_json_is_400_envelope(client):
    response = client.post(
        "/api/v1/auth/login/user",
        "{not json",
        content_type="application/json",
        HTTP_TRACEPARENT=TRACEPARENT,
    )

    body = assert_envelope(response, 400, "validation.malformed_json")
    assert body["traceId"] == TRACE_ID


@pytest.mark.urls("tests.platform_api.failing_urls")
def test_unexpected_exception_in_api_view_is_500_without_traceback(client):
    response = client.get("/api/v1/test/explode", HTTP_TRACEPARENT=TRACEPARENT)

    body = assert_envelope(response, 500, "server.error")
    assert body["traceId"] == TRACE_ID
    text = response.content.decode()
    assert "Traceback" not in text
    assert "boom" not in text
    assert "RuntimeError" not in text


@pytest.mark.urls("tests.platform_api.failing_urls")
def test_unexpected_exception_outside_drf_under_api_is_500_envelope(client):
    client.raise_request_exception = False

    response = client.get("/api/v1/test/explode-plain", HTTP_X_REQUEST_ID="plain-fail-0001")

    body = assert_envelope(response, 500, "server.error")
    assert body["traceId"] == "plain-fail-0001"
    assert "boom" not in response.content.decode()


def test_every_401_carries_a_challenge(client, user):
    wrong = client.post(
        "/api/v1/auth/login/user",
        {"email": user.email, "password": "not-it"},
        content_type="application/json",
    )
    no_key = client.get("/api/v1/platform/plans/1/suggestions")

    assert_envelope(wrong, 401, "auth.invalid_credentials")
    assert wrong["WWW-Authenticate"] == 'Session realm="maintplan"'
    assert_envelope(no_key, 401, "auth.missing_api_key")
    assert no_key["WWW-Authenticate"] == 'Bearer realm="api"'


@pytest.mark.parametrize(
    ("method", "path", "allowed"),
    [
        ("get", "/api/v1/auth/login/user", "POST"),
        ("options", "/api/v1/auth/register/user", "POST"),
        ("delete", "/api/v1/schema/", "GET, HEAD"),
        ("options", "/api/v1/schema/", "GET, HEAD"),
    ],
)
def test_allow_lists_only_methods_that_answer(client, method, path, allowed):
    response = getattr(client, method)(path)

    assert response.status_code == 405
    assert response["Allow"] == allowed


def test_a_401_advertises_no_options(client):
    response = client.delete("/api/v1/platform/plans/1/suggestions")

    assert_envelope(response, 401, "auth.missing_api_key")
    assert response["Allow"] == "GET, HEAD"

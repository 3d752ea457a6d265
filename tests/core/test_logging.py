"""One JSON line per request, and no secret in any log line or error report."""

from __future__ import annotations

import io
import json
import logging
import sys

import pytest
from django.test import RequestFactory
from django.views.debug import ExceptionReporter

from core.observability import RedactingExceptionReporterFilter, StdoutHandler
from tests.conftest import TEST_PASSWORD
from tests.platform_api.failing_urls import SECRET_IN_ERROR

pytestmark = pytest.mark.django_db

API_KEY = "mpk_" + "Zx9" * 12 + "AbC123"
SESSION_COOKIE = "s3ss10nv4lu3th4tmustn0tl34k"
PASSWORD = "hunter2-super-secret-pw"


@pytest.fixture
def log_output():
    """The output of the real (configured) JSON handler on the root logger."""
    handler = next(h for h in logging.getLogger().handlers if isinstance(h, StdoutHandler))
    stream = io.StringIO()
    handler.stream = stream
    yield stream
    handler.stream = None  # back to following sys.stdout


def log_lines(stream):
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_each_request_writes_one_json_line_with_its_context(client, user, log_output):
    client.force_login(user)

    client.get("/plans/", HTTP_X_REQUEST_ID="trace-for-log-01")

    lines = [line for line in log_lines(log_output) if line["logger"] == "maintplan.request"]
    assert len(lines) == 1
    line = lines[0]
    assert line["method"] == "GET"
    assert line["path"] == "/plans/"
    assert line["status"] == 200
    assert isinstance(line["duration_ms"], float)
    assert line["trace_id"] == "trace-for-log-01"
    assert line["user_id"] == str(user.pk)
    assert line["level"] == "INFO"


@pytest.mark.urls("tests.platform_api.failing_urls")
def test_secrets_never_reach_the_logs(client, user, log_output):
    client.raise_request_exception = False
    client.cookies["sessionid"] = SESSION_COOKIE
    secret_headers = {"HTTP_AUTHORIZATION": f"Bearer {API_KEY}"}

    client.get("/api/v1/test/explode", **secret_headers)
    client.get("/api/v1/test/explode-plain", **secret_headers)
    client.post(
        "/api/v1/auth/login/user",
        {"email": user.email, "password": PASSWORD},
        content_type="application/json",
        **secret_headers,
    )
    client.post("/accounts/login/", {"email": user.email, "password": PASSWORD}, **secret_headers)
    logging.getLogger("maintplan.test").error(
        "careless line: Authorization: Bearer %s cookie sessionid=%s password=%s",
        API_KEY,
        SESSION_COOKIE,
        PASSWORD,
    )

    output = log_output.getvalue()
    assert output.count('"logger": "maintplan.request"') == 4
    assert "Internal Server Error" in output or "unhandled API exception" in output
    for secret in (API_KEY, SESSION_COOKIE, PASSWORD, TEST_PASSWORD, SECRET_IN_ERROR):
        assert secret not in output
    assert "[REDACTED]" in output


def test_error_reports_hide_credentials_and_passwords():
    request = RequestFactory().post(
        "/accounts/login/",
        {"email": "a@example.com", "password": PASSWORD},
        HTTP_AUTHORIZATION=f"Bearer {API_KEY}",
        HTTP_COOKIE=f"sessionid={SESSION_COOKIE}",
    )
    try:
        raise ValueError("report me")
    except ValueError:
        exc_info = sys.exc_info()

    reporter = ExceptionReporter(request, *exc_info)  # the filter of the settings
    assert isinstance(reporter.filter, RedactingExceptionReporterFilter)
    report = reporter.get_traceback_text()

    assert "report me" in report
    for secret in (API_KEY, SESSION_COOKIE, PASSWORD):
        assert secret not in report

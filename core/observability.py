"""Request tracing and logging: the trace id, one JSON log line per request, redaction.

Secrets (the Authorization header, API keys, cookies, passwords) must never reach a log line
or an error report. `RedactSecretsFilter` scrubs every record on the way out, whatever logger
produced it, and `RedactingExceptionReporterFilter` does the same for Django's error reports.
"""

from __future__ import annotations

import json
import logging
import re
import sys
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.debug import SafeExceptionReporterFilter

request_logger = logging.getLogger("maintplan.request")

_TRACEPARENT = re.compile(r"^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})$")
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._:\-]{8,128}$")
REDACTED = "[REDACTED]"


def trace_id_from_headers(traceparent: str | None, request_id: str | None) -> str:
    """The W3C traceparent's trace id, else a sane X-Request-ID, else a fresh random id."""
    if traceparent:
        match = _TRACEPARENT.match(traceparent.strip().lower())
        if match:
            version, trace_id, parent_id, _flags = match.groups()
            if version != "ff" and trace_id != "0" * 32 and parent_id != "0" * 16:
                return trace_id
    if request_id and _REQUEST_ID.match(request_id.strip()):
        return request_id.strip()
    return uuid.uuid4().hex


def current_trace_id(request: HttpRequest) -> str:
    trace_id = getattr(request, "trace_id", None)
    if trace_id is None:  # a request that bypassed the middleware (e.g. a bare test factory)
        trace_id = trace_id_from_headers(
            request.META.get("HTTP_TRACEPARENT"), request.META.get("HTTP_X_REQUEST_ID")
        )
        request.trace_id = trace_id  # type: ignore[attr-defined]
    return trace_id


# The probes of core.health: their request lines go to DEBUG, not the access log.
HEALTH_PATHS = frozenset({"/healthz", "/readyz"})


class RequestContextMiddleware:
    """Assigns the trace id, echoes it as X-Request-ID and writes the request's log line."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        started = time.perf_counter()
        trace_id = current_trace_id(request)
        response = self.get_response(request)
        response["X-Request-ID"] = trace_id
        if request.path in HEALTH_PATHS:  # probes: no session, no access-log noise
            request_logger.debug(
                "request", extra={"path": request.path, "status": response.status_code}
            )
            return response
        user = getattr(request, "user", None)
        request_logger.info(
            "request",
            extra={
                "method": request.method,
                "path": request.path,
                "status": response.status_code,
                "duration_ms": round((time.perf_counter() - started) * 1000, 2),
                "trace_id": trace_id,
                "user_id": str(user.pk) if user is not None and user.is_authenticated else None,
            },
        )
        return response


# Values that must never be written anywhere: bearer tokens, our API keys (any prefix shape),
# webhook secrets, session/CSRF cookies and password-like key/value pairs in free text.
_SECRET_PATTERNS = [
    re.compile(r"(?i)(bearer\s+)[^\s,;\"']+"),
    re.compile(r"(?i)((?:authorization|cookie|set-cookie)[\"']?\s*[:=]\s*[\"']?)[^\"'\n]+"),
    re.compile(r"(?i)((?:sessionid|csrftoken|csrfmiddlewaretoken)=)[^;\s&\"']+"),
    re.compile(r"(?i)([\"']?\w*password\w*[\"']?\s*[:=]\s*[\"']?)[^\s,&\"'}]+"),
    # the token of a password-reset link (its path, as the request line logs it)
    re.compile(r"(/accounts/reset/[\w-]+/)[\w-]+"),
    # the token of an invitation link (organisations.invitations)
    re.compile(r"(/invitations/)(?!accept/)[\w-]+"),
    # Webhook signing secrets (webhooks.signing); the prefix stays, as for API keys.
    re.compile(r"(whsec_)[A-Za-z0-9]{8,}"),
]
_STANDARD_RECORD_ATTRS = set(vars(logging.makeLogRecord({}))) | {"message", "asctime"}


def _api_key_pattern() -> re.Pattern[str]:
    return re.compile(re.escape(settings.API_KEY_PREFIX) + r"[A-Za-z0-9]{8,}")


def redact(text: str) -> str:
    text = _api_key_pattern().sub(REDACTED, text)
    for pattern in _SECRET_PATTERNS:
        text = pattern.sub(lambda m: m.group(1) + REDACTED, text)
    return text


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_value(v) for v in value]
    return value


class RedactSecretsFilter(logging.Filter):
    """Rewrites a record in place so no secret survives into any handler's output."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = redact(record.getMessage())
        record.args = None
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        record.exc_info = None  # the redacted text above replaces the raw traceback
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        for name, value in list(vars(record).items()):
            if name == "request":
                # django.request attaches the HttpRequest; its repr is safe but its META is not.
                record.request = repr(value)
            elif name not in _STANDARD_RECORD_ATTRS:
                setattr(record, name, _redact_value(value))
        return True


class DatabaseUnavailableFilter(logging.Filter):
    """On django.request: a request that failed because the database cannot be reached (a 503,
    config.urls.handler500) is one warning line, not an error with a traceback."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.exc_info and _database_unavailable(record.exc_info[1]):
            record.exc_info = None
            record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def _database_unavailable(exc: BaseException | None) -> bool:
    from django.db import InterfaceError, OperationalError

    return isinstance(exc, OperationalError | InterfaceError)


class StdoutHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """A StreamHandler on whatever `sys.stdout` is when a record is written.

    Binding the stream once, at configuration time, breaks when something swaps sys.stdout
    (a test runner's capture, a daemoniser) and later closes the old one. Assigning `stream`
    pins it (tests capture output that way); assigning None follows sys.stdout again.
    """

    def __init__(self) -> None:
        self._pinned: Any = None
        logging.Handler.__init__(self)  # not StreamHandler's, which would pin sys.stderr

    @property  # type: ignore[override]
    def stream(self) -> Any:
        return self._pinned if self._pinned is not None else sys.stdout

    @stream.setter
    def stream(self, value: Any) -> None:
        self._pinned = value


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, tz=UTC).isoformat(),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for name, value in vars(record).items():
            if name not in _STANDARD_RECORD_ATTRS and not name.startswith("_"):
                entry[name] = value
        if record.exc_info and not record.exc_text:
            record.exc_text = self.formatException(record.exc_info)
        if record.exc_text:
            entry["exception"] = record.exc_text
        return json.dumps(entry, default=str)


class RedactingExceptionReporterFilter(SafeExceptionReporterFilter):
    """Django's error reports (emails, debug pages) without credentials or passwords."""

    hidden_settings = re.compile(
        "API|AUTH|TOKEN|KEY|SECRET|PASS|SIGNATURE|HTTP_COOKIE|COOKIE", flags=re.IGNORECASE
    )

    def get_post_parameters(self, request: HttpRequest | None) -> Any:
        params = super().get_post_parameters(request)
        if request is None:
            return params
        cleansed = params.copy()
        for key in cleansed:
            if "password" in key.lower() or "token" in key.lower():
                cleansed[key] = self.cleansed_substitute
        return cleansed

"""The one error type of /api/v1, its catalog of messageKeys and the handler that renders it.

Every response under /api/v1 is ``{success, message, messageKey, data, traceId}``. Views raise
``ApiError("<messageKey>")`` (or let DRF/Django raise their own exceptions) and
``api_exception_handler`` renders them; nothing else builds an error body.
"""

from __future__ import annotations

import logging
import math
from typing import Any

from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpRequest, JsonResponse
from rest_framework import exceptions as drf
from rest_framework.response import Response

from api.envelope import envelope
from core.observability import current_trace_id

logger = logging.getLogger("maintplan.api")

BEARER_CHALLENGE = {"WWW-Authenticate": 'Bearer realm="api"'}
# The web app's JSON login answers a wrong password with 401 too; what would work there is the
# password login and its session cookie, not a Bearer key.
PASSWORD_CHALLENGE = {"WWW-Authenticate": 'Session realm="maintplan"'}
PASSWORD_ERRORS = {"auth.invalid_credentials"}
ERROR_CACHE_CONTROL = "no-store"

# messageKey -> (HTTP status, default message): the vocabulary of docs/subsystems/errors.md "One
# type, one catalogue, one handler".
ERROR_CATALOG: dict[str, tuple[int, str]] = {
    "auth.missing_api_key": (401, "Send your API key as 'Authorization: Bearer <key>'."),
    "auth.malformed_authorization": (
        401,
        "The Authorization header must be 'Bearer <key>' with a single space.",
    ),
    "auth.invalid_api_key": (401, "The API key is not valid."),
    "auth.api_key_revoked": (401, "The API key has been revoked."),
    "auth.api_key_expired": (401, "The API key has expired."),
    "auth.account_inactive": (403, "The account that owns this API key is inactive."),
    "auth.api_access_disabled": (
        403,
        "API access is not enabled for this account. Ask an administrator to enable it.",
    ),
    "auth.invalid_credentials": (401, "The email or password is not correct."),
    "auth.not_authenticated": (401, "Log in to use this route."),
    "auth.permission_denied": (403, "You do not have permission to do this."),
    "auth.insufficient_permission": (
        403,
        "This API key may only read. Create a key with the read and write permission to act.",
    ),
    "idempotency.mismatch": (
        409,
        "This Idempotency-Key was used for another request within 24 hours: use a new key.",
    ),
    "webhook_endpoints.not_found": (404, "Your organisation has no webhook endpoint with this id."),
    "webhook_endpoints.delivery_not_found": (
        404,
        "This webhook endpoint has no delivery with this id.",
    ),
    "webhook_endpoints.test_events_pending": (
        409,
        "Too many test events of your organisation are still waiting to be delivered: wait for "
        "them (see the deliveries) or redeliver one.",
    ),
    "suggestions.not_found": (404, "This plan has no suggestion with this id."),
    "actions.not_found": (404, "This plan has no action with this id."),
    "actions.state_conflict": (409, "The action is not in a state this act applies to."),
    "suggestions.state_conflict": (
        409,
        "The suggestion is not in a state this act applies to.",
    ),
    "validation.plan_number": (400, "planNumber must be an integer between 1 and 2147483647."),
    "validation.malformed_json": (400, "The request body is not valid JSON."),
    "validation.body_not_object": (400, "The request body must be a JSON object."),
    "validation.failed": (400, "Some fields are not valid; see data.errors."),
    "validation.query": (400, "Some query parameters are not valid; see data.errors."),
    "validation.unsupported_media_type": (415, "Send the request body as application/json."),
    "plans.not_found": (404, "No plan with this number is visible to you."),
    "portfolio.not_found": (
        404,
        "No organisation's portfolio with this slug is visible to this key.",
    ),
    "versions.not_found": (404, "This plan has no version with this id."),
    "pagination.cursor_expired": (
        410,
        "This cursor's walk of the list has expired: start again without cursor.",
    ),
    "routing.not_found": (404, "There is no such route in this API."),
    "routing.method_not_allowed": (405, "This method is not allowed on this route."),
    "routing.not_acceptable": (406, "This route answers with application/json only."),
    "request.too_large": (413, "The request body is too large for this API."),
    "request.length_required": (
        411,
        "Send the request body with a Content-Length header: this server cannot read a body "
        "sent in chunks.",
    ),
    "transport.https_required": (
        403,
        "This API answers over HTTPS only. The request was not processed; if it carried a key, "
        "treat that key as exposed and roll it.",
    ),
    "auth.locked_out": (
        429,
        "Too many failed logins for this account from your address. Retry after Retry-After.",
    ),
    "throttle.rate_limited": (429, "Too many requests. Retry after the time in Retry-After."),
    "server.error": (500, "Something went wrong on our side. Quote the traceId to support."),
    "server.unavailable": (
        503,
        "The service cannot reach its database right now. Retry after the time in Retry-After.",
    ),
}


class ApiError(Exception):
    """An error answer of the API, named by its messageKey."""

    def __init__(
        self,
        message_key: str,
        message: str | None = None,
        *,
        errors: dict[str, Any] | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        status, default_message = ERROR_CATALOG[message_key]
        self.status = status
        self.message_key = message_key
        self.message = message or default_message
        self.errors = errors
        self.headers = dict(headers or {})
        if status == 401:  # RFC 9110: every 401 names the scheme that would work
            challenge = PASSWORD_CHALLENGE if message_key in PASSWORD_ERRORS else BEARER_CHALLENGE
            self.headers.setdefault("WWW-Authenticate", challenge["WWW-Authenticate"])
        # No cache keeps an error: a shared one would answer the next client's GET with this
        # client's 401 or 429, and a private one would hide the fix (a new key, a new plan).
        # Every error envelope is made from an ApiError, so this is the one place that says so.
        self.headers.setdefault("Cache-Control", ERROR_CACHE_CONTROL)
        super().__init__(message_key)


def error_body(request: HttpRequest, error: ApiError) -> dict[str, Any]:
    data = {"errors": error.errors} if error.errors is not None else None
    return envelope(
        request, success=False, message=error.message, message_key=error.message_key, data=data
    )


def error_json_response(request: HttpRequest, error: ApiError) -> JsonResponse:
    """The envelope for errors raised outside DRF views (routing, Django's 500 handler)."""
    response = JsonResponse(error_body(request, error), status=error.status)
    for name, value in error.headers.items():
        response[name] = value
    return response


# Seconds a client is asked to wait while the database cannot be reached.
UNAVAILABLE_RETRY_AFTER = 5


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether `exc` says the database cannot be reached (down, restarting, a dropped or stale
    connection): a 503 the client may retry, not a bug (no traceback in the log)."""
    return isinstance(exc, OperationalError | InterfaceError)


def as_api_error(exc: Exception, view: Any = None) -> ApiError:
    """Translates any exception into the API's vocabulary."""
    if isinstance(exc, ApiError):
        return exc
    if database_unavailable(exc):
        return ApiError("server.unavailable", headers={"Retry-After": str(UNAVAILABLE_RETRY_AFTER)})
    if isinstance(exc, drf.ParseError):
        return ApiError("validation.malformed_json")
    if isinstance(exc, drf.UnsupportedMediaType):
        return ApiError("validation.unsupported_media_type")
    if isinstance(exc, drf.NotAcceptable):
        return ApiError("routing.not_acceptable")
    if isinstance(exc, drf.MethodNotAllowed):
        allowed = ", ".join(view.allowed_methods) if view is not None else ""
        return ApiError("routing.method_not_allowed", headers={"Allow": allowed})
    if isinstance(exc, drf.Throttled):
        wait = max(1, math.ceil(getattr(exc, "wait", None) or 1))
        return ApiError(
            "throttle.rate_limited",
            f"Too many requests. Retry in {wait} seconds.",
            headers={"Retry-After": str(wait)},
        )
    if isinstance(exc, drf.NotAuthenticated | drf.AuthenticationFailed):
        return ApiError("auth.not_authenticated")
    if isinstance(exc, drf.PermissionDenied | DjangoPermissionDenied):
        return ApiError("auth.permission_denied")
    if isinstance(exc, drf.ValidationError):
        detail = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        return ApiError("validation.failed", errors=detail)
    if isinstance(exc, DjangoValidationError):
        errors = (
            exc.message_dict if hasattr(exc, "error_dict") else {"non_field_errors": exc.messages}
        )
        return ApiError("validation.failed", errors=errors)
    if isinstance(exc, Http404 | drf.NotFound):
        return ApiError("routing.not_found")
    return ApiError("server.error")


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response:
    """DRF's EXCEPTION_HANDLER: every exception of an API view becomes an error envelope."""
    request = context["request"]
    error = as_api_error(exc, context.get("view"))
    if error.message_key == "server.unavailable":
        logger.warning(
            "database unavailable: %s",
            type(exc).__name__,
            extra={"trace_id": current_trace_id(request), "path": request.path},
        )
    elif error.status >= 500:
        logger.error(
            "unhandled API exception",
            exc_info=exc,
            extra={"trace_id": current_trace_id(request), "path": request.path},
        )
    return Response(error_body(request, error), status=error.status, headers=error.headers)


def api_not_found(request: HttpRequest, *args: Any, **kwargs: Any) -> JsonResponse:
    """Any path under /api/ that no route claims, whatever the method."""
    return error_json_response(request, ApiError("routing.not_found"))

"""The login lockout's hooks into django-axes (settings ``AXES_*``).

django-axes counts failed password checks per (account, address) in the cache and refuses the
pair once ``AXES_FAILURE_LIMIT`` is reached, for ``AXES_COOLOFF_TIME``. It sees every password
entry point because it is an authentication backend: the web login, the JSON login
(``/api/v1/auth/login/user``) and the admin login all call ``authenticate()``.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from api.errors import ApiError, error_json_response


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The account half of the lockout key: the email as typed, case and outer spaces ignored,
    so "Ada@Example.com " and "ada@example.com" share one counter.

    Axes passes its own credentials (``{"email": ...}``) from the backend and Django's
    (``{"username": ...}``) from the failed-login signal; a request without credentials (the
    middleware) falls back to the posted form.
    """
    source: Any = credentials or request.POST
    value = source.get("username") or source.get("email")
    return value.strip().lower() if isinstance(value, str) else None


def lockout_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """429 with Retry-After: the envelope (``auth.locked_out``) under /api/, a page elsewhere.

    Retry-After is the whole lockout: the cache does not tell portably how much of it is left.
    """
    seconds = lockout_seconds()
    minutes = max(1, seconds // 60)
    retry = {"Retry-After": str(seconds)}
    if request.path.startswith("/api/"):
        message = (
            f"Too many failed logins for this account from your address. "
            f"Try again in {minutes} minutes."
        )
        return error_json_response(request, ApiError("auth.locked_out", message, headers=retry))
    response = render(request, "accounts/locked_out.html", {"minutes": minutes}, status=429)
    response["Retry-After"] = retry["Retry-After"]
    return response

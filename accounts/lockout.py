"""The login lockout (settings ``AXES_*`` and ``LOGIN_ACCOUNT_*``; docs/subsystems/limits.md
"Logins").

django-axes counts failed password checks per (account, address) in the cache and refuses the
pair once ``AXES_FAILURE_LIMIT`` is reached, for ``AXES_COOLOFF_TIME``. It sees every password
entry point because it is an authentication backend: the web login, the JSON login
(``/api/v1/auth/login/user``) and the admin login all call ``authenticate()``.

Per pair alone, a botnet gets ``AXES_FAILURE_LIMIT`` guesses from each of its addresses. The
handler here (``AXES_HANDLER``) also counts failures per account across addresses: from the
``LOGIN_ACCOUNT_FAILURE_LIMIT``-th on, each failure refuses the account from every address for
a delay that starts at a minute and doubles with each further failure, up to
``LOGIN_ACCOUNT_MAX_DELAY_MINUTES``. Attempts refused during a delay are not counted; the
count is forgotten a day after its last failure. A successful login does not clear it (else
each of the owner's logins would hand the attacker a fresh allowance); a completed password
reset does (``login_lockout_lift``), together with the pair lockout of the address that made
the reset, so whoever holds the mailbox is back in at once however long the delay had grown.
"""

from __future__ import annotations

import hashlib
import math
import time
from typing import Any

from axes.handlers.cache import AxesCacheHandler
from axes.handlers.proxy import AxesProxyHandler
from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from accounts.throttles import account_key
from api.errors import ApiError, error_json_response

FIRST_ACCOUNT_DELAY_SECONDS = 60
ACCOUNT_FAILURES_KEPT_SECONDS = 24 * 60 * 60


def lockout_username(request: HttpRequest, credentials: dict[str, Any] | None) -> str | None:
    """The account half of the lockout key (``AXES_USERNAME_CALLABLE``): ``account_key`` of
    the email as typed.

    Axes passes its own credentials (``{"email": ...}``) from the backend and Django's
    (``{"username": ...}``) from the failed-login signal; a request without credentials (the
    middleware) falls back to the posted form.
    """
    source: Any = credentials or request.POST
    value = source.get("username") or source.get("email")
    return account_key(value) if isinstance(value, str) else None


def lockout_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def account_delay_seconds(*, failures: int) -> int:
    """How long the failure that brings an account's count to ``failures`` refuses the account:
    nothing below ``LOGIN_ACCOUNT_FAILURE_LIMIT``, then 1 minute, 2, 4, ... and at most
    ``LOGIN_ACCOUNT_MAX_DELAY_MINUTES``."""
    beyond = failures - settings.LOGIN_ACCOUNT_FAILURE_LIMIT
    if beyond < 0:
        return 0
    longest = settings.LOGIN_ACCOUNT_MAX_DELAY_MINUTES * 60
    return int(min(FIRST_ACCOUNT_DELAY_SECONDS * 2 ** min(beyond, 32), longest))


def _account_cache_keys(account: str) -> tuple[str, str]:
    """(failure count, end of the delay) of an account; hashed, so no email is in the cache."""
    digest = hashlib.sha256(account.encode()).hexdigest()
    return f"lockout:account:{digest}:failures", f"lockout:account:{digest}:until"


def _now() -> float:
    return time.time()


def account_lockout_seconds(*, account: str) -> int:
    """Seconds the account is still refused from every address; 0 when it is not."""
    until = cache.get(_account_cache_keys(account)[1])
    return max(0, math.ceil(until - _now())) if until is not None else 0


def account_failure_record(*, account: str) -> int:
    """Counts a failed login of the account from any address; returns the delay it starts (0
    for none)."""
    failures_key, until_key = _account_cache_keys(account)
    try:
        failures = cache.incr(failures_key)
    except ValueError:  # the first failure, or the count was forgotten meanwhile
        if cache.add(failures_key, 1, timeout=ACCOUNT_FAILURES_KEPT_SECONDS):
            failures = 1
        else:
            failures = cache.incr(failures_key)
    cache.touch(failures_key, ACCOUNT_FAILURES_KEPT_SECONDS)
    delay = account_delay_seconds(failures=failures)
    if delay:
        cache.set(until_key, _now() + delay, timeout=delay)
    return delay


def login_lockout_lift(*, email: str, address: str) -> None:
    """After a completed password reset: forgets the account's count across addresses and ends
    its delay, and ends the lockout of the pair (account, the address that made the reset).
    Pairs of other addresses stay locked until their cool-off: those are the guessers'."""
    account = account_key(email)
    cache.delete_many(list(_account_cache_keys(account)))
    AxesProxyHandler.reset_attempts(username=account, ip_address=address)


class AccountCeilingCacheHandler(AxesCacheHandler):
    """Axes' cache handler plus the ceiling per account across addresses (module docstring)."""

    def is_locked(self, request: Any, credentials: dict[str, Any] | None = None) -> bool:
        if super().is_locked(request, credentials):
            return True
        account = lockout_username(request, credentials)
        return account is not None and account_lockout_seconds(account=account) > 0

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        # Set when the attempt was refused by a lockout before its password was checked.
        refused = request is None or getattr(request, "axes_locked_out", False)
        super().user_login_failed(sender, credentials, request, **kwargs)
        account = lockout_username(request, credentials) if request is not None else None
        if refused or account is None:
            return
        if account_failure_record(account=account):
            # The failure that starts a delay is already answered as a lockout.
            request.axes_locked_out = True
            request.axes_credentials = credentials


def lockout_response(
    request: HttpRequest, original_response: HttpResponse | None, credentials: Any = None
) -> HttpResponse:
    """429 with Retry-After: the envelope (``auth.locked_out``) under /api/, a page elsewhere.

    A refusal of the account from every address says so and how long is left; a refusal of
    the pair gives the whole cool-off as Retry-After (the cache does not tell portably how
    much of it is left). Both point to the password reset, which lifts them.
    """
    account = lockout_username(request, credentials)
    account_seconds = account_lockout_seconds(account=account) if account else 0
    pair_locked = AxesProxyHandler.get_failures(request, credentials) >= (
        settings.AXES_FAILURE_LIMIT
    )
    seconds = max(account_seconds, lockout_seconds() if pair_locked else 0)
    minutes = max(1, math.ceil(seconds / 60))
    if account_seconds and not pair_locked:
        reason = "Too many failed logins for this account."
    else:
        reason = "Too many failed logins for this account from your address."
    retry = {"Retry-After": str(seconds)}
    if request.path.startswith("/api/"):
        message = f"{reason} Try again in {minutes} minutes, or reset your password."
        return error_json_response(request, ApiError("auth.locked_out", message, headers=retry))
    context = {"minutes": minutes, "reason": reason}
    response = render(request, "accounts/locked_out.html", context, status=429)
    response["Retry-After"] = retry["Retry-After"]
    return response

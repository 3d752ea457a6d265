"""Rate limits of the password pages and their 429 page (docs/subsystems/limits.md "Limits").

The counters are DRF throttles (api.throttling) in the default cache, so every app server
shares them when it is Redis.
"""

from __future__ import annotations

import hashlib
import math
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from api.throttling import ClientAddressThrottle, SettingsRateThrottle


def account_key(email: str) -> str:
    """The account half of every per-account counter (lockouts, reset requests): the email as
    typed, case and outer spaces ignored, so "Ada@Example.com " and "ada@example.com" share
    one. Whether an account has that email plays no part, so no counter tells."""
    return email.strip().lower()


class PasswordResetAddressThrottle(ClientAddressThrottle):
    """Reset requests per client address (``PASSWORD_RESET_ADDRESS_THROTTLE_RATE``): one
    machine cannot mail every account it can name."""

    scope = "password_reset_address"


class PasswordResetAccountThrottle(SettingsRateThrottle):
    """Reset requests per email as typed (``PASSWORD_RESET_ACCOUNT_THROTTLE_RATE``), from any
    address: a botnet cannot fill one mailbox. Counted whether or not an account has the
    email, so the 429 says nothing about which emails have accounts."""

    scope = "password_reset_account"

    def __init__(self, *, email: str) -> None:
        super().__init__()
        # Hashed: a cache key of bounded length and characters, and no emails in the cache.
        self.ident = hashlib.sha256(account_key(email).encode()).hexdigest()

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_key_for(f"email:{self.ident}")


# What the 429 page says, per throttle scope.
_REASONS = {
    "auth": "Too many attempts from your address.",
    "password_reset_address": "Too many password reset requests from your address.",
    # Each request let through sent the owner a link that works for PASSWORD_RESET_TIMEOUT (3
    # days), so whoever spent the allowance, the owner already holds a way in.
    "password_reset_account": (
        "Too many password reset requests for this email address. Any reset link already "
        "sent to it still works: look in that mailbox, and in its spam folder."
    ),
}


def throttled_page(request: HttpRequest, *throttles: SettingsRateThrottle) -> HttpResponse | None:
    """None when every throttle lets the request through (each counts it), else the 429 page
    with Retry-After. Throttles are asked in order; the first that refuses stops the rest."""
    for throttle in throttles:
        if not throttle.allow_request(request, None):  # type: ignore[arg-type]
            wait = math.ceil(throttle.wait() or 60)
            reason = _REASONS[throttle.scope]
            context = {"wait": wait, "minutes": math.ceil(wait / 60), "reason": reason}
            response = render(request, "accounts/throttled.html", context, status=429)
            response["Retry-After"] = str(wait)
            return response
    return None

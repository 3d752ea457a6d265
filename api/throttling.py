"""Rate limits backed by Django's cache (shared between app servers when it is Redis)."""

from __future__ import annotations

import math
from typing import Any

from django.conf import settings
from django.http import HttpRequest
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle


def client_address(request: HttpRequest) -> str:
    """The client's address as every per-address limit sees it: REMOTE_ADDR, or the entry of
    X-Forwarded-For that the ``NUM_PROXIES`` trusted proxies appended (DRF's rule)."""
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]  # reads META only


class SettingsRateThrottle(SimpleRateThrottle):
    """A DRF throttle whose rate is looked up in MAINTPLAN_THROTTLE_RATES on every request."""

    scope: str

    def get_rate(self) -> str | None:
        return settings.MAINTPLAN_THROTTLE_RATES[self.scope]  # type: ignore[no-any-return]

    def cache_key_for(self, ident: str) -> str:
        return self.cache_format % {"scope": self.scope, "ident": ident}


class ClientAddressThrottle(SettingsRateThrottle):
    """Per client address, for the password routes (login, registration)."""

    scope = "auth"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_key_for(self.get_ident(request))


class UserThrottle(SettingsRateThrottle):
    """Per logged-in account, for a web form whose answers could be harvested (a subclass names
    the scope)."""

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_key_for(f"user:{request.user.pk}")


class ApiKeyThrottle(SettingsRateThrottle):
    """Per API key on the integrator endpoints (rate: MAINTPLAN_THROTTLE_RATES["api_key"]).

    Requests that carry no authenticated key (possible only on a view that also accepts other
    credentials) are counted per client address instead.

    The count is a sliding-window counter (one ``cache.incr``-ed counter per fixed window; the
    estimate is ``previous window x the share of it still inside the sliding window + current
    window``), not DRF's per-request timestamp log (docs/subsystems/limits.md "Rate limits").
    """

    scope = "api_key"
    num_requests: int  # set from the rate by SimpleRateThrottle.__init__
    duration: int

    def get_cache_key(self, request: Any, view: Any) -> str:
        # request.auth is the authenticated key (an integrations.ApiKey row) on integrator views.
        key_id = getattr(request.auth, "pk", None)
        if key_id is not None:
            return self.cache_key_for(f"key:{key_id}")
        return self.cache_key_for(f"addr:{self.get_ident(request)}")

    def allow_request(self, request: Any, view: Any) -> bool:
        if self.rate is None:
            return True
        base_key = self.get_cache_key(request, view)
        self.now = self.timer()
        window = int(self.now // self.duration)
        current_key, previous_key = f"{base_key}:{window}", f"{base_key}:{window - 1}"
        counts = self.cache.get_many([current_key, previous_key])
        self.elapsed = self.now - window * self.duration
        self.previous_count = counts.get(previous_key, 0)
        self.current_count = counts.get(current_key, 0)
        # Rounded up, so a window boundary never lets a request through early.
        estimate = self.current_count + math.ceil(
            self.previous_count * (1 - self.elapsed / self.duration)
        )
        if estimate >= self.num_requests:
            return False
        self._count(current_key)
        return True

    def _count(self, key: str) -> None:
        try:
            self.cache.incr(key)
        except ValueError:  # the window's first request (or its counter just expired)
            # Kept for two windows: the next window still reads this one as its previous.
            if not self.cache.add(key, 1, timeout=2 * self.duration):
                self.cache.incr(key)

    # The name of this limit in the RateLimit headers (docs/subsystems/limits.md "Rate limits").
    policy_name = "key"

    @property
    def remaining(self) -> int:
        """Requests left in the sliding window after this one (0 when refused)."""
        estimate = self.current_count + math.ceil(
            self.previous_count * (1 - self.elapsed / self.duration)
        )
        return max(self.num_requests - estimate - 1, 0)

    def rate_limit_headers(self) -> tuple[str, str]:
        """(RateLimit-Policy, RateLimit) of this limit (IETF httpapi-ratelimit-headers, draft
        10): its quota and window, what is left and the seconds until the window moves on."""
        reset = max(math.ceil(self.duration - self.elapsed), 1)
        return (
            f'"{self.policy_name}";q={self.num_requests};w={self.duration}',
            f'"{self.policy_name}";r={self.remaining};t={reset}',
        )

    def wait(self) -> float | None:
        """Seconds until the next request is allowed (the Retry-After of a 429)."""
        # Allowed again once ceil(weighted previous) + current <= limit - 1, the previous
        # window's weight falling linearly from 1 to 0 across the current one.
        room = self.num_requests - 1
        if self.current_count <= room and self.previous_count:
            share_left = (room - self.current_count) / self.previous_count
            return max(self.duration * (1 - share_left) - self.elapsed, 1.0)
        # Only the next window helps; there, this window's count is the one that slides out.
        share_left = room / max(self.current_count, 1)
        return self.duration - self.elapsed + self.duration * (1 - share_left)


class ApiUserThrottle(ApiKeyThrottle):
    """Per account across all of its keys (rate: MAINTPLAN_THROTTLE_RATES["api_user"]), so more
    keys do not buy more requests; the same sliding-window counter as the per-key limit. The
    account is the key's `holder_key`: a person for their own keys, the organisation for its
    service accounts."""

    scope = "api_user"
    policy_name = "account"

    def get_cache_key(self, request: Any, view: Any) -> str:
        holder = getattr(request.auth, "holder_key", None)
        if holder is not None:
            return self.cache_key_for(str(holder))
        return self.cache_key_for(f"addr:{self.get_ident(request)}")


class AuthFailureThrottle(ApiKeyThrottle):
    """Failed authentications (no key, a malformed, unknown, revoked or expired one) per client
    address (rate: MAINTPLAN_THROTTLE_RATES["api_auth_failure"]): past the limit the address gets
    429 before its key is even read. Only failures count; the same sliding-window counter."""

    scope = "api_auth_failure"
    policy_name = "address"

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_key_for(f"addr:{self.get_ident(request)}")

    def exceeded(self, request: Any) -> bool:
        """True when the address used up its failures (nothing is counted)."""
        if self.rate is None:
            return False
        base_key = self.get_cache_key(request, None)
        self.now = self.timer()
        window = int(self.now // self.duration)
        self._current_key = f"{base_key}:{window}"
        counts = self.cache.get_many([self._current_key, f"{base_key}:{window - 1}"])
        self.elapsed = self.now - window * self.duration
        self.previous_count = counts.get(f"{base_key}:{window - 1}", 0)
        self.current_count = counts.get(self._current_key, 0)
        estimate = self.current_count + math.ceil(
            self.previous_count * (1 - self.elapsed / self.duration)
        )
        return estimate >= self.num_requests

    def failed(self) -> None:
        """Counts one failure of the address read by `exceeded`."""
        if self.rate is not None:
            self._count(self._current_key)

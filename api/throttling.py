"""Rate limits backed by Django's cache (shared between app servers when it is Redis).

Every limit an integrator request meets says itself out loud (IETF RateLimit headers, draft 10)
through the same three things (`SaidLimit`): what is left, the headers, and the seconds until a
refused request would be let through, which is both a 429's `Retry-After` and its `RateLimit`
`t`, so the two always agree."""

from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any, Protocol

from django.conf import settings
from django.http import HttpRequest
from django.utils.crypto import salted_hmac
from rest_framework.throttling import BaseThrottle, SimpleRateThrottle


def client_address(request: HttpRequest) -> str:
    """The client's address as every per-address limit sees it: REMOTE_ADDR, or the entry of
    X-Forwarded-For that the ``NUM_PROXIES`` trusted proxies appended (DRF's rule)."""
    return str(BaseThrottle().get_ident(request))  # type: ignore[arg-type]  # reads META only


def _counter_incr(cache: Any, key: str, *, timeout: int) -> int:
    """Adds one to the window counter `key` (made, kept `timeout` seconds, by the window's first
    request or when it just expired) and returns its count: one `cache.incr`, and of two app
    servers making it at once the one that loses the `add` increments the other's."""
    try:
        return int(cache.incr(key))
    except ValueError:  # no counter yet
        if cache.add(key, 1, timeout=timeout):
            return 1
        return int(cache.incr(key))


class SaidLimit(Protocol):
    """A limit that counted a request, as the RateLimit headers say it."""

    @property
    def remaining(self) -> int: ...

    def rate_limit_headers(self) -> tuple[str, str]: ...

    def retry_after(self) -> int: ...


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
        # Kept for two windows: the next window still reads this one as its previous.
        _counter_incr(self.cache, current_key, timeout=2 * self.duration)
        self.current_count += 1  # what follows (remaining, wait) counts this request in
        return True

    # The name of this limit in the RateLimit headers (docs/subsystems/limits.md "Rate limits").
    policy_name = "key"

    @property
    def remaining(self) -> int:
        """Requests left in the sliding window after this one (0 when refused)."""
        estimate = self.current_count + math.ceil(
            self.previous_count * (1 - self.elapsed / self.duration)
        )
        return max(self.num_requests - estimate, 0)

    def rate_limit_headers(self) -> tuple[str, str]:
        """(RateLimit-Policy, RateLimit) of this limit (IETF httpapi-ratelimit-headers, draft
        10): its quota and window, what is left, and the seconds until the window moves on or,
        with nothing left, until the next request is let through (the `Retry-After` of its
        429, the same number)."""
        remaining = self.remaining
        moves_on = max(math.ceil(self.duration - self.elapsed), 1)
        reset = moves_on if remaining else self.retry_after()
        return (
            f'"{self.policy_name}";q={self.num_requests};w={self.duration}',
            f'"{self.policy_name}";r={remaining};t={reset}',
        )

    def retry_after(self) -> int:
        """Whole seconds until a request is let through again (at least 1)."""
        return max(math.ceil(self.wait()), 1)

    def wait(self) -> float:
        """Seconds until the next request is allowed (`retry_after` rounds it up)."""
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


class _FailureRate(SettingsRateThrottle):
    """The rate of one failure limit (its quota, window and cache), read from the settings."""

    num_requests: int  # set from the rate by SimpleRateThrottle.__init__
    duration: int

    def __init__(self, scope: str) -> None:
        self.scope = scope
        super().__init__()


@dataclass
class FailureLimit:
    """One limit on failed authentications: `count` failures in the current minute (window) of
    the clock, which ends at `window_end`."""

    policy_name: str
    quota: int
    duration: int
    count: int
    now: float
    window_end: float
    key: str  # the cache key of this window's count

    @property
    def exceeded(self) -> bool:
        return self.count >= self.quota

    @property
    def remaining(self) -> int:
        return max(self.quota - self.count, 0)

    def retry_after(self) -> int:
        """Seconds until the window ends and its count with it (at least 1)."""
        return max(math.ceil(self.window_end - self.now), 1)

    def rate_limit_headers(self) -> tuple[str, str]:
        return (
            f'"{self.policy_name}";q={self.quota};w={self.duration}',
            f'"{self.policy_name}";r={self.remaining};t={self.retry_after()}',
        )


class AuthFailureThrottle:
    """Failed authentications under /api/v1 (no key, a malformed, unknown, revoked or expired
    one: every 401), counted by two limits and checked before the key is read:

    - per client address and presented credential (`failed-key`,
      MAINTPLAN_THROTTLE_RATES["api_auth_failure"], 20 a minute): a client sending a wrong key
      is slowed while a right key from the same address (another credential) is not. The
      credential is a keyed hash of the whole Authorization header (none is one value too), so
      a typo anywhere in a key counts apart from the key it was copied from, and no key or
      part of one is kept in the cache;
    - per client address whatever the credential (`address`,
      MAINTPLAN_THROTTLE_RATES["api_auth_failure_address"], 300 a minute): the ceiling for a
      client trying many keys. One wrong key adds at most its own allowance a minute (once
      refused it is refused before it is read, and a refusal counts nothing), so a
      misconfigured job cannot bring an address to it.

    Each counts per window of the clock (one cache counter per window, `cache.incr`-ed): once a
    minute has passed without failures the whole allowance is there again, and a refusal's
    `Retry-After` is the end of the window, which is also what its `RateLimit` says.
    """

    timer = staticmethod(time.time)

    def __init__(self, request: HttpRequest) -> None:
        address = client_address(request)
        presented = request.META.get("HTTP_AUTHORIZATION", "")
        credential = salted_hmac("api.throttling.failed-key", presented).hexdigest()[:32]
        self.now = self.timer()
        self.limits: list[FailureLimit] = []
        rates = [
            ("failed-key", _FailureRate("api_auth_failure"), f"addr:{address}:{credential}"),
            ("address", _FailureRate("api_auth_failure_address"), f"addr:{address}"),
        ]
        for name, rate, ident in rates:
            if rate.rate is None:
                continue
            window = int(self.now // rate.duration)
            self.limits.append(
                FailureLimit(
                    policy_name=name,
                    quota=rate.num_requests,
                    duration=rate.duration,
                    count=0,
                    now=self.now,
                    window_end=(window + 1) * rate.duration,
                    key=f"{rate.cache_key_for(ident)}:{window}",
                )
            )
        self._cache = _FailureRate.cache
        counts = self._cache.get_many([limit.key for limit in self.limits])
        for limit in self.limits:
            limit.count = counts.get(limit.key, 0)

    def refusing(self) -> FailureLimit | None:
        """The exhausted limit that keeps the client waiting longest, or None."""
        exhausted = [limit for limit in self.limits if limit.exceeded]
        return max(exhausted, key=FailureLimit.retry_after, default=None)

    def failed(self) -> FailureLimit | None:
        """Counts one failure in every limit; the tightest of them after it (for the 401's
        RateLimit headers), or None when no limit is set."""
        for limit in self.limits:
            limit.count = _counter_incr(self._cache, limit.key, timeout=limit.duration)
        return min(self.limits, key=lambda limit: limit.remaining, default=None)

"""Rate limits backed by Django's cache (shared between app servers when it is Redis)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle

from integrations.models import ApiKey


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


class ApiKeyThrottle(SettingsRateThrottle):
    """Per API key on the integrator endpoints (rate: MAINTPLAN_THROTTLE_RATES["api_key"]).

    Requests that carry no authenticated key (possible only on a view that also accepts other
    credentials) are counted per client address instead.
    """

    scope = "api_key"

    def get_cache_key(self, request: Any, view: Any) -> str:
        if isinstance(request.auth, ApiKey):
            return self.cache_key_for(f"key:{request.auth.pk}")
        return self.cache_key_for(f"addr:{self.get_ident(request)}")

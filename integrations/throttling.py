"""Rate limits backed by Django's cache (shared between app servers when it is Redis)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from rest_framework.throttling import SimpleRateThrottle


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

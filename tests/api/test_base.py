"""The integrator base view takes its authentication from the view, never from settings."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from api.base import IntegratorApiView


def test_an_integrator_view_that_names_no_authentication_is_refused() -> None:
    class Unauthenticated(IntegratorApiView):
        pass

    with pytest.raises(ImproperlyConfigured, match="Unauthenticated names no authentication"):
        Unauthenticated().get_authenticators()


def test_the_views_authentication_classes_are_used() -> None:
    class Authentication:
        pass

    class Authenticated(IntegratorApiView):
        authentication_classes = [Authentication]

    (authenticator,) = Authenticated().get_authenticators()
    assert isinstance(authenticator, Authentication)


def test_a_limit_without_ratelimit_headers_still_refuses() -> None:
    """Any throttle of the view that refuses makes a 429, not only the limits that say their
    RateLimit headers (ApiKeyThrottle)."""
    from rest_framework.exceptions import Throttled
    from rest_framework.test import APIRequestFactory
    from rest_framework.throttling import BaseThrottle

    class Closed(BaseThrottle):
        def allow_request(self, request: object, view: object) -> bool:
            return False

        def wait(self) -> float:
            return 7.0

    class Nobody:
        def authenticate(self, request: object) -> None:
            return None

    class Limited(IntegratorApiView):
        authentication_classes = [Nobody]
        throttle_classes = [Closed]

    view = Limited()
    request = view.initialize_request(APIRequestFactory().get("/api/v1/x"))
    with pytest.raises(Throttled) as refused:
        view.check_throttles(request)
    assert refused.value.get_codes() == "throttled"
    assert "7 seconds" in str(refused.value.detail)

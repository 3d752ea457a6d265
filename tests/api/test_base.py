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

"""The base view of the integrator operations (the Bearer-key routes of the public schema)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework.exceptions import NotAcceptable
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.views import APIView

from api.throttling import ApiKeyThrottle, ApiUserThrottle

# OPTIONS answers 405 (there is no metadata document), so no route lists it in `Allow`.
ANSWERED_METHODS = [method for method in APIView.http_method_names if method != "options"]


class ApiView(APIView):
    """The base of every /api/v1 view: ``Allow`` (on a 405 and on every answer DRF gives it to)
    lists only the methods that answer, so OPTIONS, which is a 405 here, is not among them."""

    http_method_names = ANSWERED_METHODS


class IntegratorApiView(ApiView):
    """Permission, throttling and content negotiation of every integrator operation.

    The authentication comes from the view: the app that owns the Bearer keys (integrations)
    sets ``authentication_classes`` on each of its views, since this platform layer sits below
    it and never imports it. A view that names none is refused at its first request (no silent
    anonymous route). The authentication raises on every failure, so a view never sees an
    anonymous request; the throttles count per key and per account across its keys.
    drf-spectacular reads the security scheme from ``get_authenticators()``.
    """

    authentication_classes: list[Any] = []
    permission_classes = [IsAuthenticated]
    throttle_classes = [ApiKeyThrottle, ApiUserThrottle]
    _not_acceptable = False

    def get_authenticators(self) -> list[Any]:
        if not self.authentication_classes:
            raise ImproperlyConfigured(f"{type(self).__name__} names no authentication_classes")
        return super().get_authenticators()

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        """An `Accept` this route cannot answer is a 406 only after authentication (a request
        without a usable key learns that first, docs/design.md "Errors"); DRF negotiates before
        it authenticates, so the refusal waits until `check_permissions`."""
        try:
            return super().perform_content_negotiation(request, force)
        except NotAcceptable:
            self._not_acceptable = True
            return super().perform_content_negotiation(request, force=True)

    def check_permissions(self, request: Request) -> None:
        super().check_permissions(request)
        if self._not_acceptable:
            raise NotAcceptable()

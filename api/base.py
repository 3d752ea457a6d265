"""The base view of the integrator operations (the Bearer-key routes of the public schema)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ImproperlyConfigured
from rest_framework.exceptions import NotAcceptable, Throttled
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.errors import ApiError
from api.throttling import ApiKeyThrottle, ApiUserThrottle, AuthFailureThrottle, SaidLimit

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
    # The limits that counted this request, for its RateLimit headers.
    _limits: list[SaidLimit] = []

    def perform_authentication(self, request: Request) -> None:
        """Failed authentications are limited per address and presented key, and per address
        (api.throttling.AuthFailureThrottle): past a limit the request gets 429 before its key
        is read; each 401 counts one failure and says the tightest failure limit."""
        failures = AuthFailureThrottle(request._request)
        refusing = failures.refusing()
        if refusing is not None:
            self._limits = [refusing]
            raise Throttled(wait=refusing.retry_after())
        try:
            super().perform_authentication(request)
        except ApiError as error:
            if error.status == 401:
                tightest = failures.failed()
                self._limits = [tightest] if tightest is not None else []
            raise

    def check_throttles(self, request: Request) -> None:
        """DRF's, keeping each limit for the RateLimit headers; a 429 names the limit that
        keeps the client waiting longest, whose wait is its Retry-After."""
        self._limits = []
        refused: list[ApiKeyThrottle] = []
        other_waits: list[float | None] = []  # a refusal by a limit without RateLimit headers
        for throttle in self.get_throttles():
            allowed = throttle.allow_request(request, self)
            if isinstance(throttle, ApiKeyThrottle) and throttle.rate is not None:
                self._limits.append(throttle)
                if not allowed:
                    refused.append(throttle)
            elif not allowed:
                other_waits.append(throttle.wait())
        if refused:
            longest = max(refused, key=lambda throttle: throttle.retry_after())
            self._limits = [longest]
            raise Throttled(wait=longest.retry_after())
        if other_waits:
            raise Throttled(wait=max((w for w in other_waits if w is not None), default=None))

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        """Every answer a limit counted, and every 429, says the tightest limit out loud."""
        response = super().finalize_response(request, response, *args, **kwargs)
        if self._limits:
            tightest = min(self._limits, key=lambda limit: limit.remaining)
            response["RateLimit-Policy"], response["RateLimit"] = tightest.rate_limit_headers()
        return response

    def get_authenticators(self) -> list[Any]:
        if not self.authentication_classes:
            raise ImproperlyConfigured(f"{type(self).__name__} names no authentication_classes")
        return super().get_authenticators()

    def perform_content_negotiation(self, request: Request, force: bool = False) -> Any:
        """An `Accept` this route cannot answer is a 406 only after authentication (a request
        without a usable key learns that first, docs/subsystems/errors.md "Choices worth knowing");
        DRF negotiates before it authenticates, so the refusal waits until `check_permissions`."""
        try:
            return super().perform_content_negotiation(request, force)
        except NotAcceptable:
            self._not_acceptable = True
            return super().perform_content_negotiation(request, force=True)

    def check_permissions(self, request: Request) -> None:
        super().check_permissions(request)
        if self._not_acceptable:
            raise NotAcceptable()

"""Answers to a signed-in browser are never stored by a cache (its own or one on the way)."""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse
from django.utils.cache import add_never_cache_headers

from accounts.actor import Actor, acting


class NoStoreWhenSignedInMiddleware:
    """``Cache-Control: no-store`` (with Django's other never-cache headers) on every answer to
    a request with a logged-in session: plan pages, key screens and the admin carry personal
    data, and a shared computer's back button or disk cache must not show them after logout.

    A view that chose its own caching (an ETag list answer with ``private, no-cache``) keeps it.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated and not response.has_header("Cache-Control"):
            add_never_cache_headers(response)
        return response


class ActorMiddleware:
    """The request's principal (a signed-in person, or an API key's service account once the
    API view has authenticated it) is who acts while the request is served (accounts.actor)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        with acting(lambda: Actor.of_principal(getattr(request, "user", None))):
            return self.get_response(request)

"""The app's own "Page not found" under `make run` too.

With DEBUG on (the development default, docs/subsystems/web-app.md "Web app") Django answers a
guessed URL or an `Http404` with its technical page, which lists every URL pattern: not what a
person trying the app should see, and not what production shows. This middleware gives such an HTML
404 the page the URLconf's 404 handler renders in production (templates/404.html). It changes
nothing with DEBUG off (Django already uses that handler) and leaves JSON answers (the API's 404
envelope) alone. Set DJANGO_DEBUG_TECHNICAL_404=true to see Django's page while debugging URLs.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.urls import get_resolver


class AppNotFoundPageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            settings.DEBUG
            and not settings.DEBUG_TECHNICAL_404
            and response.status_code == 404
            and response.get("Content-Type", "").startswith("text/html")
        ):
            # handler404 takes the exception too; django-stubs types it without.
            handler: Callable[..., HttpResponse] = get_resolver().resolve_error_handler(404)
            return handler(request, Http404())
        return response

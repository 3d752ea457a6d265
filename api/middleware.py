"""Guards of /api/ that run before routing: HTTPS only (403) and the request-body limit (413);
docs/design.md "Errors" says why each is a middleware."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse

from api.errors import ApiError, error_json_response

API_PATH = "/api"


def is_api_path(request: HttpRequest) -> bool:
    return request.path == API_PATH or request.path.startswith(f"{API_PATH}/")


class ApiHttpsRequiredMiddleware:
    """Plain http under /api while the TLS redirect is on (``SECURE_SSL_REDIRECT``) is a 403
    ``transport.https_required`` in the envelope, never a redirect (the key has already
    crossed the network). The rest of the site is redirected by Django's SecurityMiddleware,
    which settings exempt /api from."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.SECURE_SSL_REDIRECT and is_api_path(request) and not request.is_secure():
            return error_json_response(request, ApiError("transport.https_required"))
        return self.get_response(request)


class ApiBodyLimitMiddleware:
    """Answers 413 ``request.too_large`` for a body over ``API_MAX_BODY_BYTES`` on any path
    under /api (the same paths as the JSON 404), before routing, authentication or a parser
    sees the request: first a declared ``Content-Length``, unread; else ``request.body``,
    read and measured (the view then reads the same bytes). Django's own refusal of a body
    over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is a 413 too, so the smaller setting is the limit.
    Under WSGI a chunked body reads as empty. Why a middleware: docs/design.md "Errors".
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api_path(request):
            limit: int = settings.API_MAX_BODY_BYTES
            if _body_over(request, limit):
                message = f"The request body is too large: this API accepts at most {limit} bytes."
                return error_json_response(request, ApiError("request.too_large", message))
        return self.get_response(request)


def _body_over(request: HttpRequest, limit: int) -> bool:
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        # Servers refuse a malformed Content-Length before Django sees it; should one arrive,
        # it is left to the view as before, which treats it as no body.
        return False
    if declared > limit:
        return True
    try:
        return len(request.body) > limit
    except RequestDataTooBig:
        return True

"""Guards of /api/ that run before routing: HTTPS only (403) and the request-body limit
(DESIGN.md "Limits": at most ``API_MAX_BODY_BYTES``, 413)."""

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
    ``transport.https_required`` in the envelope, never a redirect: the request, its key
    included, already crossed the network in clear text, and a client that follows the
    redirect would send it a second time. The rest of the site is redirected by Django's
    SecurityMiddleware (settings exempt /api from it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if settings.SECURE_SSL_REDIRECT and is_api_path(request) and not request.is_secure():
            return error_json_response(request, ApiError("transport.https_required"))
        return self.get_response(request)


class ApiBodyLimitMiddleware:
    """Answers 413 ``request.too_large`` for a body over ``API_MAX_BODY_BYTES`` on any path
    under /api (the same paths as the JSON 404), before routing, authentication or a parser
    sees the request.

    A middleware rather than the JSON parser because a parser runs only where a view reads its
    body: the 404 catch-all and a request refused by authentication never parse, and Django's
    own ``RequestDataTooBig`` escaping a view is a 500 with a traceback in the log. Here one
    check answers every route alike, before any work is spent on the request.

    The checks, in order:
    1. A declared ``Content-Length`` over the limit is refused without reading a byte.
    2. Otherwise the body is read here through ``request.body`` and measured; that is what
       catches a body sent without Content-Length (chunked), which the ASGI handler has
       already buffered. Django's own guard (``DATA_UPLOAD_MAX_MEMORY_SIZE``) refuses a
       buffered body larger than itself without loading it into memory, and that refusal is
       a 413 here too, so the smaller of the two settings is the effective limit. Under WSGI
       Django reads no more than the declared length, so a chunked body reads as empty.
    ``request.body`` keeps what it read, so the view reads the same bytes.
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

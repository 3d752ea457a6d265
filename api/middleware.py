"""Guards of /api/ that run before routing: HTTPS only (403) and the request body, read when
it comes without a length and refused over the limit (413) or when unreadable (411);
docs/subsystems/errors.md "Errors" says why each is a middleware."""

from __future__ import annotations

import io
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.core.handlers.asgi import ASGIRequest
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

    A body without a ``Content-Length`` (``Transfer-Encoding: chunked``, or any body under
    ASGI) is read here, at most one byte over the limit, and handed on as if it had come with
    its length: Django's WSGI request and DRF read no body without one, so a chunked body used
    to reach the view as empty. A WSGI server that cannot tell where such a body ends (no
    ``wsgi.input_terminated``, e.g. ``runserver``) gets a 411 ``request.length_required``
    instead. Why a middleware: docs/subsystems/errors.md "Choices worth knowing".
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if is_api_path(request):
            limit: int = settings.API_MAX_BODY_BYTES
            if _length_unknown(request):
                body = _unsized_body_read(request, limit)
                if body is None:
                    return error_json_response(request, ApiError("request.length_required"))
                _body_install(request, body)
            if _body_over(request, limit):
                message = f"The request body is too large: this API accepts at most {limit} bytes."
                return error_json_response(request, ApiError("request.too_large", message))
        return self.get_response(request)


def _length_unknown(request: HttpRequest) -> bool:
    """Whether the request may carry a body whose length it does not declare: a
    ``Transfer-Encoding`` (HTTP/1.1 chunked), or any request under ASGI (HTTP/2 needs no
    ``Content-Length`` either). Without either, HTTP/1.1 says there is no body."""
    if request.META.get("CONTENT_LENGTH"):
        return False
    return "HTTP_TRANSFER_ENCODING" in request.META or isinstance(request, ASGIRequest)


def _unsized_body_read(request: HttpRequest, limit: int) -> bytes | None:
    """The body, or its first ``limit + 1`` bytes when it is longer; None when the server
    cannot tell where it ends (reading on would wait for the client forever)."""
    if isinstance(request, ASGIRequest):
        # Django's ASGI handler has received the whole body already.
        return request.read(limit + 1)
    if not request.META.get("wsgi.input_terminated"):
        return None
    # gunicorn and other servers that decode the chunks end the input at the body's end
    # (PEP 3333 leaves read(n) free to return less than n before the end, hence the loop).
    stream = request.META["wsgi.input"]
    parts: list[bytes] = []
    size = 0
    while size <= limit:
        part = stream.read(limit + 1 - size)
        if not part:
            break
        parts.append(part)
        size += len(part)
    return b"".join(parts)


def _body_install(request: HttpRequest, body: bytes) -> None:
    """Makes ``body`` the request's body as if it had come with a ``Content-Length``: for
    ``request.body`` and for DRF, which reads nothing when the length is missing or 0."""
    request.META["CONTENT_LENGTH"] = str(len(body))
    request._stream = io.BytesIO(body)  # what HttpRequest.read and .body read from
    request._read_started = False  # type: ignore[attr-defined]  # read() under ASGI set it


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

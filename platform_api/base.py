"""The base view of the platform's read routes (every endpoint module's GETs): the Bearer key,
orjson, gzip, and an ETag with `If-None-Match` (docs/subsystems/integrator-api.md "Integrator
API")."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import IntegratorApiView
from api.compression import gzip_accepted, gzip_response
from api.conditional import etag_matches, not_modified
from api.envelope import api_response, envelope
from api.renderers import FastJSONRenderer
from apikeys.authentication import ApiKeyAuthentication
from apikeys.models import ApiKey

_FORMAT = 1

# Renders the answer's envelope around the given `data`.
Render = Callable[[Any], bytes]


def etag_of(*parts: object) -> str:
    """A weak validator of an answer: the parts that name its state, hashed."""
    text = "|".join(str(part) for part in (_FORMAT, *parts))
    return f'W/"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'


def key_of(request: Request) -> ApiKey:
    assert isinstance(request.auth, ApiKey)  # ApiKeyAuthentication raises otherwise
    return request.auth


class RecordApi(IntegratorApiView):
    """A read route: the answer is rendered by orjson (a whole list of a big plan is tens of
    MB), gzip-compressed for a client that accepts it, and `answer()` turns an unchanged one
    into a 304 without building it."""

    authentication_classes = [ApiKeyAuthentication]
    renderer_classes = [FastJSONRenderer]

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            response.render()  # nothing to do for a body `answer` compressed
            gzip_response(request, response)  # nor here: it says its Content-Encoding
        return response

    def answer(
        self,
        request: Request,
        etag: str,
        build: Callable[[], Any],
        gzipped: Callable[[Render], bytes | None] | None = None,
    ) -> Response:
        """304 when `If-None-Match` names `etag`; else 200 with `build()` as `data`. For an
        answer kept compressed (platform_api.list_cache), `gzipped(render)` gives the whole
        gzip body for a client that accepts gzip and compact JSON, or None to answer as usual
        (`render(data)` renders the envelope around `data`)."""
        headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Accept-Encoding"}
        if etag_matches(request, etag):
            return not_modified(headers)
        body = None
        if gzipped is not None and gzip_accepted(request) and not self._indented(request):
            body = gzipped(lambda data: self._envelope_rendered(request, data))
        if body is not None:
            response = Response(status=200)
            response.content = body  # rendered: DRF renders nothing more
            response["Content-Type"] = FastJSONRenderer.media_type
            response["Content-Encoding"] = "gzip"
            response["Content-Length"] = str(len(body))
        else:
            response = api_response(request, build())
        for name, value in headers.items():
            response[name] = value
        return response

    def _indented(self, request: Request) -> bool:
        renderer = request.accepted_renderer
        assert isinstance(renderer, FastJSONRenderer)  # the only renderer of these routes
        context = self.get_renderer_context()
        return renderer.get_indent(request.accepted_media_type, context) is not None

    def _envelope_rendered(self, request: Request, data: Any) -> bytes:
        """What `api_response(request, data)` renders to as compact JSON."""
        rendered = envelope(request, success=True, message="OK", message_key="ok", data=data)
        return FastJSONRenderer().render(rendered)


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    {"type": "string"},
    OpenApiParameter.HEADER,
    description="The `ETag` of an answer you kept: while it is unchanged the answer is 304.",
)
NOT_MODIFIED = OpenApiResponse(description="Not modified: the `If-None-Match` named this answer.")

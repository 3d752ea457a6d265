"""The public schema's view: JSON by default (`application/vnd.oai.openapi+json`, or
`application/json` when Accept asks for it), YAML on `Accept: application/yaml` or
`application/vnd.oai.openapi` or `?format=yaml`; an ETag of the rendered bytes with
`If-None-Match` (304) and gzip like every list; an error is the JSON envelope."""

from __future__ import annotations

import hashlib
from typing import Any

from drf_spectacular.renderers import (
    OpenApiJsonRenderer,
    OpenApiJsonRenderer2,
    OpenApiYamlRenderer,
    OpenApiYamlRenderer2,
)
from drf_spectacular.views import SpectacularAPIView
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import ANSWERED_METHODS
from api.compression import gzip_response
from api.conditional import etag_matches


class PublicSchemaView(SpectacularAPIView):
    renderer_classes = [
        OpenApiJsonRenderer,
        OpenApiJsonRenderer2,
        OpenApiYamlRenderer,
        OpenApiYamlRenderer2,
    ]
    http_method_names = ANSWERED_METHODS

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        if response.status_code >= 400:
            # An error is the JSON envelope, whatever was asked for (a YAML or schema media
            # type would mislabel it).
            request.accepted_renderer = JSONRenderer()
            request.accepted_media_type = "application/json"
            return super().finalize_response(request, response, *args, **kwargs)
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code != 200:
            return response
        response.render()
        etag = f'W/"{hashlib.sha256(response.content).hexdigest()[:32]}"'
        headers = {
            "ETag": etag,
            "Cache-Control": "public, no-cache",
            "Vary": "Accept, Accept-Encoding",
        }
        for name, value in headers.items():
            response[name] = value
        if etag_matches(request, etag):  # 304: the same headers, no body (nor its type)
            response.status_code = 304
            response.content = b""
            del response["Content-Type"]
            return response
        gzip_response(request, response)
        return response

"""gzip for API answers whose client accepts it (`Accept-Encoding: gzip`).

Only bodies over `GZIP_MIN_BYTES` are compressed: below that the gzip header and the client's
work cost more than the bytes saved. Level 1: why, in docs/subsystems/integrator-api.md
"ETag, compression, rendering".

Every answer that may be compressed says `Vary: Accept-Encoding`, compressed or not, so a cache
never hands a gzip body to a client that did not ask for one.
"""

from __future__ import annotations

import gzip

from django.http import HttpRequest, HttpResponse
from django.utils.cache import patch_vary_headers

GZIP_MIN_BYTES = 1024
GZIP_LEVEL = 1


def gzip_accepted(request: HttpRequest) -> bool:
    """Whether `Accept-Encoding` allows gzip: named (or `*`) without `q=0`."""
    qualities: dict[str, float] = {}
    for item in request.headers.get("Accept-Encoding", "").split(","):
        coding, _, params = item.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.strip().partition("=")
            if name.lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        qualities[coding.strip().lower()] = quality
    if "gzip" in qualities:
        return qualities["gzip"] > 0
    return qualities.get("*", 0.0) > 0


def gzip_response(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """Compresses the rendered `response` in place when the client accepts gzip and the body is
    over GZIP_MIN_BYTES."""
    patch_vary_headers(response, ("Accept-Encoding",))
    if (
        response.streaming
        or response.has_header("Content-Encoding")
        or len(response.content) <= GZIP_MIN_BYTES
        or not gzip_accepted(request)
    ):
        return response
    response.content = gzip.compress(response.content, compresslevel=GZIP_LEVEL, mtime=0)
    response["Content-Length"] = str(len(response.content))
    response["Content-Encoding"] = "gzip"
    return response

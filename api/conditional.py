"""Conditional GET for API answers (RFC 9110, 13.1.2): `If-None-Match` against an ETag.

A route that can tell its ETag without building its answer checks `etag_matches` first and, on
a match, answers `not_modified` (304, no body) with the headers its 200 would carry that a cache
needs (ETag, Cache-Control, Vary). The request id header is added by the request middleware
like on every answer.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.utils.http import parse_etags
from rest_framework.response import Response


def etag_matches(request: HttpRequest, etag: str) -> bool:
    """Whether the request's If-None-Match names `etag` or is `*` (weak comparison: `W/"x"`
    and `"x"` match each other, as they must for GET)."""
    header = request.headers.get("If-None-Match")
    if not header:
        return False
    tags = parse_etags(header)  # ["*"], or the well-formed tags of the list
    if tags == ["*"]:
        return True
    opaque = etag.removeprefix("W/")
    return any(tag.removeprefix("W/") == opaque for tag in tags)


def not_modified(headers: dict[str, str]) -> Response:
    """304 with `headers` and no body (nor Content-Type)."""
    return Response(status=304, headers=headers)

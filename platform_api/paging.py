"""What the integrator routes of a plan's record and resources share
(platform_api.endpoints.history, .plans, .records): the base view (the envelope, ETag with
`If-None-Match`, gzip) and keyset pages of `limit` rows whose position, the last row's key, is
signed into an opaque cursor with the filters it belongs to (docs/design.md "Integrator API" >
"Paging")."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.core import signing
from django.http import QueryDict
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import IntegratorApiView
from api.compression import gzip_response
from api.conditional import etag_matches, not_modified
from api.envelope import api_response
from api.renderers import FastJSONRenderer
from apikeys.authentication import ApiKeyAuthentication
from apikeys.models import ApiKey
from planning.models import MAX_PLAN_NUMBER

LIMIT_DEFAULT = 100
LIMIT_MAX = 1000
_CURSOR_SALT = "maintplan.record-cursor"
_FORMAT = 1


def etag_of(*parts: object) -> str:
    text = "|".join(str(part) for part in (_FORMAT, *parts))
    return f'W/"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'


def limit_parse(params: QueryDict, errors: dict[str, list[str]]) -> int:
    raw = params.get("limit")
    if raw is None:
        return LIMIT_DEFAULT
    if not raw.isascii() or not raw.isdigit() or not 1 <= int(raw) <= LIMIT_MAX:
        errors["limit"] = [f"Must be a whole number from 1 to {LIMIT_MAX}."]
        return LIMIT_DEFAULT
    return int(raw)


def cursor_parse(params: QueryDict, binding: str, errors: dict[str, list[str]]) -> Any:
    """The id after which the page starts, from a cursor this service signed for `binding`."""
    raw = params.get("cursor")
    if raw is None:
        return None
    try:
        cursor_format, cursor_binding, after = signing.Signer(salt=_CURSOR_SALT).unsign_object(raw)
    except (signing.BadSignature, ValueError, TypeError):
        errors["cursor"] = ["Not a cursor of this list (altered or outdated): start again."]
        return None
    if cursor_format != _FORMAT or cursor_binding != binding or not isinstance(after, int | str):
        errors["cursor"] = [
            "This cursor belongs to other filters or another list: send the same filters as "
            "for the first page."
        ]
        return None
    return after


def next_cursor(
    binding: str, rows: list[Any], limit: int, more: bool, key: Callable[[Any], Any] | None = None
) -> str | None:
    """The cursor after the page's last row (its `key`: the primary key as JSON), or None."""
    if not more or not rows:
        return None
    position = key(rows[-1]) if key is not None else rows[-1].pk
    return signing.Signer(salt=_CURSOR_SALT).sign_object([_FORMAT, binding, position])


def money_text(value: Any) -> str | None:
    """An amount as the records show it: a decimal string with two places, or None."""
    return f"{value:.2f}" if value is not None else None


def key_of(request: Request) -> ApiKey:
    assert isinstance(request.auth, ApiKey)  # ApiKeyAuthentication raises otherwise
    return request.auth


class RecordApi(IntegratorApiView):
    authentication_classes = [ApiKeyAuthentication]
    renderer_classes = [FastJSONRenderer]

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            response.render()
            gzip_response(request, response)
        return response

    def answer(self, request: Request, etag: str, build: Callable[[], Any]) -> Response:
        headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Accept-Encoding"}
        if etag_matches(request, etag):
            return not_modified(headers)
        response = api_response(request, build())
        for name, value in headers.items():
            response[name] = value
        return response


PLAN_NUMBER = OpenApiParameter(
    "planNumber",
    {"type": "integer", "minimum": 1, "maximum": MAX_PLAN_NUMBER},
    OpenApiParameter.PATH,
    description="The plan's number, as shown in the web app.",
    examples=[OpenApiExample("Demo plan", value=1)],
)
LIMIT = OpenApiParameter(
    "limit",
    {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX},
    OpenApiParameter.QUERY,
    description=f"Page size (default {LIMIT_DEFAULT}).",
)
CURSOR = OpenApiParameter(
    "cursor",
    {"type": "string", "minLength": 1},
    OpenApiParameter.QUERY,
    description=(
        "The `next_cursor` of the previous page, with the same filters; an altered cursor or "
        "one of other filters is 400 `validation.query`."
    ),
)
IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    {"type": "string"},
    OpenApiParameter.HEADER,
    description="The `ETag` of an answer you kept: while it is unchanged the answer is 304.",
)
NOT_MODIFIED = OpenApiResponse(description="Not modified: the `If-None-Match` named this answer.")

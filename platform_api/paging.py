"""Keyset pages of the platform's lists: `limit` rows in the order of an immutable key, the last
row's key signed into an opaque cursor with the filters it belongs to, so a row that stays in
the list for the whole walk comes exactly once (docs/subsystems/integrator-api.md "Paging").
The suggestions list pages its own way (planning.suggestions.list_query)."""

from __future__ import annotations

import uuid
from collections.abc import Callable
from typing import Any

from django.core import signing
from django.db.models import QuerySet
from django.http import QueryDict
from drf_spectacular.utils import OpenApiParameter

LIMIT_DEFAULT = 100
LIMIT_MAX = 1000
_CURSOR_SALT = "maintplan.record-cursor"
_FORMAT = 1
NOT_A_CURSOR = "Not a cursor of this list (altered or outdated): start again."


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
        errors["cursor"] = [NOT_A_CURSOR]
        return None
    if cursor_format != _FORMAT or cursor_binding != binding or not isinstance(after, int | str):
        errors["cursor"] = [
            "This cursor belongs to other filters or another list: send the same filters as "
            "for the first page."
        ]
        return None
    return after


def int_cursor_parse(params: QueryDict, binding: str, errors: dict[str, list[str]]) -> int | None:
    """`cursor_parse` of a list keyed by a number."""
    after = cursor_parse(params, binding, errors)
    if after is not None and not isinstance(after, int):
        errors["cursor"] = [NOT_A_CURSOR]
        return None
    return after


def uuid_cursor_parse(
    params: QueryDict, binding: str, errors: dict[str, list[str]]
) -> uuid.UUID | None:
    """`cursor_parse` of a list keyed by a UUID."""
    after = cursor_parse(params, binding, errors)
    if after is None:
        return None
    try:
        return uuid.UUID(str(after))
    except ValueError:
        errors["cursor"] = [NOT_A_CURSOR]
        return None


def next_cursor(
    binding: str, rows: list[Any], limit: int, more: bool, key: Callable[[Any], Any] | None = None
) -> str | None:
    """The cursor after the page's last row (its `key`: the primary key as JSON), or None."""
    if not more or not rows:
        return None
    position = key(rows[-1]) if key is not None else rows[-1].pk
    return signing.Signer(salt=_CURSOR_SALT).sign_object([_FORMAT, binding, position])


def page_by_pk(rows: QuerySet[Any], after: Any, limit: int) -> tuple[list[Any], bool]:
    """The `limit` rows after primary key `after` in primary-key order, and whether more
    follow."""
    if after is not None:
        rows = rows.filter(pk__gt=after)
    found = list(rows.order_by("pk")[: limit + 1])
    return found[:limit], len(found) > limit


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

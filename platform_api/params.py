"""The parsing of the platform routes' path and query parameters, with their schema: each parser
adds its message to `errors` (the route answers 400 `validation.query` with all of them) or,
for the plan number of a path, raises `validation.plan_number`."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from django.db.models import Q
from django.http import QueryDict
from drf_spectacular.utils import OpenApiExample, OpenApiParameter

from api.errors import ApiError
from apikeys.lookup import plan_number_of
from planning.models import MAX_PLAN_NUMBER, MAX_YEAR, MIN_YEAR


def plan_number_parse(raw: str) -> int:
    """The plan number of a path segment, or ApiError("validation.plan_number")."""
    number = plan_number_of(raw)
    if number is None:
        raise ApiError("validation.plan_number")
    return number


def uuid_parse(params: QueryDict, name: str, errors: dict[str, list[str]]) -> uuid.UUID | None:
    raw = params.get(name)
    if raw is None:
        return None
    try:
        return uuid.UUID(raw)
    except ValueError:
        errors[name] = ["Not an id (a UUID such as 3f2a9c0d-4e5b-4a7c-9d1e-2b3c4d5e6f70)."]
        return None


def choice_parse(
    params: QueryDict, name: str, choices: list[str], errors: dict[str, list[str]]
) -> str | None:
    raw = params.get(name)
    if raw is not None and raw not in choices:
        errors[name] = [f"'{raw}' is not one of: {', '.join(choices)}."]
        return None
    return raw


def year_parse(params: QueryDict, name: str, errors: dict[str, list[str]]) -> int | None:
    raw = params.get(name)
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or not MIN_YEAR <= int(raw) <= MAX_YEAR:
        errors[name] = [f"A year from {MIN_YEAR} to {MAX_YEAR}."]
        return None
    return int(raw)


def since_parse(
    params: QueryDict, errors: dict[str, list[str]], name: str = "since"
) -> datetime | None:
    """`since` (or `name`): a time with a time zone, in UTC."""
    raw = params.get(name)
    if raw is None:
        return None
    try:  # ISO 8601 as RFC 3339 writes it (a lowercase t or z included)
        value = datetime.fromisoformat(raw.upper()) if raw.isascii() else None
    except ValueError:
        value = None
    if value is None or value.tzinfo is None:
        errors[name] = ["An ISO 8601 time with a time zone, e.g. 2026-01-01T00:00:00Z."]
        return None
    # In UTC: PostgreSQL refuses offsets past 15:59 (-17:59 is valid ISO 8601), and a time at
    # the ends of the calendar that UTC cannot hold is before or after every entry anyway.
    try:
        return value.astimezone(UTC)
    except OverflowError:
        return (
            datetime.min.replace(tzinfo=UTC)
            if value.year == 1
            else datetime.max.replace(tzinfo=UTC)
        )


# Later than any row's change: the upper bound of `changed_since`.
_END_OF_TIME = datetime.max.replace(tzinfo=UTC)


def changed_since(since: datetime) -> Q:
    """The rows of a list that `updated_since` keeps: `updated_at` at or after `since`. The
    upper bound keeps the same rows; it is there for SQLite's planner, which guesses that a
    one-sided range keeps a quarter of the rows and so walks the whole plan in primary-key order
    (the pages' order) rather than read the (plan, updated_at) index and sort what it finds
    (benchmarks/bench_updated_since.py; PostgreSQL reads the index either way)."""
    return Q(updated_at__gte=since, updated_at__lte=_END_OF_TIME)


PLAN_NUMBER = OpenApiParameter(
    "planNumber",
    {"type": "integer", "minimum": 1, "maximum": MAX_PLAN_NUMBER},
    OpenApiParameter.PATH,
    description="The plan's number, as shown in the web app.",
    examples=[OpenApiExample("Demo plan", value=1)],
)


def query_uuid(name: str, text: str) -> OpenApiParameter:
    return OpenApiParameter(
        name, {"type": "string", "format": "uuid"}, OpenApiParameter.QUERY, description=text
    )


def query_enum(name: str, values: list[str], text: str) -> OpenApiParameter:
    return OpenApiParameter(
        name, {"type": "string", "enum": values}, OpenApiParameter.QUERY, description=text
    )


def query_year(name: str, text: str) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        {"type": "integer", "minimum": MIN_YEAR, "maximum": MAX_YEAR},
        OpenApiParameter.QUERY,
        description=text,
    )


UPDATED_SINCE = OpenApiParameter(
    "updated_since",
    {"type": "string", "format": "date-time"},
    OpenApiParameter.QUERY,
    description=(
        "Only rows created or changed at or after this time (ISO 8601 with a time zone), for "
        "incremental reads; deleted rows are not listed: the plan data events say which."
    ),
)

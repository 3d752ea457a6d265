"""The query of the suggestion list (docs/subsystems/integrator-api.md "Paging"): its
parameters, the signed keyset cursor and the list's ETag.

Parameters (unknown ones are ignored; every problem is reported at once as 400
`validation.query` with `data.errors` = {parameter: [messages]}): `severity` and
`suggestion_type` (comma-separated subsets of their enums, repeats merge),
`structure_node_id` (that node and its subtree), `limit` (1..1000, adds `next_cursor`) and
`cursor` (only with `limit` and the filters it was issued for). `list_query_parse` needs no
database; `list_scope` checks the node against the plan, after the plan's 404.
"""

from __future__ import annotations

import hashlib
import re
import uuid
from dataclasses import dataclass
from datetime import datetime

from django.core import signing
from django.http import QueryDict

from api.errors import ApiError
from planning.models import Plan, Severity, SuggestionType
from planning.suggestions.selectors import SuggestionFilters
from planning.suggestions.walk import WalkPosition

LIMIT_MAX = 1000
# Bump when the JSON of the list changes shape: ETags handed out before stop matching.
LIST_FORMAT = 1
# Bump when the cursor's content changes: older cursors are then refused (400), not misread.
CURSOR_FORMAT = 3
_CURSOR_SALT = "planning.suggestions.list-cursor"
_LIMIT = re.compile(r"[0-9]{1,7}")


@dataclass(frozen=True, slots=True)
class SuggestionListQuery:
    plan_number: int
    severities: tuple[str, ...] = ()  # sorted, distinct; empty: every severity
    suggestion_types: tuple[str, ...] = ()
    structure_node_id: uuid.UUID | None = None
    limit: int | None = None  # None: the whole list, without next_cursor
    after: WalkPosition | None = None  # from the cursor

    @property
    def filters_text(self) -> str:
        """The plan and the filters, normalised: equal for equal lists whatever the spelling."""
        return "|".join(
            [
                str(self.plan_number),
                ",".join(self.severities),
                ",".join(self.suggestion_types),
                self.structure_node_id.hex if self.structure_node_id else "",
            ]
        )

    @property
    def binding(self) -> str:
        """What a cursor is valid for: a digest of `filters_text`."""
        return hashlib.sha256(self.filters_text.encode()).hexdigest()[:16]


@dataclass(frozen=True, slots=True)
class SuggestionListScope:
    """A parsed query checked against its plan."""

    query: SuggestionListQuery
    filters: SuggestionFilters


def _enum_subset(
    params: QueryDict, name: str, allowed: list[str], errors: dict[str, list[str]]
) -> tuple[str, ...]:
    chosen: set[str] = set()
    problems: list[str] = []
    for raw in params.getlist(name):
        for value in raw.split(","):
            if value in allowed:
                chosen.add(value)
            else:
                problems.append(f"{value!r} is not one of: {', '.join(allowed)}.")
    if problems:
        errors[name] = problems
    return tuple(sorted(chosen))


def _single(params: QueryDict, name: str, errors: dict[str, list[str]]) -> str | None:
    values = params.getlist(name)
    if len(values) > 1:
        errors[name] = [f"Give {name} once."]
        return None
    return values[0] if values else None


def _node_id(params: QueryDict, errors: dict[str, list[str]]) -> uuid.UUID | None:
    raw = _single(params, "structure_node_id", errors)
    if raw is None:
        return None
    try:
        return uuid.UUID(raw)
    except ValueError:
        errors["structure_node_id"] = ["Must be the id (a UUID) of a node of this plan."]
        return None


def _limit(params: QueryDict, errors: dict[str, list[str]]) -> int | None:
    raw = _single(params, "limit", errors)
    if raw is None:
        return None
    if not _LIMIT.fullmatch(raw) or not 1 <= int(raw) <= LIMIT_MAX:
        errors["limit"] = [f"Must be a whole number from 1 to {LIMIT_MAX}."]
        return None
    return int(raw)


def cursor_encode(*, query: SuggestionListQuery, position: WalkPosition) -> str:
    """The opaque `next_cursor` of a page: the walk and where its next page starts."""
    rank, created_at, suggestion_id = position.key
    return signing.Signer(salt=_CURSOR_SALT).sign_object(
        [
            CURSOR_FORMAT,
            query.binding,
            position.started,
            position.version,
            rank,
            created_at.isoformat(),
            suggestion_id.hex,
        ]
    )


def _cursor_position(raw: str) -> tuple[str, WalkPosition] | None:
    """(binding, position) of a cursor this service signed in the current format, else None."""
    try:
        value = signing.Signer(salt=_CURSOR_SALT).unsign_object(raw)
    except signing.BadSignature:
        return None
    try:
        cursor_format, binding, started, version, rank, created_at, suggestion_id = value
        if cursor_format != CURSOR_FORMAT or not all(
            isinstance(number, int) for number in (started, version, rank)
        ):
            return None
        key = (rank, datetime.fromisoformat(created_at), uuid.UUID(hex=suggestion_id))
        return binding, WalkPosition(started=started, version=version, key=key)
    except (TypeError, ValueError, AttributeError):  # signed, but not a cursor of this list
        return None


def list_query_parse(params: QueryDict, *, plan_number: int) -> SuggestionListQuery:
    """The list query of the request's parameters; ApiError("validation.query") otherwise."""
    errors: dict[str, list[str]] = {}
    query = SuggestionListQuery(
        plan_number=plan_number,
        severities=_enum_subset(params, "severity", Severity.values, errors),
        suggestion_types=_enum_subset(params, "suggestion_type", SuggestionType.values, errors),
        structure_node_id=_node_id(params, errors),
        limit=_limit(params, errors),
    )
    raw_cursor = _single(params, "cursor", errors)
    after = None
    if raw_cursor is not None:
        decoded = _cursor_position(raw_cursor)
        if decoded is None:
            errors["cursor"] = [
                "Not a cursor of this list (altered or outdated): start again without cursor."
            ]
        elif not errors and decoded[0] != query.binding:
            errors["cursor"] = [
                "This cursor belongs to other filters or another plan: send the same "
                "severity, suggestion_type and structure_node_id as for the first page."
            ]
        else:
            after = decoded[1]
        if query.limit is None and "limit" not in errors:
            errors["limit"] = ["Send limit with cursor (any page size from 1 to 1000)."]
    if errors:
        raise ApiError("validation.query", errors=errors)
    return SuggestionListQuery(
        plan_number=query.plan_number,
        severities=query.severities,
        suggestion_types=query.suggestion_types,
        structure_node_id=query.structure_node_id,
        limit=query.limit,
        after=after,
    )


def list_scope(*, plan: Plan, query: SuggestionListQuery) -> SuggestionListScope:
    """The list's filters on the plan. A `structure_node_id` the plan has no node with (a
    well-formed UUID) selects nothing: the answer is an empty list, as the platform lists
    answer a filter the plan does not have, not an error (the subtree is walked by the list's
    query, see planning.suggestions.selectors)."""
    node_id = query.structure_node_id
    return SuggestionListScope(
        query=query,
        filters=SuggestionFilters(
            severities=query.severities,
            suggestion_types=query.suggestion_types,
            structure_node_id=node_id,
        ),
    )


def list_etag(*, plan: Plan, data_version: int, scope: SuggestionListScope) -> str:
    """The weak ETag of the answer to `scope` at `data_version`, computed without reading a
    suggestion (docs/subsystems/integrator-api.md "ETag, compression, rendering")."""
    query = scope.query
    after = query.after
    position = (
        f"{after.started}/{after.version}/{after.key[0]}/{after.key[1].isoformat()}/{after.key[2]}"
        if after
        else ""
    )
    text = "|".join(
        [
            str(LIST_FORMAT),
            str(plan.pk),
            str(data_version),
            query.filters_text,
            str(query.limit or ""),
            position,
        ]
    )
    return f'W/"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'

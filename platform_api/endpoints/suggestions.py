"""The integrator route `GET /api/v1/platform/plans/{planNumber}/suggestions` (spec 4.1).

It answers to a Bearer key (apikeys) and reads planning downward (the sync, the listing and its
selectors), never the reverse (docs/architecture.md "Layers")."""

from __future__ import annotations

from typing import Any

import orjson
from django.core.cache import cache
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.fields import SkipField
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses, response_headers
from apikeys.selectors import plan_for_key
from planning.models import Plan, Severity, SuggestionType
from planning.suggestions.list_query import (
    LIMIT_MAX,
    SuggestionListScope,
    cursor_encode,
    list_etag,
    list_query_parse,
    list_scope,
)
from planning.suggestions.selectors import suggestions_open, suggestions_open_count
from planning.suggestions.sync.due import synced_data_version
from planning.suggestions.walk import WalkExpired, suggestions_walk_page
from platform_api.base import RecordApi, Render, key_of
from platform_api.list_cache import suggestions_array, suggestions_gzip
from platform_api.params import PLAN_NUMBER, plan_number_parse
from platform_api.serializers import SuggestionSerializer


class _PagedOnlyField(serializers.CharField):
    """A field of a paged answer only: left out, not null, where the answer holds no page."""

    def get_attribute(self, instance: Any) -> Any:
        if self.field_name not in instance:
            raise SkipField
        return super().get_attribute(instance)


class SuggestionListSerializer(serializers.Serializer):
    plan_id = serializers.UUIDField()
    plan_number = serializers.IntegerField(min_value=1)
    open_count = serializers.IntegerField(
        min_value=0, help_text="Open suggestions matching the filters, on all pages together."
    )
    suggestions = SuggestionSerializer(many=True, help_text="Open suggestions only.")
    next_cursor = _PagedOnlyField(
        required=False,
        allow_null=True,
        help_text=(
            "Only with `limit`: pass it as `cursor` (with the same filters and a `limit`) for "
            "the next page; null on the last page. Opaque: do not build or change it."
        ),
    )


# How long a page's `open_count` is kept (per plan, data version and filters, so never stale).
OPEN_COUNT_SECONDS = 15 * 60


def open_count(*, plan: Plan, scope: SuggestionListScope, data_version: int) -> int:
    """The matches of the list on every page together, counted once per data version: the
    count reads every match's index entry (37,000 for a 20,000-node plan), which a page of 100
    does not otherwise need."""
    key = f"suggestion-open-count:{plan.pk}:{data_version}:{scope.query.binding}"
    count = cache.get(key)
    if count is None:
        count = suggestions_open_count(plan=plan, filters=scope.filters)
        cache.set(key, count, OPEN_COUNT_SECONDS)
    return int(count)


def suggestion_list_payload(
    *, plan: Plan, scope: SuggestionListScope, etag: str, data_version: int
) -> dict[str, Any]:
    """`data` of the list: every matching open suggestion (rendered once per ETag, see
    list_cache), or with `limit` one page of them and `next_cursor`."""
    query = scope.query
    if query.limit is None:
        count, suggestions = suggestions_array(
            etag=etag, build=lambda: suggestions_open(plan=plan, filters=scope.filters)
        )
        return _whole_list(plan=plan, count=count, suggestions=suggestions)
    try:
        page = suggestions_walk_page(
            plan=plan, filters=scope.filters, after=query.after, limit=query.limit
        )
    except WalkExpired:
        raise ApiError("pagination.cursor_expired") from None
    paged = {
        "plan_id": plan.pk,
        "plan_number": plan.number,
        "open_count": open_count(plan=plan, scope=scope, data_version=data_version),
        "suggestions": page.suggestions,
        "next_cursor": (
            cursor_encode(query=query, position=page.next_position)
            if page.next_position is not None
            else None
        ),
    }
    return SuggestionListSerializer(paged).data


def _whole_list(*, plan: Plan, count: int, suggestions: orjson.Fragment) -> dict[str, Any]:
    """`data` of the whole list, its suggestions already rendered (list_cache)."""
    whole = {
        "plan_id": plan.pk,
        "plan_number": plan.number,
        "open_count": count,
        "suggestions": suggestions,
    }
    return SuggestionListSerializer(whole).data


def suggestion_list_gzip(
    *, plan: Plan, scope: SuggestionListScope, etag: str, render: Render
) -> bytes | None:
    """The gzip body of the whole list's answer (`render` renders the envelope around `data`),
    its compressed start kept per ETag (list_cache); None for a page or a small list."""
    if scope.query.limit is not None:
        return None
    return suggestions_gzip(
        etag=etag,
        build=lambda: suggestions_open(plan=plan, filters=scope.filters),
        envelope=lambda count, array: render(
            _whole_list(plan=plan, count=count, suggestions=array)
        ),
    )


LIST_PARAMETERS = [
    PLAN_NUMBER,
    OpenApiParameter(
        "severity",
        {"type": "array", "items": {"type": "string", "enum": Severity.values}, "minItems": 1},
        OpenApiParameter.QUERY,
        description=(
            "Only these severities, comma-separated; repeating the parameter adds to the set."
        ),
        examples=[
            OpenApiExample("Critical only", value=["critical"]),
            OpenApiExample("Critical and warning", value=["critical", "warning"]),
        ],
        style="form",
        explode=False,
    ),
    OpenApiParameter(
        "suggestion_type",
        {
            "type": "array",
            "items": {"type": "string", "enum": SuggestionType.values},
            "minItems": 1,
        },
        OpenApiParameter.QUERY,
        description="Only these kinds, comma-separated; repeating the parameter adds to the set.",
        examples=[
            OpenApiExample("Missing codes", value=["missing_code"]),
            OpenApiExample("Costs and projects", value=["deviation", "project_grouping"]),
        ],
        style="form",
        explode=False,
    ),
    OpenApiParameter(
        "structure_node_id",
        {"type": "string", "format": "uuid"},
        OpenApiParameter.QUERY,
        # No example value: an id is a node of one plan only, so an example would list
        # nothing for every other plan.
        description=(
            "Only suggestions on this structure node or on a node below it, e.g. a building's "
            "id for everything in that building. An id the plan has no node with lists nothing "
            "(200, an empty list)."
        ),
    ),
    OpenApiParameter(
        "limit",
        {"type": "integer", "minimum": 1, "maximum": LIMIT_MAX},
        OpenApiParameter.QUERY,
        description=(
            "Page size. With it the answer is one page in list order and `data` gains "
            "`next_cursor`; without it the answer holds every matching open suggestion."
        ),
        examples=[OpenApiExample("Pages of 100", value=100)],
    ),
    OpenApiParameter(
        "cursor",
        {"type": "string", "minLength": 1},
        OpenApiParameter.QUERY,
        # No example value, for the same reason: a cursor is valid only as the service issued
        # it. The 200 example shows one.
        description=(
            "The `next_cursor` of the previous page. Only with `limit` and with the same "
            "`severity`, `suggestion_type` and `structure_node_id` as the first page; a cursor "
            "that was altered or belongs to other filters is 400 `validation.query`, one older "
            "than an hour 410 `pagination.cursor_expired`. The pages walk the list as the "
            "first page saw it: a suggestion that stays open for the whole walk comes exactly "
            "once whatever changes (its severity included); one resolved or dismissed meanwhile "
            "is left out, so a page may hold fewer than `limit`."
        ),
    ),
    OpenApiParameter(
        "If-None-Match",
        {"type": "string"},
        OpenApiParameter.HEADER,
        description=(
            "The `ETag` of an answer you kept: while the list (with these parameters) is "
            "unchanged the answer is 304 with no body. The synchronisation runs first either "
            "way."
        ),
        examples=[OpenApiExample("A kept answer", value='W/"5d41402abc4b2a76b9719d911017c592"')],
    ),
]
PAGE_EXAMPLE = OpenApiExample(
    "A page (limit=1&severity=warning)",
    value={
        "success": True,
        "message": "OK",
        "messageKey": "ok",
        "data": {
            "plan_id": "0b6f1c1e-9a3d-4d7e-8f55-2c9e6b1a7d40",
            "plan_number": 1,
            "open_count": 12,
            "suggestions": [
                {
                    "id": "3f2a9c0d-4e5b-4a7c-9d1e-2b3c4d5e6f70",
                    "suggestion_type": "missing_code",
                    "severity": "warning",
                    "title": "Assign a classification code to “Boiler” in House 3 (Block A)",
                    "body": (
                        "The component “Boiler” in House 3 (Block A) has no classification "
                        "code, so its costs and service life cannot be checked against "
                        "reference values. It has planned actions."
                    ),
                    "structure_node_id": "8f14e45f-ceea-467f-a0e6-fb6ef2d3c8a1",
                    "recommended_action_json": {
                        "action": "assign_code",
                        "prefill_code_ids": ["c4ca4238-a0b9-4382-8dcc-509a6f75849b"],
                    },
                    "created_at": "2026-11-22T08:00:00.123456Z",
                }
            ],
            "next_cursor": (
                "WzEsIjg3ODBkODQ2YmMyMTQ3YTYiLDEsIjIwMjYtMTEtMjJUMDg6MDA6MDAuMTIzNDU2KzAwOjAwIiwi"
                "M2YyYTljMGQ0ZTViNGE3YzlkMWUyYjNjNGQ1ZTZmNzAiXQ:2ypu8qumWdnLzTtQDK5wJi07TxMTcZ6vi7pVO0tY-Mw"
            ),
        },
        "traceId": "4bf92f3577b34da6a3ce929d0e0e4736",
    },
    response_only=True,
)
QUERY_ERROR_EXAMPLE = {
    "limit": ["Must be a whole number from 1 to 1000."],
    "severity": ["'urgent' is not one of: info, warning, critical."],
}


class PlanSuggestionListApi(RecordApi):
    """Runs the plan's suggestion sync, then lists its open suggestions.

    Order of the checks: authentication (the Bearer key), the plan number (400), the query
    parameters (400 `validation.query`, no database), the plan (404: a plan that does not exist
    and one the key's user is not a member of give the same answer), the node filter against the
    plan (400), and only then the sync, which may write. A bad request never writes.

    After the sync the answer's ETag is computed from the plan's `data_version` (read
    before the suggestions, so an ETag is never newer than the list it labels); a matching
    `If-None-Match` is answered 304 without reading a suggestion.
    """

    @extend_schema(
        operation_id="listPlanSuggestions",
        summary="List the open suggestions of a plan",
        description=(
            "Runs the same synchronisation as the action-planning view, then returns the open "
            "suggestions ordered by severity (critical, warning, info), created_at, id. "
            "Optional filters narrow the list, `limit` and `cursor` page it, `If-None-Match` "
            "turns an unchanged answer into a 304. Bodies over 1 KB are gzip-compressed for "
            "clients that send `Accept-Encoding: gzip`. Unknown query parameters are ignored."
        ),
        parameters=LIST_PARAMETERS,
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("SuggestionListEnvelope", SuggestionListSerializer()),
                description="The open suggestions (one page of them with `limit`).",
                examples=[PAGE_EXAMPLE],
            ),
            304: OpenApiResponse(
                description=(
                    "Not modified: the `If-None-Match` named this answer's ETag (or was `*`). "
                    "No body; `ETag`, `Cache-Control` and `X-Request-ID` headers."
                )
            ),
            **error_responses(
                {
                    400: ["validation.plan_number", "validation.query"],
                    404: ["plans.not_found"],
                    410: ["pagination.cursor_expired"],
                },
                field_errors={"validation.query": QUERY_ERROR_EXAMPLE},
            ),
        },
        extensions=response_headers(
            {
                "200": {
                    "ETag": {
                        "description": (
                            "Weak validator of this answer (these parameters, this state of "
                            "the list); send it back as `If-None-Match`."
                        ),
                        "schema": {"type": "string"},
                        "required": True,
                    },
                    "Cache-Control": {
                        "description": "`private, no-cache`: keep it, but revalidate.",
                        "schema": {"type": "string"},
                    },
                    "Vary": {"description": "`Accept-Encoding`.", "schema": {"type": "string"}},
                    "Content-Encoding": {
                        "description": "`gzip` when the client accepts it and the body is over "
                        "1 KB.",
                        "schema": {"type": "string"},
                    },
                },
                "304": {
                    "ETag": {
                        "description": "The same validator as the kept answer's.",
                        "schema": {"type": "string"},
                        "required": True,
                    },
                    "Cache-Control": {
                        "description": "`private, no-cache`.",
                        "schema": {"type": "string"},
                    },
                },
            }
        ),
        tags=["plans"],
    )
    def get(self, request: Request, planNumber: str) -> Response:  # the spec's name
        number = plan_number_parse(planNumber)
        query = list_query_parse(request.query_params, plan_number=number)
        plan = plan_for_key(api_key=key_of(request), number=number, sync_state=True)
        scope = list_scope(plan=plan, query=query)
        data_version = synced_data_version(plan=plan)
        etag = list_etag(plan=plan, data_version=data_version, scope=scope)
        return self.answer(
            request,
            etag,
            lambda: suggestion_list_payload(
                plan=plan, scope=scope, etag=etag, data_version=data_version
            ),
            gzipped=lambda render: suggestion_list_gzip(
                plan=plan, scope=scope, etag=etag, render=render
            ),
        )

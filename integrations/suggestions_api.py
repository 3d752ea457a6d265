"""The integrator route `GET /api/v1/platform/plans/{planNumber}/suggestions` (spec 4.1).

It lives here, above planning, because it answers to a Bearer key, which this app owns: it
reads planning downward (the sync, the listing and its selectors), never the reverse
(docs/design.md "Layers")."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import IntegratorApiView
from api.compression import gzip_response
from api.conditional import etag_matches, not_modified
from api.envelope import api_response
from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses, response_headers
from api.renderers import FastJSONRenderer
from integrations.authentication import ApiKeyAuthentication
from integrations.lookup import plan_number_of
from integrations.models import ApiKey
from integrations.selectors import plan_for_key
from planning.models import MAX_PLAN_NUMBER, Plan, Severity, SuggestionType
from planning.suggestions.list_cache import suggestions_array
from planning.suggestions.list_query import (
    LIMIT_MAX,
    SuggestionListScope,
    cursor_encode,
    list_etag,
    list_query_parse,
    list_scope,
)
from planning.suggestions.selectors import (
    WalkExpired,
    suggestions_open,
    suggestions_open_count,
    suggestions_walk_page,
)
from planning.suggestions.sync.due import synced_data_version


def plan_number_parse(raw: str) -> int:
    """The plan number of a path segment, or ApiError("validation.plan_number")."""
    number = plan_number_of(raw)
    if number is None:
        raise ApiError("validation.plan_number")
    return number


def suggestion_list_payload(*, plan: Plan, scope: SuggestionListScope, etag: str) -> dict[str, Any]:
    """`data` of the list: every matching open suggestion (rendered once per ETag, see
    list_cache), or with `limit` one page of them and `next_cursor`."""
    query = scope.query
    if query.limit is None:
        count, suggestions = suggestions_array(
            etag=etag, build=lambda: suggestions_open(plan=plan, filters=scope.filters)
        )
        return {
            "plan_id": str(plan.pk),
            "plan_number": plan.number,
            "open_count": count,
            "suggestions": suggestions,
        }
    try:
        page = suggestions_walk_page(
            plan=plan, filters=scope.filters, after=query.after, limit=query.limit
        )
    except WalkExpired:
        raise ApiError("pagination.cursor_expired") from None
    return {
        "plan_id": str(plan.pk),
        "plan_number": plan.number,
        "open_count": suggestions_open_count(plan=plan, filters=scope.filters),
        "suggestions": page.suggestions,
        "next_cursor": (
            cursor_encode(query=query, position=page.next_position)
            if page.next_position is not None
            else None
        ),
    }


class AssignCodeActionSerializer(serializers.Serializer):
    """missing_code: assign one of the prefilled catalog codes to the node."""

    action = serializers.ChoiceField(choices=["assign_code"])
    prefill_code_ids = serializers.ListField(
        child=serializers.UUIDField(), help_text="Up to 3 catalog code ids, best match first."
    )


class ReviewFilterSerializer(serializers.Serializer):
    structure_node_id = serializers.UUIDField()
    year = serializers.IntegerField()


@extend_schema_field(
    {
        "oneOf": [
            {
                "title": "CostReference",
                "type": "object",
                "properties": {
                    "expected_cost": {"type": "string", "format": "decimal", "example": "1200.00"},
                    "actual": {"type": "string", "format": "decimal", "example": "2000.00"},
                    "deviation": {
                        "type": "string",
                        "format": "decimal",
                        "description": "|actual - expected| / expected",
                        "example": "0.6667",
                    },
                },
                "required": ["expected_cost", "actual", "deviation"],
            },
            {
                "title": "TimingReference",
                "type": "object",
                "properties": {
                    "due_year": {"type": "integer", "example": 2031},
                    "actual": {"type": "integer", "example": 2038},
                    "deviation": {"type": "integer", "description": "Years", "example": 7},
                },
                "required": ["due_year", "actual", "deviation"],
            },
        ]
    }
)
class DeviationReferenceField(serializers.JSONField):
    pass


class ReviewActionSerializer(serializers.Serializer):
    """deviation and overdue: review the action in the filtered actions view."""

    action = serializers.ChoiceField(choices=["review_action"])
    action_ids = serializers.ListField(child=serializers.UUIDField())
    filter = ReviewFilterSerializer()
    reference = DeviationReferenceField()


class CreateProjectActionSerializer(serializers.Serializer):
    """project_grouping: create one project from the grouped actions."""

    action = serializers.ChoiceField(choices=["create_project"])
    group_item_ids = serializers.ListField(
        child=serializers.UUIDField(), help_text="Ids of the actions to group, sorted."
    )
    proposed_project_name = serializers.CharField()
    year = serializers.IntegerField()
    total_cost = serializers.DecimalField(max_digits=16, decimal_places=2, coerce_to_string=True)


class PlanActionSerializer(serializers.Serializer):
    """condition: plan a repair or replacement of the component by `latest_year`."""

    action = serializers.ChoiceField(choices=["plan_action"])
    node_id = serializers.UUIDField(help_text="The component (the suggestion's node).")
    condition_grade = serializers.IntegerField(
        min_value=0, max_value=3, help_text="Its condition: 2 moderate, 3 severe symptoms."
    )
    latest_year = serializers.IntegerField(
        help_text="The year by which a repair or replacement should be planned at the latest."
    )


class MoveActionsSerializer(serializers.Serializer):
    """budget_peak: move the candidate actions out of a year whose planned costs exceed the
    plan's annual budget."""

    action = serializers.ChoiceField(choices=["move_actions"])
    year = serializers.IntegerField(help_text="The year over the budget.")
    budget = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True, help_text="The annual budget."
    )
    total = serializers.DecimalField(
        max_digits=16,
        decimal_places=2,
        coerce_to_string=True,
        help_text="The planned costs of `year` in today's prices, every occurrence counted.",
    )
    excess = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True, help_text="`total` - `budget`."
    )
    candidate_action_ids = serializers.ListField(
        child=serializers.UUIDField(),
        help_text=(
            "The one-off repairs and replacements of `year` to move: the costliest first until "
            "their costs reach the excess (all of them if they never do); sorted."
        ),
    )
    target_year = serializers.IntegerField(
        allow_null=True,
        help_text=(
            "The first of the next five years that stays within the budget with the "
            "candidates moved in; null when none does."
        ),
    )


class SuggestionSerializer(serializers.Serializer):
    """One open suggestion: what the platform proposes for a node of the plan."""

    id = serializers.UUIDField()
    suggestion_type = serializers.ChoiceField(choices=SuggestionType.choices)
    severity = serializers.ChoiceField(choices=Severity.choices)
    title = serializers.CharField()
    body = serializers.CharField()
    structure_node_id = serializers.UUIDField()
    recommended_action_json = PolymorphicProxySerializer(
        component_name="RecommendedAction",
        serializers={
            "assign_code": AssignCodeActionSerializer,
            "review_action": ReviewActionSerializer,
            "create_project": CreateProjectActionSerializer,
            "plan_action": PlanActionSerializer,
            "move_actions": MoveActionsSerializer,
        },
        resource_type_field_name="action",
        help_text=(
            "What applying the suggestion does, by `action`. Ids are strings, id lists are "
            "sorted, money is a decimal string."
        ),
    )
    created_at = serializers.DateTimeField(help_text="ISO 8601, UTC (Z)")


class SuggestionListSerializer(serializers.Serializer):
    plan_id = serializers.UUIDField()
    plan_number = serializers.IntegerField(min_value=1)
    open_count = serializers.IntegerField(
        min_value=0, help_text="Open suggestions matching the filters, on all pages together."
    )
    suggestions = SuggestionSerializer(many=True, help_text="Open suggestions only.")
    next_cursor = serializers.CharField(
        required=False,
        allow_null=True,
        help_text=(
            "Only with `limit`: pass it as `cursor` (with the same filters and a `limit`) for "
            "the next page; null on the last page. Opaque: do not build or change it."
        ),
    )


LIST_PARAMETERS = [
    OpenApiParameter(
        "planNumber",
        {"type": "integer", "minimum": 1, "maximum": MAX_PLAN_NUMBER},
        OpenApiParameter.PATH,
        description="The plan's number, as shown in the web app.",
        examples=[OpenApiExample("Demo plan", value=1)],
    ),
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


class PlanSuggestionListApi(IntegratorApiView):
    """Runs the plan's suggestion sync, then lists its open suggestions.

    Order of the checks: authentication (the Bearer key), the plan number (400), the query
    parameters (400 `validation.query`, no database), the plan (404: a plan that does not exist
    and one the key's user is not a member of give the same answer), the node filter against the
    plan (400), and only then the sync, which may write. A bad request never writes.

    After the sync the answer's ETag is computed from the plan's `data_version` (read
    before the suggestions, so an ETag is never newer than the list it labels); a matching
    `If-None-Match` is answered 304 without reading a suggestion.
    """

    authentication_classes = [ApiKeyAuthentication]
    # A whole list of a big plan is tens of MB of JSON: orjson renders it seven times faster.
    renderer_classes = [FastJSONRenderer]

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
        assert isinstance(request.auth, ApiKey)  # ApiKeyAuthentication raises otherwise
        plan = plan_for_key(api_key=request.auth, number=number, sync_state=True)
        scope = list_scope(plan=plan, query=query)
        etag = list_etag(plan=plan, data_version=synced_data_version(plan=plan), scope=scope)
        headers = {"ETag": etag, "Cache-Control": "private, no-cache", "Vary": "Accept-Encoding"}
        if etag_matches(request, etag):
            return not_modified(headers)
        response = api_response(request, suggestion_list_payload(plan=plan, scope=scope, etag=etag))
        for name, value in headers.items():
            response[name] = value
        return response

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if response.status_code == 200:
            response.render()
            gzip_response(request, response)
        return response

"""The integrator route `GET /api/v1/platform/plans/{planNumber}/suggestions` (spec 4.1)."""

from __future__ import annotations

import re
from typing import Any

from django.http import Http404
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    PolymorphicProxySerializer,
    extend_schema,
    extend_schema_field,
)
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import IntegratorApiView
from api.envelope import api_response
from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from planning.models import MAX_PLAN_NUMBER, Plan, Severity, SuggestionType
from planning.selectors import plan_get_for_user
from planning.suggestions.selectors import SuggestionPayload, suggestions_open
from planning.suggestions.sync import suggestion_sync

# Canonical decimal only: no sign, no leading zero, no spaces, no fraction or exponent. "01"
# names no plan (a plan number is written one way), so it is a 400 like "+1" or " 1".
_PLAN_NUMBER = re.compile(r"[1-9][0-9]{0,9}")


def plan_number_parse(raw: str) -> int:
    """The plan number of a path segment, or ApiError("validation.plan_number")."""
    if not _PLAN_NUMBER.fullmatch(raw):
        raise ApiError("validation.plan_number")
    number = int(raw)
    if number > MAX_PLAN_NUMBER:
        raise ApiError("validation.plan_number")
    return number


def suggestion_list_payload(*, plan: Plan, suggestions: list[SuggestionPayload]) -> dict[str, Any]:
    return {
        "plan_id": str(plan.pk),
        "plan_number": plan.number,
        "open_count": len(suggestions),
        "suggestions": list(suggestions),
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
    """deviation: review the action in the filtered actions view."""

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


class SuggestionSerializer(serializers.Serializer):
    """Describes `suggestion_payload` for the schema (the payload itself is built directly)."""

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
    open_count = serializers.IntegerField(min_value=0)
    suggestions = SuggestionSerializer(many=True, help_text="Open suggestions only.")


class PlanSuggestionListApi(IntegratorApiView):
    """Runs the plan's suggestion sync, then lists its open suggestions.

    Authentication runs before the handler, so a request without a usable key gets its 401/403
    before the plan number is even looked at. A plan that does not exist and one the key's user
    is not a member of give the same 404.
    """

    @extend_schema(
        operation_id="listPlanSuggestions",
        summary="List the open suggestions of a plan",
        description=(
            "Runs the same synchronisation as the action-planning view, then returns the open "
            "suggestions ordered by severity (critical, warning, info), created_at, id."
        ),
        parameters=[
            OpenApiParameter(
                "planNumber",
                {"type": "integer", "minimum": 1, "maximum": MAX_PLAN_NUMBER},
                OpenApiParameter.PATH,
                description="The plan's number, as shown in the web app.",
                examples=[OpenApiExample("Demo plan", value=1)],
            )
        ],
        responses={
            200: envelope_serializer("SuggestionListEnvelope", SuggestionListSerializer()),
            **error_responses({400: ["validation.plan_number"], 404: ["plans.not_found"]}),
        },
        tags=["plans"],
    )
    def get(self, request: Request, planNumber: str) -> Response:  # the spec's name
        number = plan_number_parse(planNumber)
        try:
            plan = plan_get_for_user(user=request.user, number=number)
        except Http404:
            raise ApiError("plans.not_found") from None
        suggestion_sync(plan=plan)
        return api_response(
            request, suggestion_list_payload(plan=plan, suggestions=suggestions_open(plan=plan))
        )

"""The integrator route `GET /api/v1/platform/plans/{planNumber}/suggestions` (spec 4.1)."""

from __future__ import annotations

import re
from datetime import UTC
from typing import Any

from django.http import Http404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from integrations.authentication import ApiKeyAuthentication
from integrations.errors import ApiError, api_response
from integrations.openapi import envelope_serializer, error_responses
from integrations.throttling import ApiKeyThrottle
from planning.models import MAX_PLAN_NUMBER, Plan, Severity, SuggestionType
from planning.selectors import plan_get_for_user
from planning.suggestions.sync import OpenSuggestion, suggestion_sync

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


def iso_utc(value: Any) -> str:
    return value.astimezone(UTC).isoformat().replace("+00:00", "Z")


def suggestion_payload(suggestion: OpenSuggestion) -> dict[str, Any]:
    """A suggestion record of spec 2.3: exactly these fields, ids as strings."""
    return {
        "id": str(suggestion.id),
        "suggestion_type": str(suggestion.suggestion_type),
        "severity": str(suggestion.severity),
        "title": suggestion.title,
        "body": suggestion.body,
        "structure_node_id": str(suggestion.structure_node_id),
        "recommended_action_json": suggestion.recommended_action_json,
        "created_at": iso_utc(suggestion.created_at),
    }


def suggestion_list_payload(*, plan: Plan, suggestions: tuple[OpenSuggestion, ...]) -> dict:
    return {
        "plan_id": str(plan.pk),
        "plan_number": plan.number,
        "open_count": len(suggestions),
        "suggestions": [suggestion_payload(s) for s in suggestions],
    }


class SuggestionOutputSerializer(serializers.Serializer):
    """Describes `suggestion_payload` for the schema (the payload itself is built directly)."""

    id = serializers.UUIDField()
    suggestion_type = serializers.ChoiceField(choices=SuggestionType.choices)
    severity = serializers.ChoiceField(choices=Severity.choices)
    title = serializers.CharField()
    body = serializers.CharField()
    structure_node_id = serializers.UUIDField()
    recommended_action_json = serializers.DictField(
        help_text=(
            "missing_code: {action: assign_code, prefill_code_ids}; deviation: {action: "
            "review_action, action_ids, filter: {structure_node_id, year}, reference}; "
            "project_grouping: {action: create_project, group_item_ids, proposed_project_name, "
            "year, total_cost}. Ids are strings, lists sorted, money a decimal string."
        )
    )
    created_at = serializers.DateTimeField(help_text="ISO 8601, UTC (Z)")


class SuggestionListOutputSerializer(serializers.Serializer):
    plan_id = serializers.UUIDField()
    plan_number = serializers.IntegerField(min_value=1)
    open_count = serializers.IntegerField(min_value=0)
    suggestions = SuggestionOutputSerializer(many=True)


class PlanSuggestionListApi(APIView):
    """Runs the plan's suggestion sync, then lists its open suggestions.

    Authentication runs before the handler, so a request without a usable key gets its 401/403
    before the plan number is even looked at. A plan that does not exist and one the key's user
    is not a member of give the same 404.
    """

    authentication_classes = [ApiKeyAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes = [ApiKeyThrottle]

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
                OpenApiTypes.INT,
                OpenApiParameter.PATH,
                description=f"Plan number, 1 to {MAX_PLAN_NUMBER}",
            )
        ],
        responses={
            200: envelope_serializer("SuggestionListEnvelope", SuggestionListOutputSerializer()),
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
        result = suggestion_sync(plan=plan)
        return api_response(
            request, suggestion_list_payload(plan=plan, suggestions=result.open_suggestions)
        )

"""Acting on suggestions over the API (docs/subsystems/integrator-api.md "Acts"):

- `POST /api/v1/platform/plans/{planNumber}/suggestions/{suggestionId}/dismiss` with
  `{"reason", "comment"}` and `.../restore` with `{}`: 200 with the suggestion and its `status`;
- only keys with the permission `read_write` whose holder may change the plan (a read key, or a
  viewer's key, member or guest, gets 403 `auth.insufficient_permission` on a plan it may read;
  a plan it may not read is the usual 404);
- `Idempotency-Key` (1-255 printable characters) on every POST (platform_api.idempotency).

The acts run the web app's services (planning.suggestions.services), so they are in the plan's
history with the key's principal as actor (accounts.actor) and in the webhooks' events.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from planning.models import DismissReason, Plan, Suggestion, SuggestionType
from planning.suggestions.selectors import suggestion_payloads_with_status
from planning.suggestions.services.apply import (
    suggestion_apply_code,
    suggestion_apply_cost,
    suggestion_apply_due_year,
    suggestion_apply_move,
    suggestion_apply_project,
    suggestion_apply_repair,
)
from planning.suggestions.services.dismissal import (
    DISMISS_COMMENT_MAX,
    suggestion_restore,
    suggestions_dismiss,
)
from platform_api.acting import (
    ActApi,
    acting_plan,
    body_fields,
    body_validated,
    uuid_or_none,
)
from platform_api.idempotency import IDEMPOTENCY_KEY, idempotent
from platform_api.params import PLAN_NUMBER
from platform_api.serializers import SuggestionWithStatusSerializer


def _suggestion(plan: Plan, suggestion_id: str) -> Suggestion:
    suggestion = Suggestion.objects.filter(plan=plan, pk=uuid_or_none(suggestion_id)).first()
    if suggestion is None:
        raise ApiError("suggestions.not_found")
    return suggestion


def _suggestion_shown(plan: Plan, suggestion_id: Any) -> dict[str, Any]:
    """The suggestion with its status, as the answer's `data`."""
    payloads = suggestion_payloads_with_status(plan_id=plan.pk, suggestion_ids=[suggestion_id])
    return SuggestionWithStatusSerializer(payloads[str(suggestion_id)]).data


class DismissBodySerializer(serializers.Serializer):
    reason = serializers.ChoiceField(choices=DismissReason.choices)
    comment = serializers.CharField(
        required=False, allow_blank=True, max_length=DISMISS_COMMENT_MAX, default=""
    )


SUGGESTION_ID = OpenApiParameter(
    "suggestionId",
    {"type": "string", "format": "uuid"},
    OpenApiParameter.PATH,
    description="The suggestion's id (from the list).",
)


def _act_errors() -> dict[int, OpenApiResponse]:
    return error_responses(
        {
            400: [
                "validation.plan_number",
                "validation.malformed_json",
                "validation.body_not_object",
                "validation.failed",
            ],
            403: ["auth.insufficient_permission"],
            404: ["plans.not_found", "suggestions.not_found"],
            409: ["suggestions.state_conflict", "idempotency.mismatch"],
            415: ["validation.unsupported_media_type"],
        }
    )


class SuggestionDismissApi(ActApi):
    @extend_schema(
        operation_id="dismissSuggestion",
        summary="Dismiss an open suggestion",
        description=(
            "Dismisses the suggestion for good (later synchronisations leave it dismissed), "
            "as the web app's Dismiss does. Needs a key with the read and write permission."
        ),
        parameters=[PLAN_NUMBER, SUGGESTION_ID, IDEMPOTENCY_KEY],
        request=DismissBodySerializer,
        responses={
            200: OpenApiResponse(
                response=envelope_serializer(
                    "SuggestionActEnvelope", SuggestionWithStatusSerializer()
                ),
                description="The suggestion, now dismissed.",
            ),
            **_act_errors(),
        },
        tags=["plans"],
    )
    def post(self, request: Request, planNumber: str, suggestionId: str) -> Response:
        plan = acting_plan(request, planNumber)
        fields = body_validated(
            DismissBodySerializer(data=body_fields(request, {"reason", "comment"}))
        )
        suggestion = _suggestion(plan, suggestionId)
        user = request.user if getattr(request.user, "pk", None) is not None else None

        def act() -> tuple[Any, str, str]:
            try:
                dismissed = suggestions_dismiss(
                    plan=plan,
                    suggestion_ids=[suggestion.pk],
                    user=user,
                    reason=fields["reason"],
                    comment=fields["comment"],
                )
            except ValidationError as error:
                raise ApiError("validation.failed", errors=error.message_dict) from None
            if not dismissed:
                raise ApiError(
                    "suggestions.state_conflict", "Only an open suggestion can be dismissed."
                )
            return _suggestion_shown(plan, suggestion.pk), "Dismissed.", "suggestions.dismissed"

        return idempotent(request, act)


class SuggestionRestoreApi(ActApi):
    @extend_schema(
        operation_id="restoreSuggestion",
        summary="Restore a dismissed suggestion",
        description=(
            "Puts a dismissed suggestion back to open, as the web app's Restore does. Needs a "
            "key with the read and write permission."
        ),
        parameters=[PLAN_NUMBER, SUGGESTION_ID, IDEMPOTENCY_KEY],
        request={
            "application/json": {
                "type": "object",
                "additionalProperties": False,
                "description": "An empty object; a missing body counts as {}.",
                "example": {},
            }
        },
        responses={
            200: OpenApiResponse(
                response=envelope_serializer(
                    "SuggestionRestoreEnvelope", SuggestionWithStatusSerializer()
                ),
                description="The suggestion, open again.",
            ),
            **_act_errors(),
        },
        tags=["plans"],
    )
    def post(self, request: Request, planNumber: str, suggestionId: str) -> Response:
        plan = acting_plan(request, planNumber)
        body_fields(request, set())
        suggestion = _suggestion(plan, suggestionId)

        def act() -> tuple[Any, str, str]:
            try:
                suggestion_restore(suggestion=suggestion)
            except ValidationError:
                raise ApiError(
                    "suggestions.state_conflict", "Only a dismissed suggestion can be restored."
                ) from None
            return _suggestion_shown(plan, suggestion.pk), "Restored.", "suggestions.restored"

        return idempotent(request, act)


class ApplyBodySerializer(serializers.Serializer):
    code_id = serializers.UUIDField(
        required=False, help_text="A missing code: one of the suggestion's prefill_code_ids."
    )
    fix = serializers.ChoiceField(
        choices=["cost", "year"],
        required=False,
        help_text="A cost or timing deviation: set the reference cost, or move to the due year.",
    )


def _apply(suggestion: Any, fields: dict[str, Any]) -> None:
    kind = suggestion.suggestion_type
    if kind == SuggestionType.MISSING_CODE:
        offered = suggestion.recommended_action_json.get("prefill_code_ids", [])
        code_id = fields.get("code_id")
        if code_id is None or str(code_id) not in [str(pk) for pk in offered]:
            raise ApiError(
                "validation.failed",
                errors={"code_id": ["One of the suggestion's prefill_code_ids."]},
            )
        suggestion_apply_code(suggestion=suggestion, code_id=code_id)
    elif kind == SuggestionType.PROJECT_GROUPING:
        suggestion_apply_project(suggestion=suggestion)
    elif kind == SuggestionType.CONDITION:
        suggestion_apply_repair(suggestion=suggestion)
    elif kind == SuggestionType.BUDGET_PEAK:
        suggestion_apply_move(suggestion=suggestion)
    elif fields.get("fix") == "cost":
        suggestion_apply_cost(suggestion=suggestion)
    elif fields.get("fix") == "year":
        suggestion_apply_due_year(suggestion=suggestion)
    else:
        raise ApiError("validation.failed", errors={"fix": ["cost or year."]})


class SuggestionApplyApi(ActApi):
    @extend_schema(
        operation_id="applySuggestion",
        summary="Apply an open suggestion",
        description=(
            "Does what the web app's Apply does: assigns the chosen code (`code_id`, one of "
            "the suggestion's `prefill_code_ids`), creates the proposed project, plans the "
            "repair, moves the actions of a budget peak, or fixes a deviation (`fix`: `cost` "
            "sets the reference cost, `year` moves the action to its due year)."
        ),
        parameters=[PLAN_NUMBER, SUGGESTION_ID, IDEMPOTENCY_KEY],
        request=ApplyBodySerializer,
        responses={
            200: OpenApiResponse(
                response=envelope_serializer(
                    "SuggestionApplyEnvelope", SuggestionWithStatusSerializer()
                ),
                description="The suggestion, now applied.",
            ),
            **error_responses(
                {
                    400: ["validation.plan_number", "validation.failed"],
                    403: ["auth.insufficient_permission"],
                    404: ["plans.not_found", "suggestions.not_found"],
                    409: ["suggestions.state_conflict", "idempotency.mismatch"],
                    415: ["validation.unsupported_media_type"],
                }
            ),
        },
        tags=["plans"],
    )
    def post(self, request: Request, planNumber: str, suggestionId: str) -> Response:
        plan = acting_plan(request, planNumber)
        fields = body_validated(ApplyBodySerializer(data=body_fields(request, {"code_id", "fix"})))
        suggestion = _suggestion(plan, suggestionId)

        def act() -> tuple[Any, str, str]:
            try:
                _apply(suggestion, fields)
            except ValidationError as error:
                raise ApiError("suggestions.state_conflict", " ".join(error.messages)) from None
            return _suggestion_shown(plan, suggestion.pk), "Applied.", "suggestions.applied"

        return idempotent(request, act)

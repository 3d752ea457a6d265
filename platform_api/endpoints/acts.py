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

import uuid
from typing import Any

from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.base import IntegratorApiView
from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from api.parsers import json_object_body
from apikeys.authentication import ApiKeyAuthentication
from apikeys.models import ApiKey
from apikeys.selectors import key_holder_may_change_plan, plan_for_key
from planning.models import DismissReason, Plan, Suggestion
from planning.suggestions.selectors import suggestion_payloads_with_status
from planning.suggestions.services.dismissal import (
    DISMISS_COMMENT_MAX,
    suggestion_restore,
    suggestions_dismiss,
)
from platform_api.base import key_of
from platform_api.idempotency import IDEMPOTENCY_KEY, idempotent
from platform_api.params import PLAN_NUMBER, plan_number_parse
from platform_api.serializers import SuggestionWithStatusSerializer

# A read_write key whose holder may only view the plan.
HOLDER_MAY_NOT_CHANGE = (
    "You may view this plan but not change it: a key acts with at most its holder's rights "
    "on the plan."
)


def _may_act(request: Request, plan: Plan) -> None:
    """A key with the read_write permission whose holder may change the plan (the web app's
    rule). Checked once the plan is known to be one the key may read, so a plan it may not see
    is exactly a missing plan's 404 for any key."""
    api_key = key_of(request)
    if api_key.permission != ApiKey.Permission.READ_WRITE:
        raise ApiError("auth.insufficient_permission")
    if not key_holder_may_change_plan(api_key=api_key, plan=plan):
        raise ApiError("auth.insufficient_permission", HOLDER_MAY_NOT_CHANGE)


def _suggestion(plan: Plan, suggestion_id: str) -> Suggestion:
    suggestion = Suggestion.objects.filter(plan=plan, pk=_uuid_or_none(suggestion_id)).first()
    if suggestion is None:
        raise ApiError("suggestions.not_found")
    return suggestion


def _uuid_or_none(raw: str) -> Any:
    try:
        return uuid.UUID(raw)
    except ValueError:
        return None


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


class _ActApi(IntegratorApiView):
    authentication_classes = [ApiKeyAuthentication]


def _body(request: Request, fields: set[str]) -> dict[str, Any]:
    """The body's `fields`; a field the request does not know is ignored, as on the session
    check and as the schema allows (a client may send fields a later version reads)."""
    body = json_object_body(request)
    return {name: value for name, value in body.items() if name in fields}


class SuggestionDismissApi(_ActApi):
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
        number = plan_number_parse(planNumber)
        plan = plan_for_key(api_key=key_of(request), number=number)
        _may_act(request, plan)
        body = _body(request, {"reason", "comment"})
        form = DismissBodySerializer(data=body)
        if not form.is_valid():
            raise ApiError("validation.failed", errors=form.errors)
        suggestion = _suggestion(plan, suggestionId)
        user = request.user if getattr(request.user, "pk", None) is not None else None

        def act() -> tuple[Any, str, str]:
            try:
                dismissed = suggestions_dismiss(
                    plan=plan,
                    suggestion_ids=[suggestion.pk],
                    user=user,
                    reason=form.validated_data["reason"],
                    comment=form.validated_data["comment"],
                )
            except ValidationError as error:
                raise ApiError("validation.failed", errors=error.message_dict) from None
            if not dismissed:
                raise ApiError(
                    "suggestions.state_conflict", "Only an open suggestion can be dismissed."
                )
            return _suggestion_shown(plan, suggestion.pk), "Dismissed.", "suggestions.dismissed"

        return idempotent(request, act)


class SuggestionRestoreApi(_ActApi):
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
        number = plan_number_parse(planNumber)
        plan = plan_for_key(api_key=key_of(request), number=number)
        _may_act(request, plan)
        _body(request, set())
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

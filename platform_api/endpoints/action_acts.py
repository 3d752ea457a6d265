"""Changing a plan's actions, and applying a suggestion, over the API
(docs/subsystems/integrator-api.md "Acts"):

- `POST .../plans/{planNumber}/actions` creates an action; `PATCH .../actions/{actionId}`
  changes some of its fields; `POST .../actions/{actionId}/complete` records the work
  (`{"completed_on", "actual_cost"}`); `DELETE .../actions/{actionId}` deletes it;
- `POST .../suggestions/{suggestionId}/apply` does what the web app's Apply does (`{"code_id"}`
  for a missing code, `{"fix": "cost" | "year"}` for a deviation, `{}` otherwise).

Each runs the web app's services (planning.plans.services.actions,
planning.suggestions.services.apply), so the bounds, the history (with the key's principal as
actor) and the webhooks' events are the web app's; each takes an `Idempotency-Key`, and a key
acts with at most its holder's rights (platform_api.endpoints.acts._may_act).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from apikeys.selectors import plan_for_key
from planning.core.writes import plan_write
from planning.figures.prices import PriceIndex
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    Plan,
    Project,
    StructureNode,
    SuggestionType,
)
from planning.plans.services.actions import (
    action_cancel,
    action_create,
    action_delete,
    action_mark_done,
    action_reopen,
    action_update,
)
from planning.suggestions.services.apply import (
    suggestion_apply_code,
    suggestion_apply_cost,
    suggestion_apply_due_year,
    suggestion_apply_move,
    suggestion_apply_project,
    suggestion_apply_repair,
)
from platform_api.base import key_of
from platform_api.endpoints.acts import (
    SUGGESTION_ID,
    _ActApi,
    _body,
    _may_act,
    _suggestion,
    _suggestion_shown,
    _uuid_or_none,
)
from platform_api.endpoints.records import ActionSerializer, PlanActionListApi
from platform_api.idempotency import IDEMPOTENCY_KEY, idempotent
from platform_api.params import PLAN_NUMBER, plan_number_parse
from platform_api.serializers import SuggestionWithStatusSerializer

ACTION_FIELDS = (
    "title",
    "kind",
    "planned_year",
    "interval_years",
    "estimated_cost",
    "status",
    "node_id",
    "project_id",
)
# The model's field names in a ValidationError, as the API names them.
_API_FIELD = {"node": "node_id", "project": "project_id", "__all__": "non_field_errors"}

ACTION_ID = OpenApiParameter(
    "actionId",
    {"type": "string", "format": "uuid"},
    OpenApiParameter.PATH,
    description="The action's id (from the list).",
)


class ActionBodySerializer(serializers.Serializer):
    """An action's fields as a client sends them; the bounds are the model's (checked by the
    service, as in the web app)."""

    title = serializers.CharField(max_length=200)
    kind = serializers.ChoiceField(choices=ActionKind.choices)
    planned_year = serializers.IntegerField()
    interval_years = serializers.IntegerField(allow_null=True, required=False, default=None)
    estimated_cost = serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, default=Decimal(0)
    )
    status = serializers.ChoiceField(
        choices=[ActionStatus.PLANNED, ActionStatus.CANCELLED],
        required=False,
        help_text="planned or cancelled; record the work with .../complete.",
    )
    node_id = serializers.UUIDField()
    project_id = serializers.UUIDField(allow_null=True, required=False, default=None)


class DeletedSerializer(serializers.Serializer):
    id = serializers.UUIDField(help_text="The deleted action's id.")


class CompleteBodySerializer(serializers.Serializer):
    completed_on = serializers.DateField(required=False, help_text="Defaults to today.")
    actual_cost = serializers.DecimalField(
        max_digits=14, decimal_places=2, required=False, allow_null=True, default=None
    )


class ApplyBodySerializer(serializers.Serializer):
    code_id = serializers.UUIDField(
        required=False, help_text="A missing code: one of the suggestion's prefill_code_ids."
    )
    fix = serializers.ChoiceField(
        choices=["cost", "year"],
        required=False,
        help_text="A cost or timing deviation: set the reference cost, or move to the due year.",
    )


def _errors(error: ValidationError) -> dict[str, list[str]]:
    if not hasattr(error, "error_dict"):
        return {"non_field_errors": list(error.messages)}
    return {_API_FIELD.get(name, name): messages for name, messages in error.message_dict.items()}


def _parsed(serializer: serializers.Serializer) -> dict[str, Any]:
    if not serializer.is_valid():
        raise ApiError("validation.failed", errors=serializer.errors)
    return dict(serializer.validated_data)


def _action(plan: Plan, action_id: str) -> Action:
    action = (
        Action.objects.filter(plan=plan, pk=_uuid_or_none(action_id))
        .select_related("node", "project")
        .first()
    )
    if action is None:
        raise ApiError("actions.not_found")
    return action


def _relations(plan: Plan, fields: dict[str, Any]) -> dict[str, Any]:
    """`node_id` and `project_id` as the plan's node and project, or field errors."""
    errors: dict[str, list[str]] = {}
    found: dict[str, Any] = {}
    if "node_id" in fields:
        found["node"] = StructureNode.objects.filter(plan=plan, pk=fields["node_id"]).first()
        if found["node"] is None:
            errors["node_id"] = ["This plan has no node with this id."]
    if fields.get("project_id") is not None:
        found["project"] = Project.objects.filter(plan=plan, pk=fields["project_id"]).first()
        if found["project"] is None:
            errors["project_id"] = ["This plan has no project with this id."]
    elif "project_id" in fields:
        found["project"] = None
    if errors:
        raise ApiError("validation.failed", errors=errors)
    return found


def _shown(action: Action) -> dict[str, Any]:
    action.refresh_from_db()
    return ActionSerializer(action, context={"price_index": PriceIndex.of(action.plan)}).data


def _act_errors(*extra_404: str) -> dict[int, OpenApiResponse]:
    return error_responses(
        {
            400: [
                "validation.plan_number",
                "validation.malformed_json",
                "validation.body_not_object",
                "validation.failed",
            ],
            403: ["auth.insufficient_permission"],
            404: ["plans.not_found", *extra_404],
            409: ["actions.state_conflict", "idempotency.mismatch"],
            415: ["validation.unsupported_media_type"],
        }
    )


def _action_answer(name: str, description: str) -> OpenApiResponse:
    return OpenApiResponse(
        response=envelope_serializer(name, ActionSerializer()), description=description
    )


def _acting_plan(request: Request, planNumber: str) -> Plan:
    plan = plan_for_key(api_key=key_of(request), number=plan_number_parse(planNumber))
    _may_act(request, plan)
    return plan


def _status_set(action: Action, status: str | None) -> None:
    if status is None or status == action.status:
        return
    if status == ActionStatus.CANCELLED:
        action_cancel(action=action)
    else:
        action_reopen(action=action)


class PlanActionCreateApi(_ActApi):
    @extend_schema(
        operation_id="createAction",
        summary="Create an action",
        description="Adds an action to the plan, as the web app's form does.",
        parameters=[PLAN_NUMBER, IDEMPOTENCY_KEY],
        request=ActionBodySerializer,
        responses={200: _action_answer("ActionEnvelope", "The new action."), **_act_errors()},
        tags=["plans"],
    )
    def post(self, request: Request, planNumber: str) -> Response:
        plan = _acting_plan(request, planNumber)
        fields = _parsed(ActionBodySerializer(data=_body(request, set(ACTION_FIELDS))))

        def act() -> tuple[Any, str, str]:
            related = _relations(plan, fields)
            try:
                action = action_create(
                    plan=plan,
                    node=related["node"],
                    title=fields["title"],
                    kind=fields["kind"],
                    planned_year=fields["planned_year"],
                    estimated_cost=fields["estimated_cost"],
                    project=related.get("project"),
                    status=fields.get("status", ActionStatus.PLANNED),
                    interval_years=fields["interval_years"],
                )
            except ValidationError as error:
                raise ApiError("validation.failed", errors=_errors(error)) from None
            return _shown(action), "Action created.", "actions.created"

        return idempotent(request, act)


class PlanActionApi(_ActApi):
    @extend_schema(
        operation_id="updateAction",
        summary="Change an action",
        description=(
            "Changes the fields sent (any of title, kind, planned_year, interval_years, "
            "estimated_cost, status, node_id, project_id), as the web app's form does."
        ),
        parameters=[PLAN_NUMBER, ACTION_ID, IDEMPOTENCY_KEY],
        request=ActionBodySerializer(partial=True),
        responses={
            200: _action_answer("ActionUpdateEnvelope", "The action as changed."),
            **_act_errors("actions.not_found"),
        },
        tags=["plans"],
    )
    def patch(self, request: Request, planNumber: str, actionId: str) -> Response:
        plan = _acting_plan(request, planNumber)
        body = _body(request, set(ACTION_FIELDS))
        fields = _parsed(ActionBodySerializer(data=body, partial=True))
        action = _action(plan, actionId)

        def act() -> tuple[Any, str, str]:
            related = _relations(plan, fields)
            try:
                with plan_write(plan_id=plan.pk, data_changed=True):
                    action_update(
                        action=action,
                        node=related.get("node", action.node),
                        title=fields.get("title", action.title),
                        kind=fields.get("kind", action.kind),
                        planned_year=fields.get("planned_year", action.planned_year),
                        estimated_cost=fields.get("estimated_cost", action.estimated_cost),
                        interval_years=fields.get("interval_years", action.interval_years),
                        project=related.get("project", action.project),
                    )
                    _status_set(action, fields.get("status"))
            except ValidationError as error:
                raise ApiError("validation.failed", errors=_errors(error)) from None
            return _shown(action), "Action changed.", "actions.updated"

        return idempotent(request, act)

    @extend_schema(
        operation_id="deleteAction",
        summary="Delete an action",
        description="Deletes the action and its completions (the history keeps them).",
        parameters=[PLAN_NUMBER, ACTION_ID, IDEMPOTENCY_KEY],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("ActionDeleteEnvelope", DeletedSerializer()),
                description="Deleted; `data` names the action.",
            ),
            **_act_errors("actions.not_found"),
        },
        tags=["plans"],
    )
    def delete(self, request: Request, planNumber: str, actionId: str) -> Response:
        plan = _acting_plan(request, planNumber)

        def act() -> tuple[Any, str, str]:  # looked up inside: a replay finds it gone
            action = _action(plan, actionId)
            action_id = str(action.pk)
            action_delete(action=action)
            return {"id": action_id}, "Action deleted.", "actions.deleted"

        return idempotent(request, act)


class PlanActionCompleteApi(_ActApi):
    @extend_schema(
        operation_id="completeAction",
        summary="Record the work on an action",
        description=(
            "Marks a planned action done, as the web app's Mark done does: a one-off action is "
            "done, a recurring one moves to its next occurrence."
        ),
        parameters=[PLAN_NUMBER, ACTION_ID, IDEMPOTENCY_KEY],
        request=CompleteBodySerializer,
        responses={
            200: _action_answer("ActionCompleteEnvelope", "The action after the work."),
            **_act_errors("actions.not_found"),
        },
        tags=["plans"],
    )
    def post(self, request: Request, planNumber: str, actionId: str) -> Response:
        plan = _acting_plan(request, planNumber)
        fields = _parsed(
            CompleteBodySerializer(data=_body(request, {"completed_on", "actual_cost"}))
        )
        action = _action(plan, actionId)
        user = request.user if getattr(request.user, "pk", None) is not None else None

        def act() -> tuple[Any, str, str]:
            try:
                action_mark_done(
                    action=action,
                    by=user,
                    completed_on=fields.get("completed_on"),
                    actual_cost=fields["actual_cost"],
                )
            except ValidationError as error:
                if not hasattr(error, "error_dict"):
                    raise ApiError("actions.state_conflict", " ".join(error.messages)) from None
                raise ApiError("validation.failed", errors=_errors(error)) from None
            return _shown(action), "Work recorded.", "actions.completed"

        return idempotent(request, act)


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


class SuggestionApplyApi(_ActApi):
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
        plan = _acting_plan(request, planNumber)
        fields = _parsed(ApplyBodySerializer(data=_body(request, {"code_id", "fix"})))
        suggestion = _suggestion(plan, suggestionId)

        def act() -> tuple[Any, str, str]:
            try:
                _apply(suggestion, fields)
            except ValidationError as error:
                raise ApiError("suggestions.state_conflict", " ".join(error.messages)) from None
            return _suggestion_shown(plan, suggestion.pk), "Applied.", "suggestions.applied"

        return idempotent(request, act)


class PlanActionsApi(PlanActionListApi):
    """`.../actions`: the list (GET) and the creation (POST) share their path."""

    post = PlanActionCreateApi.post

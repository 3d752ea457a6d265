"""A plan's actions over the API (docs/subsystems/integrator-api.md "Platform resources", "Acts"):

- `GET .../plans/{planNumber}/actions`: the paged list, with its filters and `updated_since`;
- `POST .../actions` creates an action; `PATCH .../actions/{actionId}` changes the fields sent;
  `POST .../actions/{actionId}/complete` records the work (`{"completed_on", "actual_cost"}`);
  `DELETE .../actions/{actionId}` deletes it.

The acts run the web app's services (planning.plans.services.actions), so the bounds, the
history (with the key's principal as actor) and the webhooks' events are the web app's; each
takes an `Idempotency-Key`, and a key acts with at most its holder's rights
(platform_api.acting.may_act).
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from accounts.models import User
from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from apikeys.selectors import plan_for_key
from planning.core.writes import plan_write
from planning.figures.prices import PriceIndex
from planning.models import Action, ActionKind, ActionStatus, Plan, Project, StructureNode
from planning.plans.action_filters import ActionFilters, actions_filtered
from planning.plans.services.actions import (
    action_cancel,
    action_create,
    action_delete,
    action_mark_done,
    action_reopen,
    action_update,
)
from planning.suggestions.selectors import plan_data_state
from platform_api.acting import ActApi, acting_plan, body_fields, body_validated, uuid_or_none
from platform_api.base import IF_NONE_MATCH, NOT_MODIFIED, RecordApi, etag_of, key_of
from platform_api.idempotency import IDEMPOTENCY_KEY, idempotent
from platform_api.paging import (
    CURSOR,
    LIMIT,
    limit_parse,
    next_cursor,
    page_by_pk,
    uuid_cursor_parse,
)
from platform_api.params import (
    PLAN_NUMBER,
    UPDATED_SINCE,
    changed_since,
    choice_parse,
    plan_number_parse,
    query_enum,
    query_uuid,
    query_year,
    since_parse,
    uuid_parse,
    year_parse,
)
from platform_api.serializers import ActionSerializer


def _list_errors() -> dict[int, OpenApiResponse]:
    return error_responses(
        {400: ["validation.plan_number", "validation.query"], 404: ["plans.not_found"]}
    )


class ActionPageSerializer(serializers.Serializer):
    actions = ActionSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class PlanActionListApi(RecordApi):
    @extend_schema(
        operation_id="listPlanActions",
        summary="List the actions of a plan",
        description=(
            "The plan's actions in a fixed order, paged; filters narrow them. `year_from` and "
            "`year_to` keep the actions that occur in those years (a recurring action in any "
            "of its occurrences)."
        ),
        parameters=[
            PLAN_NUMBER,
            query_year("year_from", "Only actions occurring in this year or later."),
            query_year("year_to", "Only actions occurring in this year or earlier."),
            query_enum("status", ActionStatus.values, "Only actions with this status."),
            query_enum("kind", ActionKind.values, "Only actions of this kind."),
            query_uuid("structure_node_id", "Only actions on this node or below it."),
            query_uuid("project_id", "Only the actions of this project."),
            UPDATED_SINCE,
            LIMIT,
            CURSOR,
            IF_NONE_MATCH,
        ],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PlanActionsEnvelope", ActionPageSerializer()),
                description="One page of actions.",
            ),
            304: NOT_MODIFIED,
            **_list_errors(),
        },
        tags=["plans"],
    )
    def get(self, request: Request, planNumber: str) -> Response:
        number = plan_number_parse(planNumber)
        params = request.query_params
        errors: dict[str, list[str]] = {}
        year_from = year_parse(params, "year_from", errors)
        year_to = year_parse(params, "year_to", errors)
        status = choice_parse(params, "status", ActionStatus.values, errors)
        kind = choice_parse(params, "kind", ActionKind.values, errors)
        node = uuid_parse(params, "structure_node_id", errors)
        project = uuid_parse(params, "project_id", errors)
        updated_since = since_parse(params, errors, "updated_since")
        if year_from is not None and year_to is not None and year_to < year_from:
            errors["year_to"] = ["The last year comes before the first."]
        limit = limit_parse(params, errors)
        binding = (
            f"actions|{number}|{year_from or ''}|{year_to or ''}|{status or ''}|{kind or ''}|"
            f"{node or ''}|{project or ''}|{updated_since.isoformat() if updated_since else ''}"
        )
        after = uuid_cursor_parse(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        plan = plan_for_key(api_key=key_of(request), number=number)
        actions = actions_filtered(
            plan=plan,
            filters=ActionFilters(
                kind=kind or "",
                status=status or "",
                year_from=year_from,
                year_to=year_to,
                node_id=node,
                project=str(project) if project else "",
            ),
        )
        if updated_since is not None:
            actions = actions.filter(changed_since(updated_since))
        etag = etag_of("actions", plan.pk, plan_data_state(plan=plan), binding, after, limit)
        index = PriceIndex.of(plan)

        def build() -> dict[str, Any]:
            page, more = page_by_pk(actions, after, limit)
            cursor = next_cursor(binding, page, limit, more, key=lambda a: str(a.pk))
            return ActionPageSerializer(
                {"actions": page, "next_cursor": cursor}, context={"price_index": index}
            ).data

        return self.answer(request, etag, build)


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

    title = serializers.CharField(min_length=1, max_length=200)
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


def _errors(error: ValidationError) -> dict[str, list[str]]:
    if not hasattr(error, "error_dict"):
        return {"non_field_errors": list(error.messages)}
    return {_API_FIELD.get(name, name): messages for name, messages in error.message_dict.items()}


def _action(plan: Plan, action_id: str) -> Action:
    action = (
        Action.objects.filter(plan=plan, pk=uuid_or_none(action_id))
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


def _status_set(action: Action, status: str | None) -> None:
    if status is None or status == action.status:
        return
    if status == ActionStatus.CANCELLED:
        action_cancel(action=action)
    else:
        action_reopen(action=action)


class PlanActionCreateApi(ActApi):
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
        plan = acting_plan(request, planNumber)
        fields = body_validated(ActionBodySerializer(data=body_fields(request, set(ACTION_FIELDS))))

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


class PlanActionApi(ActApi):
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
        plan = acting_plan(request, planNumber)
        body = body_fields(request, set(ACTION_FIELDS))
        fields = body_validated(ActionBodySerializer(data=body, partial=True))
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
        plan = acting_plan(request, planNumber)

        def act() -> tuple[Any, str, str]:  # looked up inside: a replay finds it gone
            action = _action(plan, actionId)
            action_id = str(action.pk)
            action_delete(action=action)
            return {"id": action_id}, "Action deleted.", "actions.deleted"

        return idempotent(request, act)


class PlanActionCompleteApi(ActApi):
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
        plan = acting_plan(request, planNumber)
        fields = body_validated(
            CompleteBodySerializer(data=body_fields(request, {"completed_on", "actual_cost"}))
        )
        action = _action(plan, actionId)
        user = request.user if isinstance(request.user, User) else None

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


class PlanActionsApi(PlanActionListApi):
    """`.../actions`: the list (GET) and the creation (POST) share their path."""

    post = PlanActionCreateApi.post

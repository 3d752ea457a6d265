"""A plan's nodes, actions and projects over the API (docs/subsystems/integrator-api.md
"Platform resources"): paged lists with the platform resources' rules (platform_api.endpoints.plans:
an immutable order, filters that name nothing give an empty list, ETag and 404 as the
suggestions list's)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from apikeys.selectors import plan_for_key
from planning.core.money import amount_of, cents_of
from planning.figures.prices import PriceIndex
from planning.models import (
    ActionKind,
    ActionStatus,
    NodeKind,
    Project,
    StructureNode,
)
from planning.plans.action_filters import ActionFilters, actions_filtered
from planning.suggestions.selectors import plan_data_state
from planning.tree.paths import path_ids
from planning.tree.selectors import node_subtree
from platform_api.base import IF_NONE_MATCH, NOT_MODIFIED, RecordApi, etag_of, key_of
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
    choice_parse,
    plan_number_parse,
    query_enum,
    query_uuid,
    query_year,
    since_parse,
    uuid_parse,
    year_parse,
)
from platform_api.serializers import DecimalTextField


class AncestorPathField(serializers.CharField):
    """A node's stored path (ancestor ids as 32 hex digits, each followed by '/') in the form of
    every id of the API: "0b5c…-…/6f1c…-…/"."""

    def to_representation(self, value: str) -> str:
        return "".join(f"{ancestor}/" for ancestor in path_ids(value))


class NodeSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    parent_id = serializers.UUIDField(allow_null=True)
    name = serializers.CharField()
    kind = serializers.CharField(help_text="site, building, component, ... (more may come).")
    code = serializers.CharField(allow_null=True, source="code.code")
    quantity = DecimalTextField(
        max_digits=14, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    unit = serializers.CharField(allow_blank=True)
    install_year = serializers.IntegerField(allow_null=True)
    building_id = serializers.UUIDField(allow_null=True, help_text="The building it is in.")
    path = AncestorPathField(
        help_text="The ancestors' ids from the top, each followed by '/' (empty for a root); "
        "the same form as `id`."
    )
    ref = serializers.CharField(allow_null=True)
    address = serializers.CharField(allow_blank=True)
    gross_floor_area_m2 = DecimalTextField(
        max_digits=14, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    year_built = serializers.IntegerField(allow_null=True)
    condition_grade = serializers.IntegerField(allow_null=True)
    condition_assessed_on = serializers.DateField(allow_null=True)


class NodePageSerializer(serializers.Serializer):
    nodes = NodeSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class _NominalCostField(DecimalTextField):
    """An action's cost in its planned year, by the plan's PriceIndex (the serializer's
    context's `price_index`)."""

    def get_attribute(self, instance: Any) -> Any:
        index: PriceIndex = self.context["price_index"]
        return amount_of(
            index.nominal_cents(cents_of(instance.estimated_cost), instance.planned_year)
        )


class ActionSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    node_id = serializers.UUIDField()
    title = serializers.CharField()
    kind = serializers.CharField(help_text="The action's kind (more may come).")
    planned_year = serializers.IntegerField()
    interval_years = serializers.IntegerField(allow_null=True, help_text="Null: a one-off.")
    estimated_cost = DecimalTextField(
        max_digits=14, decimal_places=2, coerce_to_string=True, help_text="Today's prices."
    )
    nominal_cost = _NominalCostField(
        source="*",
        max_digits=16,
        decimal_places=2,
        coerce_to_string=True,
        help_text="Of its planned year, indexed and with the plan's markups.",
    )
    status = serializers.CharField(help_text="planned, done or cancelled (more may come).")
    project_id = serializers.UUIDField(allow_null=True)


class ActionPageSerializer(serializers.Serializer):
    actions = ActionSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class ProjectSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    year = serializers.IntegerField()


class ProjectPageSerializer(serializers.Serializer):
    projects = ProjectSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


def _list_errors() -> dict[int, OpenApiResponse]:
    return error_responses(
        {400: ["validation.plan_number", "validation.query"], 404: ["plans.not_found"]}
    )


class PlanNodeListApi(RecordApi):
    @extend_schema(
        operation_id="listPlanNodes",
        summary="List the structure nodes of a plan",
        description="The plan's nodes in a fixed order, paged; filters narrow them.",
        parameters=[
            PLAN_NUMBER,
            query_uuid("parent_id", "Only the children of this node."),
            query_enum("kind", NodeKind.values, "Only nodes of this kind."),
            query_uuid("under", "Only this node and the nodes below it."),
            LIMIT,
            CURSOR,
            IF_NONE_MATCH,
        ],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PlanNodesEnvelope", NodePageSerializer()),
                description="One page of nodes.",
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
        parent = uuid_parse(params, "parent_id", errors)
        kind = choice_parse(params, "kind", NodeKind.values, errors)
        under = uuid_parse(params, "under", errors)
        limit = limit_parse(params, errors)
        binding = f"nodes|{number}|{parent or ''}|{kind or ''}|{under or ''}"
        after = uuid_cursor_parse(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        plan = plan_for_key(api_key=key_of(request), number=number)
        nodes = StructureNode.objects.filter(plan=plan)
        if parent is not None:
            nodes = nodes.filter(parent_id=parent)
        if kind:
            nodes = nodes.filter(kind=kind)
        if under is not None:
            nodes = nodes.filter(pk__in=node_subtree(node_id=under).values("id"))
        etag = etag_of("nodes", plan.pk, plan_data_state(plan=plan), binding, after, limit)

        def build() -> dict[str, Any]:
            page, more = page_by_pk(nodes.select_related("code"), after, limit)
            cursor = next_cursor(binding, page, limit, more, key=lambda n: str(n.pk))
            return NodePageSerializer({"nodes": page, "next_cursor": cursor}).data

        return self.answer(request, etag, build)


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
            actions = actions.filter(updated_at__gte=updated_since)
        etag = etag_of("actions", plan.pk, plan_data_state(plan=plan), binding, after, limit)
        index = PriceIndex.of(plan)

        def build() -> dict[str, Any]:
            page, more = page_by_pk(actions, after, limit)
            cursor = next_cursor(binding, page, limit, more, key=lambda a: str(a.pk))
            return ActionPageSerializer(
                {"actions": page, "next_cursor": cursor}, context={"price_index": index}
            ).data

        return self.answer(request, etag, build)


class PlanProjectListApi(RecordApi):
    @extend_schema(
        operation_id="listPlanProjects",
        summary="List the projects of a plan",
        description="The plan's projects in a fixed order, paged.",
        parameters=[PLAN_NUMBER, LIMIT, CURSOR, IF_NONE_MATCH],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PlanProjectsEnvelope", ProjectPageSerializer()),
                description="One page of projects.",
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
        limit = limit_parse(params, errors)
        binding = f"projects|{number}"
        after = uuid_cursor_parse(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        plan = plan_for_key(api_key=key_of(request), number=number)
        etag = etag_of("projects", plan.pk, plan_data_state(plan=plan), after, limit)

        def build() -> dict[str, Any]:
            page, more = page_by_pk(Project.objects.filter(plan=plan), after, limit)
            cursor = next_cursor(binding, page, limit, more, key=lambda p: str(p.pk))
            return ProjectPageSerializer({"projects": page, "next_cursor": cursor}).data

        return self.answer(request, etag, build)

"""A plan's nodes, actions and projects over the API (docs/design.md "Integrator API" >
"Platform resources"): paged lists with the platform resources' rules (integrations.platform_api:
an immutable order, filters that name nothing give an empty list, ETag and 404 as the
suggestions list's)."""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet
from django.http import QueryDict
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from integrations.paging import (
    CURSOR,
    IF_NONE_MATCH,
    LIMIT,
    NOT_MODIFIED,
    PLAN_NUMBER,
    RecordApi,
    cursor_parse,
    etag_of,
    key_of,
    limit_parse,
    money_text,
    next_cursor,
)
from integrations.selectors import plan_for_key
from integrations.suggestions_api import plan_number_parse
from planning.core.money import amount_of, cents_of
from planning.figures.prices import PriceIndex
from planning.models import (
    MAX_YEAR,
    MIN_YEAR,
    ActionKind,
    ActionStatus,
    NodeKind,
    Project,
    StructureNode,
)
from planning.plans.action_filters import ActionFilters, actions_filtered
from planning.suggestions.selectors import plan_data_version
from planning.tree.selectors import node_subtree


def _text(value: Any) -> str | None:
    return str(value) if value is not None else None


def _uuid(params: QueryDict, name: str, errors: dict[str, list[str]]) -> uuid.UUID | None:
    raw = params.get(name)
    if raw is None:
        return None
    try:
        return uuid.UUID(raw)
    except ValueError:
        errors[name] = ["Not an id (a UUID such as 3f2a9c0d-4e5b-4a7c-9d1e-2b3c4d5e6f70)."]
        return None


def _choice(
    params: QueryDict, name: str, choices: list[str], errors: dict[str, list[str]]
) -> str | None:
    raw = params.get(name)
    if raw is not None and raw not in choices:
        errors[name] = [f"'{raw}' is not one of: {', '.join(choices)}."]
        return None
    return raw


def _year(params: QueryDict, name: str, errors: dict[str, list[str]]) -> int | None:
    raw = params.get(name)
    if raw is None:
        return None
    if not raw.isascii() or not raw.isdigit() or not MIN_YEAR <= int(raw) <= MAX_YEAR:
        errors[name] = [f"A year from {MIN_YEAR} to {MAX_YEAR}."]
        return None
    return int(raw)


def _uuid_cursor(params: QueryDict, binding: str, errors: dict[str, list[str]]) -> uuid.UUID | None:
    after = cursor_parse(params, binding, errors)
    if after is None:
        return None
    try:
        return uuid.UUID(str(after))
    except ValueError:
        errors["cursor"] = ["Not a cursor of this list (altered or outdated): start again."]
        return None


def _page(rows: QuerySet[Any], after: Any, limit: int) -> tuple[list[Any], bool]:
    if after is not None:
        rows = rows.filter(pk__gt=after)
    found = list(rows.order_by("pk")[: limit + 1])
    return found[:limit], len(found) > limit


class NodeSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    parent_id = serializers.UUIDField(allow_null=True)
    name = serializers.CharField()
    kind = serializers.CharField(help_text="site, building, component, ... (more may come).")
    code = serializers.CharField(allow_null=True)
    quantity = serializers.DecimalField(
        max_digits=14, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    unit = serializers.CharField(allow_blank=True)
    install_year = serializers.IntegerField(allow_null=True)
    building_id = serializers.UUIDField(allow_null=True, help_text="The building it is in.")
    path = serializers.CharField(help_text="Ancestor ids from the top, '/'-separated.")
    ref = serializers.CharField(allow_null=True)
    address = serializers.CharField(allow_blank=True)
    gross_floor_area_m2 = serializers.DecimalField(
        max_digits=14, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    year_built = serializers.IntegerField(allow_null=True)
    condition_grade = serializers.IntegerField(allow_null=True)
    condition_assessed_on = serializers.DateField(allow_null=True)


class NodePageSerializer(serializers.Serializer):
    nodes = NodeSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class ActionSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    node_id = serializers.UUIDField()
    title = serializers.CharField()
    kind = serializers.CharField(help_text="The action's kind (more may come).")
    planned_year = serializers.IntegerField()
    interval_years = serializers.IntegerField(allow_null=True, help_text="Null: a one-off.")
    estimated_cost = serializers.DecimalField(
        max_digits=14, decimal_places=2, coerce_to_string=True, help_text="Today's prices."
    )
    nominal_cost = serializers.DecimalField(
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


def _query_uuid(name: str, text: str) -> OpenApiParameter:
    return OpenApiParameter(
        name, {"type": "string", "format": "uuid"}, OpenApiParameter.QUERY, description=text
    )


def _query_enum(name: str, values: list[str], text: str) -> OpenApiParameter:
    return OpenApiParameter(
        name, {"type": "string", "enum": values}, OpenApiParameter.QUERY, description=text
    )


def _query_year(name: str, text: str) -> OpenApiParameter:
    return OpenApiParameter(
        name,
        {"type": "integer", "minimum": MIN_YEAR, "maximum": MAX_YEAR},
        OpenApiParameter.QUERY,
        description=text,
    )


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
            _query_uuid("parent_id", "Only the children of this node."),
            _query_enum("kind", NodeKind.values, "Only nodes of this kind."),
            _query_uuid("under", "Only this node and the nodes below it."),
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
        parent = _uuid(params, "parent_id", errors)
        kind = _choice(params, "kind", NodeKind.values, errors)
        under = _uuid(params, "under", errors)
        limit = limit_parse(params, errors)
        binding = f"nodes|{number}|{parent or ''}|{kind or ''}|{under or ''}"
        after = _uuid_cursor(params, binding, errors)
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
        etag = etag_of("nodes", plan.pk, plan_data_version(plan=plan), binding, after, limit)

        def build() -> dict[str, Any]:
            page, more = _page(nodes.select_related("code"), after, limit)
            return {
                "nodes": [
                    {
                        "id": str(node.pk),
                        "parent_id": _text(node.parent_id),
                        "name": node.name,
                        "kind": node.kind,
                        "code": node.code.code if node.code else None,
                        "quantity": money_text(node.quantity),
                        "unit": node.unit,
                        "install_year": node.install_year,
                        "building_id": _text(node.building_id),
                        "path": node.path,
                        "ref": node.ref,
                        "address": node.address,
                        "gross_floor_area_m2": money_text(node.gross_floor_area_m2),
                        "year_built": node.year_built,
                        "condition_grade": node.condition_grade,
                        "condition_assessed_on": _text(node.condition_assessed_on),
                    }
                    for node in page
                ],
                "next_cursor": next_cursor(binding, page, limit, more, key=lambda n: str(n.pk)),
            }

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
            _query_year("year_from", "Only actions occurring in this year or later."),
            _query_year("year_to", "Only actions occurring in this year or earlier."),
            _query_enum("status", ActionStatus.values, "Only actions with this status."),
            _query_enum("kind", ActionKind.values, "Only actions of this kind."),
            _query_uuid("structure_node_id", "Only actions on this node or below it."),
            _query_uuid("project_id", "Only the actions of this project."),
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
        year_from = _year(params, "year_from", errors)
        year_to = _year(params, "year_to", errors)
        status = _choice(params, "status", ActionStatus.values, errors)
        kind = _choice(params, "kind", ActionKind.values, errors)
        node = _uuid(params, "structure_node_id", errors)
        project = _uuid(params, "project_id", errors)
        if year_from is not None and year_to is not None and year_to < year_from:
            errors["year_to"] = ["The last year comes before the first."]
        limit = limit_parse(params, errors)
        binding = (
            f"actions|{number}|{year_from or ''}|{year_to or ''}|{status or ''}|{kind or ''}|"
            f"{node or ''}|{project or ''}"
        )
        after = _uuid_cursor(params, binding, errors)
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
        etag = etag_of("actions", plan.pk, plan_data_version(plan=plan), binding, after, limit)
        index = PriceIndex.of(plan)

        def build() -> dict[str, Any]:
            page, more = _page(actions, after, limit)
            return {
                "actions": [
                    {
                        "id": str(action.pk),
                        "node_id": str(action.node_id),
                        "title": action.title,
                        "kind": action.kind,
                        "planned_year": action.planned_year,
                        "interval_years": action.interval_years,
                        "estimated_cost": money_text(action.estimated_cost),
                        "nominal_cost": money_text(
                            amount_of(
                                index.nominal_cents(
                                    cents_of(action.estimated_cost), action.planned_year
                                )
                            )
                        ),
                        "status": action.status,
                        "project_id": _text(action.project_id),
                    }
                    for action in page
                ],
                "next_cursor": next_cursor(binding, page, limit, more, key=lambda a: str(a.pk)),
            }

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
        after = _uuid_cursor(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        plan = plan_for_key(api_key=key_of(request), number=number)
        etag = etag_of("projects", plan.pk, plan_data_version(plan=plan), after, limit)

        def build() -> dict[str, Any]:
            page, more = _page(Project.objects.filter(plan=plan), after, limit)
            return {
                "projects": [{"id": str(p.pk), "name": p.name, "year": p.year} for p in page],
                "next_cursor": next_cursor(binding, page, limit, more, key=lambda p: str(p.pk)),
            }

        return self.answer(request, etag, build)

"""A plan's nodes, actions and projects over the API (docs/subsystems/integrator-api.md
"Platform resources"): paged lists with the platform resources' rules (platform_api.endpoints.plans:
an immutable order, filters that name nothing give an empty list, ETag and 404 as the
suggestions list's)."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from apikeys.selectors import plan_for_key
from planning.models import (
    NodeKind,
    Project,
    StructureNode,
)
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
    changed_since,
    choice_parse,
    plan_number_parse,
    query_enum,
    query_uuid,
    since_parse,
    uuid_parse,
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
    condition_grade = serializers.IntegerField(
        allow_null=True, help_text="A component's current condition, 0-3 (its latest survey)."
    )
    condition_assessed_on = serializers.DateField(allow_null=True)
    condition_consequence = serializers.IntegerField(
        allow_null=True,
        help_text="The consequence of the component's failure: 0 none, 1 small, 2 medium, 3 large.",
    )
    condition_risk = serializers.IntegerField(
        allow_null=True,
        help_text="condition_grade x condition_consequence (0-9); null unless both are known.",
    )


class NodePageSerializer(serializers.Serializer):
    nodes = NodeSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class ProjectSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    year = serializers.IntegerField()


class ProjectPageSerializer(serializers.Serializer):
    projects = ProjectSerializer(many=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


def _since_key(updated_since: datetime | None) -> str:
    """`updated_since` in a list's cursor binding: none for a list without it, so the cursors
    handed out before the parameter came still hold."""
    return f"|{updated_since.isoformat()}" if updated_since is not None else ""


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
            UPDATED_SINCE,
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
        updated_since = since_parse(params, errors, "updated_since")
        limit = limit_parse(params, errors)
        binding = (
            f"nodes|{number}|{parent or ''}|{kind or ''}|{under or ''}{_since_key(updated_since)}"
        )
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
        if updated_since is not None:
            nodes = nodes.filter(changed_since(updated_since))
        etag = etag_of("nodes", plan.pk, plan_data_state(plan=plan), binding, after, limit)

        def build() -> dict[str, Any]:
            page, more = page_by_pk(nodes.select_related("code"), after, limit)
            cursor = next_cursor(binding, page, limit, more, key=lambda n: str(n.pk))
            return NodePageSerializer({"nodes": page, "next_cursor": cursor}).data

        return self.answer(request, etag, build)


class PlanProjectListApi(RecordApi):
    @extend_schema(
        operation_id="listPlanProjects",
        summary="List the projects of a plan",
        description="The plan's projects in a fixed order, paged.",
        parameters=[PLAN_NUMBER, UPDATED_SINCE, LIMIT, CURSOR, IF_NONE_MATCH],
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
        updated_since = since_parse(params, errors, "updated_since")
        limit = limit_parse(params, errors)
        binding = f"projects|{number}{_since_key(updated_since)}"
        after = uuid_cursor_parse(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        plan = plan_for_key(api_key=key_of(request), number=number)
        projects = Project.objects.filter(plan=plan)
        if updated_since is not None:
            projects = projects.filter(changed_since(updated_since))
        etag = etag_of("projects", plan.pk, plan_data_state(plan=plan), binding, after, limit)

        def build() -> dict[str, Any]:
            page, more = page_by_pk(projects, after, limit)
            cursor = next_cursor(binding, page, limit, more, key=lambda p: str(p.pk))
            return ProjectPageSerializer({"projects": page, "next_cursor": cursor}).data

        return self.answer(request, etag, build)

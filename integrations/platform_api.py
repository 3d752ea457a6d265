"""The platform resources (docs/design.md "Integrator API"): read routes for the plans a key may
see, one plan with its money settings and key figures, and its nodes, actions and projects.

Lists are always paged (`limit`, default 100, at most 1000; `cursor`; `next_cursor`), in the
order of an immutable key (the plan's number, a row's id), so a row that matches the filters for
the whole walk comes exactly once whatever changes between pages. A filter naming something the
plan does not have gives an empty list, not an error. ETag (from the plan's data version, or
for the plans list from what it lists), `If-None-Match`, gzip and the 404 rules are the
suggestions list's.
"""

from __future__ import annotations

import uuid
from typing import Any

from django.db.models import QuerySet
from django.http import QueryDict
from django.utils import timezone
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
    next_cursor,
)
from integrations.selectors import plan_for_key, plans_readable_for_key
from integrations.suggestions_api import plan_number_parse
from planning.action_list import ActionFilters, actions_filtered
from planning.models import (
    MAX_YEAR,
    MIN_YEAR,
    ActionKind,
    ActionStatus,
    NodeKind,
    Plan,
    Project,
    StructureNode,
    SuggestionStatus,
)
from planning.money import PriceIndex, amount_of, cents_of
from planning.suggestions.figures_cache import open_counts, plan_key_figures_figure
from planning.suggestions.selectors import plan_data_version
from planning.tree import node_subtree


def _money(value: Any) -> str | None:
    return f"{value:.2f}" if value is not None else None


def _text(value: Any) -> str | None:
    return str(value) if value is not None else None


def _when(value: Any) -> str:
    return value.isoformat().replace("+00:00", "Z")


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


# --- plans ------------------------------------------------------------------------------------


class OrganisationSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    slug = serializers.CharField()
    name = serializers.CharField()


class PlanItemSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    number = serializers.IntegerField(min_value=1)
    name = serializers.CharField()
    organisation = OrganisationSerializer()
    currency = serializers.CharField()
    open_count = serializers.IntegerField(
        min_value=0, help_text="Open suggestions as of the plan's last synchronisation."
    )
    updated_at = serializers.DateTimeField(help_text="ISO 8601, UTC (Z)")


class PlanPageSerializer(serializers.Serializer):
    plans = PlanItemSerializer(many=True, help_text="By plan number.")
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


def _plan_item(plan: Plan, open_count: int) -> dict[str, Any]:
    organisation = plan.organisation
    return {
        "id": str(plan.pk),
        "number": plan.number,
        "name": plan.name,
        "organisation": {
            "id": str(organisation.pk),
            "slug": organisation.slug,
            "name": organisation.name,
        },
        "currency": plan.currency,
        "open_count": open_count,
        "updated_at": _when(plan.updated_at),
    }


class PlanListApi(RecordApi):
    @extend_schema(
        operation_id="listPlans",
        summary="List the plans the key may read",
        description="Every plan this key may read, by number, paged.",
        parameters=[LIMIT, CURSOR, IF_NONE_MATCH],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PlanListEnvelope", PlanPageSerializer()),
                description="One page of plans.",
            ),
            304: NOT_MODIFIED,
            **error_responses({400: ["validation.query"]}),
        },
        tags=["plans"],
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        errors: dict[str, list[str]] = {}
        limit = limit_parse(params, errors)
        binding = "plans"
        after = cursor_parse(params, binding, errors)
        if after is not None and not isinstance(after, int):
            errors["cursor"] = ["Not a cursor of this list (altered or outdated): start again."]
        if errors:
            raise ApiError("validation.query", errors=errors)
        plans = plans_readable_for_key(api_key=key_of(request)).select_related("organisation")
        if after is not None:
            plans = plans.filter(number__gt=after)
        found = list(plans.order_by("number")[: limit + 1])
        page = found[:limit]
        counts = open_counts(page)
        marks = [(p.number, p.data_version, p.updated_at.isoformat()) for p in page]
        etag = etag_of("plans", key_of(request).pk, after, limit, marks, len(found) > limit)
        return self.answer(
            request,
            etag,
            lambda: {
                "plans": [_plan_item(plan, counts[plan.pk]) for plan in page],
                "next_cursor": next_cursor(
                    binding, page, limit, len(found) > limit, key=lambda plan: plan.number
                ),
            },
        )


class KeyFiguresSerializer(serializers.Serializer):
    year_from = serializers.IntegerField()
    year_to = serializers.IntegerField()
    ten_year_cost = serializers.DecimalField(max_digits=16, decimal_places=2, coerce_to_string=True)
    cost_per_m2_year = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    maintenance_debt = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True
    )
    debt_per_m2 = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    gross_floor_area_m2 = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True, allow_null=True
    )


class MoneySettingsSerializer(serializers.Serializer):
    price_base_year = serializers.IntegerField()
    index_rate_percent = serializers.DecimalField(
        max_digits=6, decimal_places=2, coerce_to_string=True
    )
    overhead_percent = serializers.DecimalField(
        max_digits=6, decimal_places=2, coerce_to_string=True
    )
    vat_percent = serializers.DecimalField(max_digits=6, decimal_places=2, coerce_to_string=True)
    annual_budget = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True, allow_null=True
    )


class PlanDetailSerializer(PlanItemSerializer):
    description = serializers.CharField(allow_blank=True)
    money = MoneySettingsSerializer()
    key_figures = KeyFiguresSerializer(help_text="Today's prices, the ten years from this year.")


class PlanDetailApi(RecordApi):
    @extend_schema(
        operation_id="getPlan",
        summary="Read one plan",
        description="The plan with its money settings and key figures.",
        parameters=[PLAN_NUMBER, IF_NONE_MATCH],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PlanEnvelope", PlanDetailSerializer()),
                description="The plan.",
            ),
            304: NOT_MODIFIED,
            **error_responses({400: ["validation.plan_number"], 404: ["plans.not_found"]}),
        },
        tags=["plans"],
    )
    def get(self, request: Request, planNumber: str) -> Response:
        number = plan_number_parse(planNumber)
        plan = plan_for_key(api_key=key_of(request), number=number)
        version = plan_data_version(plan=plan)
        if version != plan.data_version:
            # Changed since it was read (with the key): the body must be no older than the
            # ETag's version, so the plan is read again (a second read is a fresh one).
            plan = plan_for_key(api_key=key_of(request), number=number)
        year = timezone.localdate().year
        etag = etag_of("plan", plan.pk, version, year)

        def build() -> dict[str, Any]:
            figures = plan_key_figures_figure(plan=plan, version=version, year=year).plan
            open_count = plan.suggestions.filter(status=SuggestionStatus.OPEN).count()
            return {
                **_plan_item(plan, open_count),
                "description": plan.description,
                "money": {
                    "price_base_year": plan.price_base_year,
                    "index_rate_percent": f"{plan.index_rate_percent:.2f}",
                    "overhead_percent": f"{plan.overhead_percent:.2f}",
                    "vat_percent": f"{plan.vat_percent:.2f}",
                    "annual_budget": _money(plan.annual_budget),
                },
                "key_figures": {
                    "year_from": figures.year,
                    "year_to": figures.year + 9,
                    "ten_year_cost": _money(figures.ten_year_cost),
                    "cost_per_m2_year": _money(figures.cost_per_m2_year),
                    "maintenance_debt": _money(figures.debt),
                    "debt_per_m2": _money(figures.debt_per_m2),
                    "gross_floor_area_m2": _money(figures.area),
                },
            }

        return self.answer(request, etag, build)


# --- nodes, actions, projects -------------------------------------------------------------------


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
                        "quantity": _money(node.quantity),
                        "unit": node.unit,
                        "install_year": node.install_year,
                        "building_id": _text(node.building_id),
                        "path": node.path,
                        "ref": node.ref,
                        "address": node.address,
                        "gross_floor_area_m2": _money(node.gross_floor_area_m2),
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
                        "estimated_cost": _money(action.estimated_cost),
                        "nominal_cost": _money(
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

"""The platform resources (docs/subsystems/integrator-api.md "Platform resources"): read routes for
the plans a key may see and one plan with its money settings and key figures; its nodes, actions and
projects are platform_api.endpoints.records.

Lists are always paged (`limit`, default 100, at most 1000; `cursor`; `next_cursor`), in the
order of an immutable key (the plan's number, a row's id), so a row that matches the filters for
the whole walk comes exactly once whatever changes between pages. A filter naming something the
plan does not have gives an empty list, not an error. ETag (from the plan's data version, or
for the plans list from what it lists), `If-None-Match`, gzip and the 404 rules are the
suggestions list's.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from apikeys.selectors import plan_for_key, plans_readable_for_key
from planning.figures.cache import open_counts, plan_key_figures_figure
from planning.figures.key_figures import KeyFigures
from planning.figures.prices import Markup, plan_markups
from planning.figures.totals import YEARS
from planning.models import (
    Plan,
    SuggestionStatus,
)
from planning.suggestions.selectors import plan_data_version
from platform_api.base import IF_NONE_MATCH, NOT_MODIFIED, RecordApi, etag_of, key_of
from platform_api.paging import CURSOR, LIMIT, int_cursor_parse, limit_parse, next_cursor
from platform_api.params import PLAN_NUMBER, plan_number_parse
from platform_api.serializers import DecimalTextField, OrganisationSerializer, UtcDateTimeField


@dataclass(frozen=True)
class PlanShown:
    """A plan as the API shows it, with what is read beside it: its open suggestions and, for
    one plan, its markups and key figures (the ten years from this year)."""

    plan: Plan
    open_count: int
    markups: tuple[Markup, ...] = ()
    figures: KeyFigures | None = None


# --- plans ------------------------------------------------------------------------------------


class PlanItemSerializer(serializers.Serializer):
    id = serializers.UUIDField(source="plan.pk")
    number = serializers.IntegerField(min_value=1, source="plan.number")
    name = serializers.CharField(source="plan.name")
    organisation = OrganisationSerializer(source="plan.organisation")
    currency = serializers.CharField(source="plan.currency")
    open_count = serializers.IntegerField(
        min_value=0, help_text="Open suggestions as of the plan's last synchronisation."
    )
    updated_at = UtcDateTimeField(source="plan.updated_at", help_text="ISO 8601, UTC (Z)")


class PlanPageSerializer(serializers.Serializer):
    plans = PlanItemSerializer(many=True, help_text="By plan number.")
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


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
        after = int_cursor_parse(params, binding, errors)
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
            lambda: (
                PlanPageSerializer(
                    {
                        "plans": [
                            PlanShown(plan=plan, open_count=counts[plan.pk]) for plan in page
                        ],
                        "next_cursor": next_cursor(
                            binding, page, limit, len(found) > limit, key=lambda plan: plan.number
                        ),
                    }
                ).data
            ),
        )


class _LastYearField(serializers.IntegerField):
    """The last of the YEARS years that start at the figures' year."""

    def to_representation(self, value: Any) -> int:
        return int(value) + YEARS - 1


class KeyFiguresSerializer(serializers.Serializer):
    year_from = serializers.IntegerField(source="year")
    year_to = _LastYearField(source="year")
    ten_year_cost = DecimalTextField(max_digits=16, decimal_places=2, coerce_to_string=True)
    cost_per_m2_year = DecimalTextField(
        max_digits=16, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    maintenance_debt = DecimalTextField(
        max_digits=16, decimal_places=2, coerce_to_string=True, source="debt"
    )
    debt_per_m2 = DecimalTextField(
        max_digits=16, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    gross_floor_area_m2 = DecimalTextField(
        max_digits=16, decimal_places=2, coerce_to_string=True, allow_null=True, source="area"
    )


class MarkupSerializer(serializers.Serializer):
    name = serializers.CharField()
    percent = DecimalTextField(max_digits=5, decimal_places=2, coerce_to_string=True)


class MoneySettingsSerializer(serializers.Serializer):
    price_base_year = serializers.IntegerField(source="plan.price_base_year")
    index_rate_percent = DecimalTextField(
        max_digits=6, decimal_places=2, coerce_to_string=True, source="plan.index_rate_percent"
    )
    markups = MarkupSerializer(
        many=True,
        help_text="Named percentages in the order they apply, each on the amount before it.",
    )
    overhead_percent = DecimalTextField(
        max_digits=6,
        decimal_places=2,
        coerce_to_string=True,
        help_text="The first markup (for clients written before `markups`).",
        source="plan.overhead_percent",
    )
    vat_percent = DecimalTextField(
        max_digits=6,
        decimal_places=2,
        coerce_to_string=True,
        help_text="The last markup when there are two or more (for clients written before "
        "`markups`).",
        source="plan.vat_percent",
    )
    annual_budget = DecimalTextField(
        max_digits=16,
        decimal_places=2,
        coerce_to_string=True,
        allow_null=True,
        source="plan.annual_budget",
    )


class PlanDetailSerializer(PlanItemSerializer):
    description = serializers.CharField(allow_blank=True, source="plan.description")
    money = MoneySettingsSerializer(source="*")
    key_figures = KeyFiguresSerializer(
        source="figures", help_text="Today's prices, the ten years from this year."
    )


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
            shown = PlanShown(
                plan=plan,
                open_count=plan.suggestions.filter(status=SuggestionStatus.OPEN).count(),
                markups=plan_markups(plan),
                figures=plan_key_figures_figure(plan=plan, version=version, year=year).plan,
            )
            return PlanDetailSerializer(shown).data

        return self.answer(request, etag, build)

"""A plan's funding (docs/subsystems/integrator-api.md "Funding", docs/subsystems/funding.md): its
fund and its named scenarios, each with its settings and yearly figures (contribution, nominal
cost, interest, balance, fully funded balance, percent funded), its lowest balance and, for the
fund, the contribution each goal needs; a scenario with a goal, the contribution solved for it.
The figures are planning.figures.funding's, as the Funding tab shows them. ETag from the plan's
data version (every change of the fund or a scenario raises it), `If-None-Match`, gzip and the
404 rules are the other plan routes'."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.openapi import envelope_serializer, error_responses
from apikeys.selectors import plan_for_key
from planning.core.money import amount_of
from planning.figures.funding import fund_figures, scenario_figures
from planning.figures.funding.cashflow import COMPARED_YEARS
from planning.figures.funding.wording import goal_statement
from planning.models import Fund, FundingGoal, FundingScenario
from planning.suggestions.selectors import plan_data_version
from platform_api.base import IF_NONE_MATCH, NOT_MODIFIED, RecordApi, etag_of, key_of
from platform_api.params import PLAN_NUMBER, plan_number_parse
from platform_api.serializers import DecimalTextField


@extend_schema_field({"type": "string", "format": "decimal", "example": "1234.50"})
class CentsField(serializers.Field):
    """Whole cents as the API writes an amount: a decimal string with two places."""

    def to_representation(self, value: int) -> str:
        return f"{amount_of(value):.2f}"


def _cents(**kwargs: Any) -> serializers.Field:
    return CentsField(read_only=True, **kwargs)


class FundingYearSerializer(serializers.Serializer):
    year = serializers.IntegerField()
    contribution = _cents(source="contribution_cents")
    nominal_cost = _cents(source="cost_cents", help_text="E_t: live occurrences, every markup.")
    interest = _cents(source="interest_cents")
    balance = _cents(source="balance_cents", help_text="At the end of the year.")
    fully_funded_balance = _cents(source="ffb_cents", help_text="Today's prices.")
    percent_funded = DecimalTextField(
        max_digits=12,
        decimal_places=2,
        coerce_to_string=True,
        allow_null=True,
        help_text="The balance at the start of the year / the fully funded balance; null when "
        "no component counts.",
    )


class FundingGoalSolutionSerializer(serializers.Serializer):
    goal = serializers.ChoiceField(choices=FundingGoal.choices)
    threshold = DecimalTextField(
        max_digits=16, decimal_places=2, coerce_to_string=True, allow_null=True
    )
    increase_percent = DecimalTextField(max_digits=6, decimal_places=2, coerce_to_string=True)
    contribution = serializers.SerializerMethodField(
        help_text="The smallest first-year contribution that meets the goal, to the cent; null "
        "when none up to `bound` does."
    )
    bound = _cents(source="bound_cents", help_text="10 x the largest yearly cost.")
    met = serializers.BooleanField(help_text="False when none within the bound or budget.")
    over_budget = serializers.BooleanField()
    statement = serializers.SerializerMethodField()

    @extend_schema_field({"type": "string", "format": "decimal", "nullable": True})
    def get_contribution(self, solution: Any) -> str | None:
        cents = solution.contribution_cents
        return None if cents is None else f"{amount_of(cents):.2f}"

    @extend_schema_field(OpenApiTypes.STR)
    def get_statement(self, solution: Any) -> str:
        return goal_statement(solution, self.context.get("currency", ""))


class FundingPercentAtSerializer(serializers.Serializer):
    year_of_horizon = serializers.IntegerField()
    percent_funded = DecimalTextField(
        max_digits=12, decimal_places=2, coerce_to_string=True, allow_null=True
    )


class FundingFlowSerializer(serializers.Serializer):
    years_and_prices = serializers.CharField(source="wording")
    lowest_balance = _cents(source="summary.lowest_cents")
    lowest_balance_year = serializers.IntegerField(source="summary.lowest_year")
    total_contributions = _cents(source="summary.contributions_cents")
    percent_funded_at = serializers.SerializerMethodField(
        help_text="Percent funded in the 5th, 10th, 20th and 30th year."
    )
    components_counted = serializers.IntegerField(source="counted")
    components_left_out = serializers.SerializerMethodField()
    years = FundingYearSerializer(many=True)
    goals = FundingGoalSolutionSerializer(many=True)

    @extend_schema_field(FundingPercentAtSerializer(many=True))
    def get_percent_funded_at(self, figures: Any) -> list[dict[str, Any]]:
        return FundingPercentAtSerializer(  # type: ignore[return-value]
            [
                {"year_of_horizon": k, "percent_funded": figures.summary.percent_at[k]}
                for k in COMPARED_YEARS
            ],
            many=True,
        ).data

    @extend_schema_field(OpenApiTypes.INT)
    def get_components_left_out(self, figures: Any) -> int:
        return len(figures.left_out)


def _money(**kwargs: Any) -> DecimalTextField:
    return DecimalTextField(max_digits=16, decimal_places=2, coerce_to_string=True, **kwargs)


def _rate(**kwargs: Any) -> DecimalTextField:
    return DecimalTextField(max_digits=6, decimal_places=2, coerce_to_string=True, **kwargs)


class FundSettingsSerializer(serializers.Serializer):
    opening_balance = _money()
    start_year = serializers.IntegerField()
    interest_percent = _rate()
    contribution = _money()
    contribution_increase_percent = _rate()
    horizon_years = serializers.IntegerField()
    threshold_amount = _money(allow_null=True)
    threshold_percent = _rate(allow_null=True)


class FundingScenarioSettingsSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    name = serializers.CharField()
    opening_balance = _money()
    start_year = serializers.IntegerField()
    interest_percent = _rate()
    contribution = _money(allow_null=True, help_text="Null when the goal sets it.")
    contribution_increase_percent = _rate()
    goal = serializers.CharField(allow_blank=True, help_text="Empty: the contribution given.")
    goal_threshold = _money(allow_null=True)
    horizon_years = serializers.IntegerField()
    index_rate_percent = _rate(allow_null=True)
    annual_budget = _money(allow_null=True)


class PlanFundSerializer(serializers.Serializer):
    settings = FundSettingsSerializer(source="fund")
    figures = FundingFlowSerializer()


class PlanFundingScenarioSerializer(serializers.Serializer):
    settings = FundingScenarioSettingsSerializer(source="scenario")
    solved = FundingGoalSolutionSerializer(
        source="figures.solved",
        required=False,
        help_text="Its goal's solution; absent for a scenario without a goal.",
    )
    figures = FundingFlowSerializer()

    def to_representation(self, instance: Any) -> dict[str, Any]:
        figures = instance["figures"]
        shown: dict[str, Any] = {
            "settings": FundingScenarioSettingsSerializer(instance["scenario"]).data
        }
        if figures.solved is not None:
            shown["solved"] = FundingGoalSolutionSerializer(
                figures.solved, context=self.context
            ).data
        shown["figures"] = FundingFlowSerializer(figures, context=self.context).data
        return shown


class PlanFundingSerializer(serializers.Serializer):
    currency = serializers.CharField()
    fund = PlanFundSerializer(required=False, help_text="Absent when the plan has no fund.")
    scenarios = PlanFundingScenarioSerializer(many=True, help_text="By name.")

    def to_representation(self, instance: Any) -> dict[str, Any]:
        shown: dict[str, Any] = {"currency": instance["currency"]}
        if instance["fund"] is not None:
            shown["fund"] = PlanFundSerializer(instance["fund"], context=self.context).data
        shown["scenarios"] = PlanFundingScenarioSerializer(
            instance["scenarios"], many=True, context=self.context
        ).data
        return shown


class PlanFundingApi(RecordApi):
    @extend_schema(
        operation_id="getPlanFunding",
        summary="Read a plan's fund and funding scenarios",
        description="The plan's fund and its named scenarios, each with its settings and its "
        "yearly figures over its horizon (nominal prices of the plan, or of the scenario's own "
        "index rate; the fully funded balance in today's prices), the fund's goals solved to "
        "the cent, and each scenario's goal solved.",
        parameters=[PLAN_NUMBER, IF_NONE_MATCH],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PlanFundingEnvelope", PlanFundingSerializer()),
                description="The plan's funding.",
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
            plan = plan_for_key(api_key=key_of(request), number=number)
        plan.data_version = version  # the cached figures' key, as the ETag's
        etag = etag_of("funding", plan.pk, version)

        def build() -> dict[str, Any]:
            fund = Fund.objects.filter(plan=plan).first()
            scenarios = list(FundingScenario.objects.filter(plan=plan).order_by("name"))
            for item in [fund, *scenarios]:
                if item is not None:
                    item.plan = plan
            shown = {
                "currency": plan.currency,
                "fund": {"fund": fund, "figures": fund_figures(fund=fund)} if fund else None,
                "scenarios": [
                    {"scenario": scenario, "figures": scenario_figures(scenario=scenario)}
                    for scenario in scenarios
                ],
            }
            return PlanFundingSerializer(shown, context={"currency": plan.currency}).data

        return self.answer(request, etag, build)

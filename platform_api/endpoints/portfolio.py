"""`GET /api/v1/platform/portfolio` (docs/subsystems/portfolio.md "The API"): an organisation's
portfolio as the portfolio page shows it, for a key of the organisation (a service account's) or
a personal key of one of its members (which names it: `organisation`, its slug).

The plans are those of the organisation the key may read (`plans_readable_for_key`: its plan
limit and the API access policy apply), filtered by name (`q`, read by the page's form), by
number, keyset paged (`limit`, `cursor`, `next_cursor`) as the other lists are; every page
carries the totals over every matching plan (per currency), not only its own. The figures are
planning.figures.portfolio's, the page's, to the cent. ETag: from the matching plans' numbers
and data versions and what the FCI reads besides.
"""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from api.errors import ApiError
from api.openapi import envelope_serializer, error_responses
from apikeys.models import ApiKey
from apikeys.selectors import plans_readable_for_key
from organisations.models import Organisation, OrganisationMembership
from planning.figures.condition_index import BAND_EDGES, CRITICAL
from planning.figures.portfolio import Portfolio
from planning.plans.portfolio import organisation_portfolio
from planning.web.forms.portfolio import PortfolioQueryForm
from platform_api.base import IF_NONE_MATCH, NOT_MODIFIED, RecordApi, etag_of, key_of
from platform_api.paging import CURSOR, LIMIT, int_cursor_parse, limit_parse, next_cursor
from platform_api.serializers import DecimalTextField, OrganisationSerializer

BANDS = [band for _edge, band in BAND_EDGES] + [CRITICAL]


def _money(**kwargs: Any) -> DecimalTextField:
    return DecimalTextField(max_digits=18, decimal_places=2, coerce_to_string=True, **kwargs)


class _FciFields(serializers.Serializer):
    fci_percent = DecimalTextField(
        max_digits=12,
        decimal_places=2,
        coerce_to_string=True,
        allow_null=True,
        source="condition.fci_percent",
        help_text="The facility condition index in percent, area-weighted over the buildings "
        "with a replacement value and an area; null without any.",
    )
    fci_band = serializers.ChoiceField(
        choices=BANDS,
        allow_null=True,
        source="condition.band",
        help_text="good (< 5 %), fair (< 10 %), poor (< 30 %) or critical; null without an FCI.",
    )


class PortfolioPlanSerializer(_FciFields):
    number = serializers.IntegerField(min_value=1, source="plan.number")
    name = serializers.CharField(source="plan.name")
    currency = serializers.CharField(source="plan.currency")
    ten_year_cost = _money(
        source="figures.ten_year_cost",
        help_text="Planned cost of year_from..year_to, today's prices (the plan list's figure).",
    )
    maintenance_debt = _money(
        source="figures.debt",
        help_text="Live actions planned before year_from, today's prices (the key figures').",
    )
    critical_open = serializers.IntegerField(
        min_value=0,
        source="figures.critical_open",
        help_text="Open critical suggestions as of the plan's last synchronisation.",
    )
    years_over_budget = serializers.IntegerField(
        min_value=0,
        allow_null=True,
        source="figures.years_over_budget",
        help_text="Years of year_from..year_to above the annual budget (today's prices); null "
        "without a budget.",
    )
    percent_funded = DecimalTextField(
        max_digits=12,
        decimal_places=2,
        coerce_to_string=True,
        allow_null=True,
        help_text="The plan's fund's percent funded in year_from (its balance at the end of the "
        "year before over the fully funded balance); null without a fund, before the fund's "
        "start, or when no component counts.",
    )


class PortfolioTotalSerializer(_FciFields):
    currency = serializers.CharField()
    plans = serializers.IntegerField(min_value=0, help_text="Matching plans in this currency.")
    ten_year_cost = _money()
    maintenance_debt = _money(source="debt")
    critical_open = serializers.IntegerField(min_value=0)
    years_over_budget = serializers.IntegerField(
        min_value=0, help_text="The plans' years over budget, added up."
    )


class PortfolioPageSerializer(serializers.Serializer):
    organisation = OrganisationSerializer()
    year_from = serializers.IntegerField(help_text="The first of the ten years (this year).")
    year_to = serializers.IntegerField()
    prices = serializers.CharField(help_text="Always `today`: today's prices, no index.")
    plans = PortfolioPlanSerializer(many=True, help_text="By plan number.")
    totals = PortfolioTotalSerializer(
        many=True, help_text="Per currency, over every matching plan (not only this page)."
    )
    fci_percent = DecimalTextField(
        max_digits=12,
        decimal_places=2,
        coerce_to_string=True,
        allow_null=True,
        help_text="Area-weighted over every matching plan's buildings.",
    )
    fci_band = serializers.ChoiceField(choices=BANDS, allow_null=True)
    next_cursor = serializers.CharField(allow_null=True, help_text="Null on the last page.")


class _PlanRowShown:
    """A row as PortfolioPlanSerializer reads it: the FCI fields from the plan's figures."""

    def __init__(self, row: Any) -> None:
        self.plan, self.figures, self.condition = row.plan, row.figures, row.figures.condition
        self.percent_funded = row.percent_funded


ORGANISATION = OpenApiParameter(
    "organisation",
    str,
    OpenApiParameter.QUERY,
    description="The organisation's slug: required with a personal key (one of your "
    "organisations), optional with an organisation's key (its own).",
)
NAME = OpenApiParameter(
    "q", str, OpenApiParameter.QUERY, description="Only plans whose name contains this (any case)."
)


def _organisation_of(api_key: ApiKey, slug: str | None, errors: dict[str, list[str]]) -> Any:
    if api_key.organisation_id is not None:
        organisation = api_key.organisation
        assert organisation is not None
        if slug is not None and slug != organisation.slug:
            raise ApiError("portfolio.not_found")
        return organisation
    if not slug:
        errors["organisation"] = ["Name the organisation (its slug): your key is a personal one."]
        return None
    membership = (
        OrganisationMembership.objects.filter(user=api_key.owner, organisation__slug=slug)
        .select_related("organisation")
        .first()
    )
    if membership is None:
        raise ApiError("portfolio.not_found")
    return membership.organisation


class PortfolioApi(RecordApi):
    @extend_schema(
        operation_id="getPortfolio",
        summary="Read an organisation's portfolio",
        description="Every plan of the organisation this key may read with its ten-year planned "
        "cost, maintenance debt, FCI, open critical suggestions and years over budget, by "
        "number, paged, with the totals over every matching plan.",
        parameters=[ORGANISATION, NAME, LIMIT, CURSOR, IF_NONE_MATCH],
        responses={
            200: OpenApiResponse(
                response=envelope_serializer("PortfolioEnvelope", PortfolioPageSerializer()),
                description="One page of the portfolio, with its totals.",
            ),
            304: NOT_MODIFIED,
            **error_responses({400: ["validation.query"], 404: ["portfolio.not_found"]}),
        },
        tags=["portfolio"],
    )
    def get(self, request: Request) -> Response:
        params = request.query_params
        errors: dict[str, list[str]] = {}
        api_key = key_of(request)
        organisation: Organisation | None = _organisation_of(
            api_key, params.get("organisation"), errors
        )
        limit = limit_parse(params, errors)
        form = PortfolioQueryForm({"q": params.get("q", "")})
        if not form.is_valid():
            errors.update({field: [str(m) for m in found] for field, found in form.errors.items()})
        name = form.chosen_name()
        binding = f"portfolio:{organisation.pk if organisation else ''}:{name}"
        after = int_cursor_parse(params, binding, errors)
        if errors:
            raise ApiError("validation.query", errors=errors)
        assert organisation is not None
        year = timezone.localdate().year
        portfolio = organisation_portfolio(
            organisation=organisation,
            plans=plans_readable_for_key(api_key=api_key),
            name=name,
            sort="number",
            year=year,
        )
        rows = [row for row in portfolio.rows if after is None or row.plan.number > after]
        page, more = rows[:limit], len(rows) > limit
        marks = [(row.plan.number, row.plan.data_version) for row in portfolio.rows]
        etag = etag_of(
            "portfolio",
            api_key.pk,
            organisation.pk,
            portfolio.fci_inputs,
            name,
            after,
            limit,
            year,
            marks,
        )
        return self.answer(
            request, etag, lambda: _body(organisation, portfolio, page, more, limit, binding)
        )


def _body(
    organisation: Organisation,
    portfolio: Portfolio,
    page: list[Any],
    more: bool,
    limit: int,
    binding: str,
) -> Any:
    year_from = portfolio.year
    return PortfolioPageSerializer(
        {
            "organisation": organisation,
            "year_from": year_from,
            "year_to": year_from + 9,
            "prices": "today",
            "plans": [_PlanRowShown(row) for row in page],
            "totals": portfolio.totals,
            "fci_percent": portfolio.condition.fci_percent,
            "fci_band": portfolio.condition.band,
            "next_cursor": next_cursor(binding, page, limit, more, key=lambda row: row.plan.number),
        }
    ).data

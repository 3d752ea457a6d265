"""The action-planning view (/plans/<number>/planning/): the budget grid and charts of the chosen
years and prices, the key figures, this year's follow-up, and the open suggestions as cards
(planning.web.suggestion_cards), filtered and paged; with the fragment of one building's budget
rows and the list of every building's key figures (docs/subsystems/web-app.md).

The page runs the same sync as the integrator endpoint, so what it lists is what the API lists.
Viewers get no buttons. The cards' Apply, Dismiss and Restore are planning.web.views.suggestions;
their confirmation is shown above the card the user was on (planning.web.confirmation).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from uuid import UUID

from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from planning.catalog.currency import usable_unit_cost
from planning.core.access import PlanAccess
from planning.core.money import GridUnit
from planning.figures.budget import BUILDINGS_PER_PAGE, Budget, building_budget_rows
from planning.figures.cache import (
    budget_figure,
    key_figures_figure,
    plan_figure,
    plan_key_figures_figure,
)
from planning.figures.chart import cost_chart
from planning.figures.condition_index import plan_condition
from planning.figures.follow_up import plan_follow_up
from planning.figures.prices import NOMINAL, TODAY, PriceIndex
from planning.figures.totals import years_over_budget
from planning.models import (
    DismissReason,
    NodeKind,
    Plan,
    Severity,
    StructureNode,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.selectors import catalog_codes
from planning.suggestions.selectors import (
    SuggestionFilters,
    codes_by_id,
    plan_data_version,
    suggestions_open_queryset,
)
from planning.suggestions.services.dismissal import DISMISS_COMMENT_MAX
from planning.suggestions.sync.due import synced_data_version
from planning.web.access import plan_member_required
from planning.web.bulk import BULK_MAX
from planning.web.confirmation import CONFIRMATION_NEAR
from planning.web.forms.suggestions import PlanningViewForm
from planning.web.pages import plan_tab_context
from planning.web.suggestion_cards import grouped_actions, suggestion_card

T = TypeVar("T")
SUGGESTIONS_PER_PAGE = 24  # whole rows of 2, 3 or 4 cards


def _open_counts(plan: Plan, building: Any) -> dict[tuple[str, str], int]:
    """Open suggestions per (type, severity) in the building (or the whole plan): one grouped
    query, from which the total and both filters' counts are read."""
    return {
        (suggestion_type, severity): count
        for suggestion_type, severity, count in suggestions_open_queryset(
            plan=plan, filters=SuggestionFilters(structure_node_id=building)
        )
        .order_by()
        .values_list("suggestion_type", "severity")
        .annotate(n=Count("id"))
        .values_list("suggestion_type", "severity", "n")
    }


def _facets(
    counts: dict[tuple[str, str], int], *, types: list[str], severities: list[str]
) -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
    """(suggestions matching every filter, per type under the chosen severities, per severity
    under the chosen types); an empty choice means any."""

    def counted(type_wanted: list[str], severity_wanted: list[str]) -> int:
        return sum(
            n
            for (t, v), n in counts.items()
            if (not type_wanted or t in type_wanted)
            and (not severity_wanted or v in severity_wanted)
        )

    per_type = [
        {"value": value, "label": label, "count": counted([value], severities)}
        for value, label in SuggestionType.choices
    ]
    per_severity = [
        {"value": value, "label": label, "count": counted(types, [value])}
        for value, label in Severity.choices
    ]
    return counted(types, severities), per_type, per_severity


@plan_member_required()
@require_http_methods(["GET"])
def action_planning(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    plan = access.plan
    version = synced_data_version(plan=plan)

    def figure(name: str, parts: tuple[Any, ...], compute: Callable[[], T]) -> T:
        return plan_figure(
            plan_id=plan.pk, version=version, name=name, parts=parts, compute=compute
        )

    form = PlanningViewForm(request.GET or None, plan=plan)
    this_year = timezone.now().year
    year_from, year_to = form.years(this_year=this_year)
    prices = form.chosen_prices()

    def budget_in(prices: str) -> Budget:
        return budget_figure(
            plan=plan, version=version, year_from=year_from, year_to=year_to, prices=prices
        )

    budget = budget_in(prices)
    # The annual budget is in today's prices: the years above it are read there, whichever
    # prices the page shows.
    over_budget: list[int] = []
    if plan.annual_budget is not None:
        today = budget_in(TODAY)
        over_budget = years_over_budget(
            years=today.years, totals=today.year_totals, annual_budget=plan.annual_budget
        )
    buildings_page = Paginator(budget.rows, BUILDINGS_PER_PAGE).get_page(request.GET.get("bpage"))
    key_figures = plan_key_figures_figure(plan=plan, version=version, year=this_year)
    # Planned and actual side by side for this year (planning.figures.follow_up), cached too.
    this_year_follow_up = figure(
        "follow_up",
        (this_year,),
        lambda: plan_follow_up(plan=plan, year_from=this_year, year_to=this_year).years[0],
    )

    filters = form.suggestion_filters()
    types, severities = list(filters.suggestion_types), list(filters.severities)
    building = filters.structure_node_id
    page = Paginator(suggestions_open_queryset(plan=plan, filters=filters), SUGGESTIONS_PER_PAGE)
    counts = figure("open_counts", (str(building or ""),), lambda: _open_counts(plan, building))
    open_count, type_counts, severity_counts = _facets(counts, types=types, severities=severities)
    # Paginator.count is a cached property: the figure stands in for its COUNT query.
    page.count = open_count  # type: ignore[misc]
    suggestions_page = page.get_page(request.GET.get("page"))
    shown: list[Suggestion] = list(suggestions_page.object_list)
    code_ids = {
        code_id for s in shown for code_id in s.recommended_action_json.get("prefill_code_ids", [])
    }
    codes = codes_by_id(code_ids=code_ids)
    nodes = StructureNode.objects.in_bulk([s.structure_node_id for s in shown])
    # The unit costs in the plan's currency only (planning.catalog.currency)
    unit_costs = {
        code.pk: usable_unit_cost(code, currency=plan.currency)
        for code in catalog_codes(organisation_id=plan.organisation_id).filter(
            pk__in={node.code_id for node in nodes.values() if node.code_id}
        )
    }
    grouped = grouped_actions(plan, shown)
    here = request.get_full_path()
    near = request.session.pop(CONFIRMATION_NEAR, "")
    cards = []
    for index, suggestion in enumerate(shown):
        # The card that takes this one's place once it is gone: the next, else the previous.
        neighbour = (
            shown[index + 1] if index + 1 < len(shown) else shown[index - 1] if index else None
        )
        back = f"{here}#suggestion-{neighbour.pk}" if neighbour else f"{here}#suggestions"
        cards.append(
            suggestion_card(
                suggestion,
                plan=plan,
                codes=codes,
                nodes=nodes,
                unit_costs=unit_costs,
                grouped=grouped,
                back=back,
            )
        )

    if near and near not in {card["anchor"] for card in cards}:
        near = "suggestions"  # its card is gone or on another page: above the list

    # The budget line is drawn where the bars are in its prices (today's); the years above it
    # are named in both.
    chart_budget: dict[str, Any] = {
        "currency": plan.currency,
        "annual_budget": plan.annual_budget if prices == TODAY else None,
        "over_budget": frozenset(over_budget),
    }
    query = request.GET.copy()
    query.pop("page", None)
    building_query = request.GET.copy()
    building_query.pop("bpage", None)

    context = plan_tab_context(access, "planning")
    context.update(
        {
            "form": form,
            "year_from": year_from,
            "year_to": year_to,
            "prices": prices,
            "prices_links": _prices_links(request, prices),
            "price_index": PriceIndex.of(plan).describe(),
            "over_budget": over_budget,
            "budget": budget,
            "year_totals": list(zip(budget.years, budget.year_totals, strict=True)),
            "grid_unit": GridUnit.of(largest=budget.total, currency=plan.currency),
            "buildings_page": buildings_page,
            "chart_by_building": cost_chart(
                years=budget.years, series=budget.by_building(), **chart_budget
            ),
            "chart_by_kind": cost_chart(years=budget.years, series=budget.by_kind, **chart_budget),
            "cards": cards,
            "page": suggestions_page,
            "open_count": page.count,
            "type_counts": type_counts,
            "severity_counts": severity_counts,
            "chosen_types": types,
            "chosen_severities": severities,
            "page_query": query.urlencode(),
            "building_query": building_query.urlencode(),
            "key_figures": key_figures,
            # Not cached: the organisation's value per m2 and its catalog's currency, which it
            # reads, change without the plan's version.
            "condition": plan_condition(plan=plan, year=this_year).weights,
            "follow_up": this_year_follow_up,
            # A dismiss of every match sends the list's filters along (planning.web.bulk).
            "bulk_filters": [
                *(("suggestion_type", value) for value in types),
                *(("severity", value) for value in severities),
                *((("building", str(building)),) if building else ()),
            ],
            "bulk_max": BULK_MAX,
            "dismiss_reasons": DismissReason.choices,
            "comment_max": DISMISS_COMMENT_MAX,
            "here": here,
            "confirmation_near": near,
            "dismissed_count": figure(
                "dismissed_count",
                (),
                lambda: Suggestion.objects.filter(
                    plan=plan, status=SuggestionStatus.DISMISSED
                ).count(),
            ),
        }
    )
    return render(request, "planning/action_planning.html", context)


def _prices_links(request: HttpRequest, chosen: str) -> list[dict[str, Any]]:
    """The today's / nominal switch: the page's own address with the other prices."""
    links = []
    for value, label in ((TODAY, "Today's prices"), (NOMINAL, "Nominal")):
        query = request.GET.copy()
        query["prices"] = value
        links.append({"label": label, "query": query.urlencode(), "current": value == chosen})
    return links


KEY_FIGURES_PER_PAGE = 50


@plan_member_required()
@require_http_methods(["GET"])
def key_figures_list(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """Every building's key figures (docs/subsystems/money.md), by name, 50 a page."""
    plan = access.plan
    this_year = timezone.now().year
    figures = key_figures_figure(plan=plan, version=synced_data_version(plan=plan), year=this_year)
    page = Paginator(figures.buildings, KEY_FIGURES_PER_PAGE).get_page(request.GET.get("page"))
    context = plan_tab_context(access, "planning")
    condition = plan_condition(plan=plan, year=this_year)
    context.update(
        {
            "key_figures": figures,
            "page": page,
            "condition": {b.building_id: b for b in condition.buildings},
            "plan_fci": condition.weights,
        }
    )
    return render(request, "planning/suggestions/key_figures.html", context)


@plan_member_required()
@require_http_methods(["GET"])
def building_rows(request: HttpRequest, access: PlanAccess, node_id: UUID) -> HttpResponse:
    """The rows of one building of the budget grid (a fragment static/js/planning-grid.js puts
    under the building's row), for the page's year range."""
    plan = access.plan
    if not StructureNode.objects.filter(plan=plan, pk=node_id, kind=NodeKind.BUILDING).exists():
        raise Http404("No such building")
    form = PlanningViewForm(request.GET or None, plan=plan)
    year_from, year_to = form.years(this_year=timezone.now().year)
    prices = form.chosen_prices()
    rows, more = building_budget_rows(
        plan=plan, building_id=node_id, year_from=year_from, year_to=year_to, prices=prices
    )
    # The grid's unit comes from the page's grand total: the same cached budget the page read.
    budget = budget_figure(
        plan=plan,
        version=plan_data_version(plan=plan),
        year_from=year_from,
        year_to=year_to,
        prices=prices,
    )
    grid_unit = GridUnit.of(largest=budget.total, currency=plan.currency)
    return render(
        request,
        "planning/suggestions/_building_rows.html",
        {"plan": plan, "rows": rows, "more": more, "building_id": node_id, "grid_unit": grid_unit},
    )

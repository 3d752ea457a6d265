"""The Funding tab (docs/subsystems/funding.md): the plan's fund (its settings, yearly table,
chart, lowest balance and goals), its named scenarios compared side by side, and their CSV and
XLSX downloads. The figures are planning.figures.funding's; editors change, viewers read."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from planning.core.access import PlanAccess
from planning.figures.funding import FundingFigures, fund_figures, scenario_figures
from planning.figures.funding.cashflow import COMPARED_YEARS
from planning.figures.funding.chart import FundChart, fund_chart
from planning.figures.funding.wording import contribution_kind, goal_name, goal_statement
from planning.figures.prices import year_span
from planning.models import Fund, FundingScenario, StructureNode
from planning.plans.services import funding as services
from planning.suggestions.sync.due import synced_data_version
from planning.transfer.exports.funding import comparison_rows, funding_rows, funding_sheets
from planning.web.access import plan_member_required
from planning.web.downloads import spreadsheet_download
from planning.web.forms.fields import form_submit
from planning.web.forms.funding import CompareForm, FundForm, ScenarioForm
from planning.web.pages import plan_tab_context

LEFT_OUT_SHOWN = 20  # the components left out, named on the page (the rest counted)
FUND_NAME = "Fund"


def _fund(access: PlanAccess) -> Fund | None:
    """The plan's fund, its plan's data version read after a sync (the cached figures are
    keyed on it, as the planning page's are: docs/subsystems/caching.md)."""
    access.plan.data_version = synced_data_version(plan=access.plan)
    fund = Fund.objects.filter(plan=access.plan).first()
    if fund is not None:
        fund.plan = access.plan
    return fund


def _compared(
    request: HttpRequest, access: PlanAccess
) -> tuple[CompareForm, list[tuple[FundingScenario, FundingFigures]]]:
    scenarios = list(FundingScenario.objects.filter(plan=access.plan).order_by("name"))
    form = CompareForm(request.GET if "compare" in request.GET else None, scenarios=scenarios)
    chosen = []
    for scenario in form.chosen():
        scenario.plan = access.plan
        chosen.append((scenario, scenario_figures(scenario=scenario)))
    return form, chosen


def _goal_rows(figures: FundingFigures, currency: str) -> list[tuple[str, list[str]]]:
    """(the goal in words, its solved contribution in words for each contribution kind)."""
    rows: dict[tuple[str, Any], tuple[str, list[str]]] = {}
    for solution in figures.goals:
        key = (solution.goal, solution.threshold)
        name = goal_name(solution, currency)
        rows.setdefault(key, (name, []))[1].append(goal_statement(solution, currency))
    return list(rows.values())


def _left_out(figures: FundingFigures) -> list[tuple[StructureNode, str]]:
    shown = figures.left_out[:LEFT_OUT_SHOWN]
    nodes = StructureNode.objects.in_bulk([item.node_id for item in shown])
    return [(nodes[item.node_id], item.reason) for item in shown if item.node_id in nodes]


def funding_render(
    request: HttpRequest,
    access: PlanAccess,
    *,
    fund_form: FundForm | None = None,
    scenario_form: ScenarioForm | None = None,
    status: int = 200,
) -> HttpResponse:
    plan = access.plan
    fund = _fund(access)
    figures = fund_figures(fund=fund) if fund is not None else None
    compare_form, compared = _compared(request, access)
    context: dict[str, Any] = plan_tab_context(access, "funding")
    context.update(
        {
            "fund": fund,
            "figures": figures,
            "fund_form": fund_form or FundForm(instance=fund, prefix="fund"),
            "scenario_form": scenario_form or ScenarioForm(prefix="scenario"),
            "compare_form": compare_form,
            "compared": compared,
            "comparison": comparison_rows([(s.name, f) for s, f in compared]),
            "scenario_count": len(compare_form.scenarios),
            "scenarios": list(compare_form.scenarios.values()),
            "chart": fund_chart(
                years=[row.year for row in figures.years],
                costs_cents=[row.cost_cents for row in figures.years],
                balances=[("Balance", [row.balance_cents for row in figures.years])],
                currency=plan.currency,
            )
            if figures is not None
            else None,
            "left_out": _left_out(figures) if figures is not None else [],
            "goal_rows": _goal_rows(figures, plan.currency) if figures is not None else [],
            "goal_kinds": list(dict.fromkeys(contribution_kind(g) for g in figures.goals))
            if figures is not None
            else [],
            "solved": {
                scenario.pk: goal_statement(f.solved, plan.currency)
                for scenario, f in compared
                if f.solved is not None
            },
            "scenarios_chart": _scenarios_chart(compared, plan.currency),
            "query": request.GET.urlencode(),
            "fund_years": year_span(figures.years[0].year, figures.years[-1].year)
            if figures is not None
            else "",
            "compared_scenarios": [scenario for scenario, _ in compared],
            "compared_years": COMPARED_YEARS,
        }
    )
    return render(request, "planning/funding.html", context, status=status)


def _scenarios_chart(
    compared: list[tuple[FundingScenario, FundingFigures]], currency: str
) -> FundChart | None:
    """One chart of the compared scenarios' balances over all their years (a line stops where
    its scenario's horizon does), with the first scenario's costs as bars."""
    if not compared:
        return None
    first = min(figures.years[0].year for _, figures in compared)
    last = max(figures.years[-1].year for _, figures in compared)
    years = list(range(first, last + 1))
    costs = {row.year: row.cost_cents for row in compared[0][1].years}
    lines = []
    for scenario, figures in compared:
        by_year = {row.year: row.balance_cents for row in figures.years}
        lines.append((scenario.name, [by_year.get(year) for year in years]))
    return fund_chart(
        years=years,
        costs_cents=[costs.get(year, 0) for year in years],
        balances=lines,
        currency=currency,
    )


@plan_member_required()
@require_http_methods(["GET"])
def funding(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    return funding_render(request, access)


@plan_member_required(edit=True)
@require_POST
def fund_save(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    form = FundForm(request.POST, prefix="fund", instance=_fund(access))
    if form_submit(form, lambda data: services.fund_save(plan=access.plan, values=data)):
        messages.success(request, "Fund saved.")
        return redirect("planning:funding", number=access.plan.number)
    return funding_render(request, access, fund_form=form, status=400)


@plan_member_required(edit=True)
@require_POST
def scenario_create(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    form = ScenarioForm(request.POST, prefix="scenario")
    scenario = form_submit(
        form, lambda data: services.scenario_create(plan=access.plan, values=data)
    )
    if scenario:
        messages.success(request, f"Scenario “{scenario.name}” added.")
        return redirect("planning:funding", number=access.plan.number)
    return funding_render(request, access, scenario_form=form, status=400)


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def scenario_edit(request: HttpRequest, access: PlanAccess, scenario_id: Any) -> HttpResponse:
    scenario = get_object_or_404(FundingScenario, plan=access.plan, pk=scenario_id)
    if request.method == "POST":
        form = ScenarioForm(request.POST, prefix="scenario", instance=scenario)
        if form_submit(form, lambda data: services.scenario_update(scenario=scenario, values=data)):
            messages.success(request, f"Scenario “{scenario.name}” saved.")
            return redirect("planning:funding", number=access.plan.number)
        scenario.refresh_from_db()
    else:
        form = ScenarioForm(prefix="scenario", instance=scenario)
    context = plan_tab_context(access, "funding")
    context.update({"scenario": scenario, "form": form})
    status = 400 if form.is_bound else 200
    return render(request, "planning/funding_scenario.html", context, status=status)


@plan_member_required(edit=True)
@require_POST
def scenario_delete(request: HttpRequest, access: PlanAccess, scenario_id: Any) -> HttpResponse:
    scenario = get_object_or_404(FundingScenario, plan=access.plan, pk=scenario_id)
    name = scenario.name
    services.scenario_delete(scenario=scenario)
    messages.success(request, f"Scenario “{name}” deleted.")
    return redirect("planning:funding", number=access.plan.number)


@plan_member_required()
@require_http_methods(["GET"])
def funding_export(request: HttpRequest, access: PlanAccess, fmt: str) -> StreamingHttpResponse:
    """The fund's yearly figures (when the plan has one) and the compared scenarios'."""
    fund = _fund(access)  # first: it reads the synced data version the figures are cached under
    _form, compared = _compared(request, access)
    flows = [(FUND_NAME, fund_figures(fund=fund))] if fund is not None else []
    flows += [(scenario.name, figures) for scenario, figures in compared]
    if not flows:
        raise Http404("The plan has no fund or scenario")
    return spreadsheet_download(
        fmt=fmt,
        name=f"plan-{access.plan.number}-funding-{timezone.now():%Y%m%d}",
        rows=lambda: funding_rows(flows),
        sheets=lambda: funding_sheets(plan=access.plan, flows=flows, made_on=timezone.localdate()),
    )

"""Downloads of a plan: its actions (with the Actions tab's filters) and its budget (the years of
the planning page's range when given, else planning.exports.budget_years), as CSV or XLSX, and
the whole plan in the import format (JSON) (planning.exports)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from planning import exports
from planning.access import plan_member_required
from planning.access_rules import PlanAccess
from planning.budget import NOMINAL, TODAY
from planning.forms import ActionFilterForm
from planning.suggestions.figures_cache import budget_figure, key_figures_figure
from planning.suggestions.forms import PlanningViewForm
from planning.suggestions.selectors import plan_data_version
from planning.suggestions.sync import suggestion_sync

_CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def _download(rows: Any, *, fmt: str, name: str, sheet: str) -> HttpResponse:
    if fmt not in _CONTENT_TYPES:
        raise Http404("No such export format")
    content = exports.as_csv(rows) if fmt == "csv" else exports.as_xlsx(rows, title=sheet)
    response = HttpResponse(content, content_type=_CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _stem(access: PlanAccess, what: str) -> str:
    return f"plan-{access.plan.number}-{what}-{timezone.now():%Y%m%d}"


@plan_member_required()
@require_http_methods(["GET"])
def export_actions(request: HttpRequest, access: PlanAccess, fmt: str) -> HttpResponse:
    if fmt not in _CONTENT_TYPES:
        raise Http404("No such export format")
    filters = ActionFilterForm(request.GET or None, plan=access.plan).filters()
    rows = exports.action_rows(plan=access.plan, filters=filters)
    return _download(rows, fmt=fmt, name=_stem(access, "actions"), sheet="Actions")


@plan_member_required()
@require_http_methods(["GET"])
def export_plan(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """The plan in the import format (JSON): it re-imports to the same plan."""
    content = exports.as_json(exports.plan_document(plan=access.plan))
    response = HttpResponse(content, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{_stem(access, "plan")}.json"'
    response["Cache-Control"] = "private, no-store"
    return response


@plan_member_required()
@require_http_methods(["GET"])
def export_budget(request: HttpRequest, access: PlanAccess, fmt: str) -> HttpResponse:
    if fmt not in _CONTENT_TYPES:
        raise Http404("No such export format")
    plan = access.plan
    this_year = timezone.now().year
    form = PlanningViewForm(request.GET or None, plan=plan)
    if form.valid("year_from") is None and form.valid("year_to") is None:
        year_from, year_to = exports.budget_years(plan=plan, this_year=this_year)
    else:
        year_from, year_to = form.years(this_year=this_year)
    # As the planning page does: a sync takes in changes made outside the services, so the
    # version keys the cached budgets (docs/design.md "Caching") the page may already hold.
    suggestion_sync(plan=plan)
    version = plan_data_version(plan=plan)
    # Nominal first: its pass gives today's prices on the way (budget_figure).
    nominal, today = (
        budget_figure(plan=plan, version=version, year_from=year_from, year_to=year_to, prices=p)
        for p in (NOMINAL, TODAY)
    )
    key_figures = key_figures_figure(plan=plan, version=version, year=this_year)
    rows = exports.budget_rows(plan=plan, today=today, nominal=nominal, key_figures=key_figures)
    return _download(rows, fmt=fmt, name=_stem(access, "budget"), sheet="Budget")

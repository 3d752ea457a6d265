"""Downloads of a plan: its actions (with the Actions tab's filters) and its budget (the years of
the planning page's range when given, else planning.transfer.exports.budget.budget_years), as
CSV or as a workbook with its title block, and the whole plan in the import format
(planning.transfer.exports.plan_document: its workbook has no title block, so it imports back)."""

from __future__ import annotations

import datetime

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from planning.core.access import PlanAccess
from planning.figures.cache import budget_figure, key_figures_figure
from planning.figures.condition_index import plan_condition
from planning.figures.prices import NOMINAL, TODAY
from planning.suggestions.sync.due import synced_data_version
from planning.transfer import xlsx
from planning.transfer.exports.actions import action_rows, action_sheet
from planning.transfer.exports.budget import budget_rows, budget_sheets, budget_years
from planning.transfer.exports.plan_document import (
    as_json,
    plan_csv_rows,
    plan_document,
    plan_workbook_sheets,
)
from planning.web.access import plan_member_required
from planning.web.downloads import SPREADSHEET_CONTENT_TYPES, csv_download, spreadsheet_download
from planning.web.forms.actions import ActionFilterForm
from planning.web.forms.suggestions import PlanningViewForm


def _stem(access: PlanAccess, what: str) -> str:
    return f"plan-{access.plan.number}-{what}-{timezone.now():%Y%m%d}"


def _today() -> datetime.date:
    """The date a workbook's title block gives (the site's time zone)."""
    return timezone.localdate()


@plan_member_required()
@require_http_methods(["GET"])
def export_actions(request: HttpRequest, access: PlanAccess, fmt: str) -> StreamingHttpResponse:
    if fmt not in SPREADSHEET_CONTENT_TYPES:
        raise Http404("No such export format")
    plan = access.plan
    form = ActionFilterForm(request.GET or None, plan=plan)
    filters = form.filters()
    # A workbook shows kinds and statuses by their labels; the CSV keeps the codes.
    return spreadsheet_download(
        fmt=fmt,
        name=_stem(access, "actions"),
        rows=lambda: action_rows(plan=plan, filters=filters),
        sheets=lambda: [
            action_sheet(plan=plan, filters=filters, described=form.described(), made_on=_today())
        ],
    )


@plan_member_required()
@require_http_methods(["GET"])
def export_plan(request: HttpRequest, access: PlanAccess, fmt: str = "json") -> HttpResponseBase:
    """The plan in the import format, as JSON or as an Excel workbook: it re-imports to the
    same plan."""
    document = plan_document(plan=access.plan)
    if fmt == "xlsx":
        response: HttpResponseBase = StreamingHttpResponse(
            xlsx.xlsx_sheets_stream(plan_workbook_sheets(document)),
            content_type=xlsx.CONTENT_TYPE,
        )
    elif fmt == "json":
        response = HttpResponse(as_json(document), content_type="application/json; charset=utf-8")
    else:
        raise Http404("No such export format")
    response["Content-Disposition"] = f'attachment; filename="{_stem(access, "plan")}.{fmt}"'
    response["Cache-Control"] = "private, no-store"
    return response


@plan_member_required()
@require_http_methods(["GET"])
def export_plan_table(
    request: HttpRequest, access: PlanAccess, table: str
) -> StreamingHttpResponse:
    """One file of the plan's CSV pair in the import format (nodes or actions), or its plan
    file (the plan's name and fields)."""
    if table not in ("nodes", "actions", "plan"):
        raise Http404("No such table")
    rows = plan_csv_rows(plan_document(plan=access.plan), table)
    return csv_download(rows, name=_stem(access, f"plan-{table}"))


@plan_member_required()
@require_http_methods(["GET"])
def export_budget(request: HttpRequest, access: PlanAccess, fmt: str) -> StreamingHttpResponse:
    if fmt not in SPREADSHEET_CONTENT_TYPES:
        raise Http404("No such export format")
    plan = access.plan
    this_year = timezone.now().year
    form = PlanningViewForm(request.GET or None, plan=plan)
    if form.valid("year_from") is None and form.valid("year_to") is None:
        year_from, year_to = budget_years(plan=plan, this_year=this_year)
    else:
        year_from, year_to = form.years(this_year=this_year)
    # As the planning page does: a sync takes in changes made outside the services, so the
    # version keys the cached budgets (docs/subsystems/caching.md) the page may already hold.
    version = synced_data_version(plan=plan)
    # Nominal first: its pass gives today's prices on the way (budget_figure).
    nominal, today = (
        budget_figure(plan=plan, version=version, year_from=year_from, year_to=year_to, prices=p)
        for p in (NOMINAL, TODAY)
    )
    key_figures = key_figures_figure(plan=plan, version=version, year=this_year)
    condition = plan_condition(plan=plan, year=this_year)
    return spreadsheet_download(
        fmt=fmt,
        name=_stem(access, "budget"),
        rows=lambda: budget_rows(
            plan=plan, today=today, nominal=nominal, key_figures=key_figures, condition=condition
        ),
        sheets=lambda: budget_sheets(
            plan=plan,
            today=today,
            nominal=nominal,
            key_figures=key_figures,
            condition=condition,
            made_on=_today(),
        ),
    )

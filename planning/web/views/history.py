"""The History tab: a plan's change history, filtered, paged newest first, and as CSV
(planning.records.history; docs/subsystems/history.md)."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from planning.core.access import PlanAccess
from planning.records.history import (
    entries_described,
    history_csv_rows,
    history_page,
    plan_history,
)
from planning.web.access import plan_member_required
from planning.web.downloads import csv_download
from planning.web.forms.history import HistoryFilterForm
from planning.web.pages import plan_tab_context


@plan_member_required()
@require_GET
def plan_history_page(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None)
    entries = plan_history(plan=access.plan, filters=form.filters())
    page, next_before = history_page(entries, before=form.page_before())
    query = request.GET.copy()
    query.pop("before", None)
    context = plan_tab_context(access, "history")
    context.update(
        {
            "form": form,
            "entries": entries_described(page),
            "next_before": next_before,
            "first_page": form.page_before() is None,
            "query": query.urlencode(),
        }
    )
    return render(request, "planning/history.html", context)


@plan_member_required()
@require_GET
def plan_history_csv(request: HttpRequest, access: PlanAccess) -> StreamingHttpResponse:
    """Every entry matching the tab's filters, one line per changed field, streamed."""
    form = HistoryFilterForm(request.GET or None)
    rows = history_csv_rows(plan_history(plan=access.plan, filters=form.filters()))
    name = f"plan-{access.plan.number}-history-{timezone.now():%Y%m%d}"
    return csv_download(rows, name=name)

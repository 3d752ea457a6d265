"""The Report tab: a plan's board reports (docs/subsystems/board-report.md). Anyone who may see
the plan may ask for one and download it, as they may export it; the PDF is printed by a
background job (planning.reports.jobs) while the page shows its progress."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from jobs.leases import leases_resume
from planning.core.access import PlanAccess
from planning.models import PlanReport, PlanReportStatus
from planning.reports.jobs import plan_reports_leased
from planning.reports.pdf import report_filename
from planning.reports.requests import ReportsQueueFull, plan_report_request
from planning.tasks import plan_report_resume
from planning.web.access import plan_member_required, request_user
from planning.web.forms.reports import ReportForm
from planning.web.pages import plan_tab_context

REPORTS_SHOWN = 10


def _report_get(access: PlanAccess, report_id: uuid.UUID) -> PlanReport:
    return get_object_or_404(PlanReport.objects.defer("pdf"), plan=access.plan, pk=report_id)


def _state(report: PlanReport) -> dict[str, Any]:
    label = report.step or PlanReportStatus(report.status).label
    return {
        "status": report.status,
        "label": label,
        "percent": report.percent,
        "finished": report.finished,
    }


@plan_member_required()
@require_http_methods(["GET", "POST"])
def plan_reports(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """The tab: the form that asks for a report, and the plan's latest reports."""
    form = ReportForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            plan_report_request(
                plan=access.plan, user=request_user(request), prices=form.cleaned_data["prices"]
            )
        except ReportsQueueFull as full:
            messages.error(request, str(full))
        else:
            messages.success(request, "The board report is being made; it appears below.")
        return redirect("planning:plan_reports", number=access.plan.number)
    reports = list(
        PlanReport.objects.filter(plan=access.plan)
        .select_related("requested_by")
        .defer("pdf")
        .order_by("-created_at", "-pk")[:REPORTS_SHOWN]
    )
    watched = next((report for report in reports if not report.finished), None)
    context = plan_tab_context(access, "report")
    context.update(
        {
            "form": form,
            "reports": reports,
            "watched": watched,
            "watched_state": _state(watched) if watched else None,
        }
    )
    return render(request, "planning/plan_reports.html", context)


@plan_member_required()
@require_GET
def plan_report_progress(
    request: HttpRequest, access: PlanAccess, report_id: uuid.UUID
) -> JsonResponse:
    """How far a report is, for the tab's progress bar. A watched report whose worker died is
    run again from here, as an import's is."""
    report = _report_get(access, report_id)
    if not report.finished and leases_resume(
        plan_reports_leased().filter(pk=report.pk), resume=plan_report_resume
    ):
        report.refresh_from_db()
    return JsonResponse(_state(report))


@plan_member_required()
@require_GET
def plan_report_download(
    request: HttpRequest, access: PlanAccess, report_id: uuid.UUID
) -> HttpResponse:
    report = get_object_or_404(PlanReport, plan=access.plan, pk=report_id)
    if report.status != PlanReportStatus.DONE:
        raise Http404("This report is not ready.")
    response = HttpResponse(bytes(report.pdf), content_type="application/pdf")
    name = report_filename(access.plan, report.created_at.date())
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["Cache-Control"] = "private, no-store"
    return response

"""The board report as a background job: asking for one makes a PlanReport row, a worker prints
it (planning.reports.pdf) and keeps the PDF in the row (docs/subsystems/board-report.md). The
request (planning.reports.requests) queues the job of planning.tasks, which runs this module.

As imports do (planning.transfer.imports.jobs), a run claims the row's lease (jobs.leases) and a
report whose worker died is run again, at most REPORT_MAX_ATTEMPTS times; an account may have
REPORTS_QUEUED_MAX reports waiting or running at once, counted under its row lock.
"""

from __future__ import annotations

import logging
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db.models import F, QuerySet
from django.utils import timezone

from jobs.leases import Lease, LeaseLost, lease_claim
from planning.models import PlanReport, PlanReportStatus
from planning.reports.pdf import report_pdf
from planning.suggestions.sync.run import suggestion_sync

logger = logging.getLogger(__name__)

UNFINISHED = (PlanReportStatus.QUEUED, PlanReportStatus.RUNNING)


def plan_reports_leased() -> QuerySet[PlanReport]:
    """The rows of this kind of job (jobs.registry): the reports not yet finished."""
    return PlanReport.objects.filter(status__in=UNFINISHED).only("pk", "lease_expires_at")


def plan_report_run(*, report_id: str) -> None:
    """The job: prints the report and keeps it. Runs only with the row's lease, so a finished
    report, or one another run holds, is left alone."""
    lease = lease_claim(
        PlanReport.objects.filter(status__in=UNFINISHED),
        pk=report_id,
        duration=timedelta(seconds=settings.REPORT_LEASE_SECONDS),
        attempts=F("attempts") + 1,
        status=PlanReportStatus.RUNNING,
    )
    if lease is None:
        return
    report = (
        PlanReport.objects.select_related("plan", "plan__organisation")
        .defer("pdf")
        .get(pk=report_id)
    )
    try:
        _run(report, lease)
    except LeaseLost:
        logger.warning("plan report %s was taken over by another run", report.pk)


def _run(report: PlanReport, lease: Lease) -> None:
    if report.attempts > settings.REPORT_MAX_ATTEMPTS:
        lease.release(status=PlanReportStatus.FAILED, finished_at=timezone.now())
        return

    def progress(step: str, percent: int) -> None:
        lease.renew(step=step, percent=percent)

    try:
        suggestion_sync(plan=report.plan)  # its critical suggestions as the planning page has them
        pdf = report_pdf(plan=report.plan, prices=report.prices, progress=progress)
    except LeaseLost:
        raise
    except Exception:
        logger.exception("plan report %s failed", report.pk)
        lease.release(status=PlanReportStatus.FAILED, finished_at=timezone.now())
        raise
    done = lease.release(
        status=PlanReportStatus.DONE,
        step="",
        percent=100,
        pdf=pdf,
        size=len(pdf),
        finished_at=timezone.now(),
    )
    if done:
        _older_removed(report.plan_id)


def _older_removed(plan_id: Any) -> None:
    """Keeps the plan's newest REPORTS_KEPT_PER_PLAN finished reports."""
    finished = PlanReport.objects.filter(plan_id=plan_id).exclude(status__in=UNFINISHED)
    keep = finished.order_by("-created_at", "-pk").values_list("pk", flat=True)[
        : settings.REPORTS_KEPT_PER_PLAN
    ]
    finished.exclude(pk__in=list(keep)).delete()

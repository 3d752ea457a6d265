"""Background jobs of the planning app (run by `manage.py db_worker`)."""

from __future__ import annotations

import logging
from collections.abc import Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, Min, OuterRef, QuerySet
from django.utils import timezone
from django_tasks import task
from django_tasks.base import TASK_MIN_PRIORITY

from jobs.leases import leases_resume
from planning.models import Plan, PlanChange, PlanImport, PlanReport
from planning.reports.jobs import UNFINISHED as REPORTS_UNFINISHED
from planning.reports.jobs import plan_report_run
from planning.suggestions.sync.run import suggestion_sync
from planning.transfer.imports.jobs import UNFINISHED, plan_import_run

logger = logging.getLogger(__name__)


@task()
def plan_sync(*, plan_id: str) -> None:
    """Brings a plan's suggestions up to date (nothing to do if they already are)."""
    plan = Plan.objects.filter(pk=plan_id).first()
    if plan is not None:  # deleted meanwhile
        suggestion_sync(plan=plan)


def plan_sync_soon(*, plan_id: Any) -> None:
    """Enqueues a sync of the plan `SYNC_AFTER_CHANGE_SECONDS` after the current transaction
    commits (a rolled-back change enqueues nothing)."""
    run_after = timezone.now() + timedelta(seconds=settings.SYNC_AFTER_CHANGE_SECONDS)
    job_plan_id = str(plan_id)
    transaction.on_commit(lambda: plan_sync.using(run_after=run_after).enqueue(plan_id=job_plan_id))


def plan_sync_on_data_change(sender: Any, *, plan_id: Any, data_changed: bool, **_: Any) -> None:
    """Receiver of `planning.core.writes.plan_changed` (connected in PlanningConfig.ready): a change
    of the plan's data queues one sync of it after commit; a change of suggestions only (the
    sync's own, Dismiss, Restore) queues none."""
    if data_changed:
        plan_sync_soon(plan_id=plan_id)


PENDING_SWEEP_PLANS = 50  # plans synced by one sweep at most, those changed longest ago first


def pending_plans_sync(*, limit: int = PENDING_SWEEP_PLANS) -> int:
    """Syncs the plans with changes that no sync has taken in yet, the longest waiting first;
    returns how many. A change made in the web app, the API or an import queued its plan's sync
    already (`plan_sync_soon`); one made any other way (the admin, a shell, raw SQL) is found
    here, so its events follow without anyone listing (docs/subsystems/sync.md "Changes from
    anywhere"). Run by the events process every PENDING_SYNC_SWEEP_SECONDS."""
    exists = Exists(Plan.objects.filter(pk=OuterRef("plan_id")))
    # Rows of a plan that is gone (deleted by the admin's cascade, whose node and action
    # deletes left rows before the plan went) would come first for ever: they go.
    PlanChange.objects.filter(~exists).delete()
    waiting = (
        PlanChange.objects.filter(exists)
        .values("plan_id")
        .annotate(first=Min("id"))
        .order_by("first")
        .values_list("plan_id", flat=True)[:limit]
    )
    synced = 0
    for plan in Plan.objects.filter(pk__in=list(waiting)):
        suggestion_sync(plan=plan)
        synced += 1
    return synced


@task()
def plan_import_job(*, import_id: str) -> None:
    """Imports an uploaded plan file (planning.transfer.imports.jobs)."""
    plan_import_run(import_id=import_id)


def _turn(rows: QuerySet[Any], row: Any, *, unfinished: Iterable[str]) -> int:
    """A job's priority among the jobs of one account (docs/subsystems/jobs.md "Fairness"):
    0 for its first unfinished one, -1 for the second, and so on, so another account's first
    job runs before this account's second."""
    ahead = rows.filter(status__in=list(unfinished), created_at__lt=row.created_at).count()
    return max(-ahead, TASK_MIN_PRIORITY)


def plan_import_enqueue(*, import_id: Any) -> None:
    """Enqueues the import's job once the current transaction commits, behind the account's
    earlier imports and beside other accounts' first ones."""
    upload = PlanImport.objects.only("owner_id", "created_at").get(pk=import_id)
    priority = _turn(
        PlanImport.objects.filter(owner_id=upload.owner_id), upload, unfinished=UNFINISHED
    )
    job_import_id = str(import_id)
    transaction.on_commit(
        lambda: plan_import_job.using(priority=priority).enqueue(import_id=job_import_id)
    )


@task()
def plan_report_job(*, report_id: str) -> None:
    """Prints a board report (planning.reports.jobs)."""
    plan_report_run(report_id=report_id)


def plan_report_enqueue(*, report_id: Any) -> None:
    """Enqueues the report's job once the current transaction commits, behind the account's
    earlier reports and beside other accounts' first ones."""
    report = PlanReport.objects.only("requested_by_id", "created_at").get(pk=report_id)
    priority = _turn(
        PlanReport.objects.filter(requested_by_id=report.requested_by_id),
        report,
        unfinished=REPORTS_UNFINISHED,
    )
    job_report_id = str(report_id)
    transaction.on_commit(
        lambda: plan_report_job.using(priority=priority).enqueue(report_id=job_report_id)
    )


def plan_report_resume(report: PlanReport) -> None:
    """Runs again a report whose job died (jobs.leases took it over)."""
    logger.warning("plan report %s stopped renewing its lease; running it again", report.pk)
    plan_report_job.enqueue(report_id=str(report.pk))


def plan_imports_leased() -> QuerySet[PlanImport]:
    """The rows of this kind of job (jobs.registry): the imports not yet finished."""
    return PlanImport.objects.filter(status__in=UNFINISHED).only("pk", "lease_expires_at")


def plan_import_resume(upload: PlanImport) -> None:
    """Runs again an import whose job died (its lease ran out; jobs.leases took it over). The
    job is queued in the take-over's transaction (the queue is a table of the same database),
    so the import cannot be left freed with no job."""
    logger.warning("plan import %s stopped renewing its lease; running it again", upload.pk)
    plan_import_job.enqueue(import_id=str(upload.pk))


def plan_imports_resume(*, pk: str | None = None) -> int:
    """Runs again every import (or the one with `pk`) whose job died; returns how many."""
    imports = plan_imports_leased()
    if pk is not None:
        imports = imports.filter(pk=pk)
    return leases_resume(imports, resume=plan_import_resume)

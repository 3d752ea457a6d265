"""The web import as a background job: an upload becomes a PlanImport row, a worker imports it.

How a job survives a killed worker:
- a run claims the row's lease (jobs.leases) and renews it as it reports progress, and from a
  heartbeat thread across the stretches that report nothing (reading the file until its first
  row is checked, the first sync), so a long parse never lets the same import start again
  beside it; an import whose lease ran out (IMPORT_LEASE_SECONDS) is taken for dead and run again
  (`planning.tasks.plan_imports_resume`: when a worker starts, on the worker's tick, and when
  its page polls); after IMPORT_MAX_ATTEMPTS starts it fails for good.
- the plan's rows and the link PlanImport -> plan are written in one transaction
  (`plan_written`), with a conditional update that only links an import not yet linked; a
  second run of the same import (one that lost its lease) rolls its own plan back. So there
  is never a partial plan, and never two.
- the progress (stage, rows checked, rows written) goes to the `progress` cache, which every
  app server and worker share (Redis; files without it).

The row keeps the outcome: the plan, or the problem list, or a failure.
"""

from __future__ import annotations

import gc
import logging
import time
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.core.cache import caches
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from accounts.services import account_lock
from jobs.leases import Lease, LeaseHeartbeat, LeaseLost, lease_claim
from organisations.models import Organisation
from planning.models import (
    Plan,
    PlanImport,
    PlanImportFormat,
    PlanImportStatus,
)
from planning.transfer.imports.csv_pair import plan_import_csv
from planning.transfer.imports.plan_file import plan_file_import
from planning.transfer.imports.problems import ImportRejected
from planning.transfer.imports.progress import ImportObserver
from planning.transfer.imports.sheet.mapped import plan_import_sheet
from planning.transfer.imports.write import imported_plan_settle

logger = logging.getLogger(__name__)

RUNNING = (PlanImportStatus.CHECKING, PlanImportStatus.SYNCING)
UNFINISHED = (PlanImportStatus.QUEUED, *RUNNING)
# Progress reports closer together than this are not written (the last one always is).
REPORT_INTERVAL_SECONDS = 0.5
# A stretch that reports nothing (reading the file, the first sync) still running after this is
# taken for stuck: its heartbeat stops, and its lease runs out as a dead worker's would.
SILENT_MAX = timedelta(minutes=30)


def _progress_key(import_id: object) -> str:
    return f"plan-import:{import_id}:progress"


@dataclass(frozen=True)
class ImportState:
    """What the import's page shows: the stage and how far it is."""

    status: str
    label: str
    checked: int
    written: int
    total: int

    @property
    def percent(self) -> int:
        """Checking is the first half of the bar, writing the second; syncing is the end."""
        if self.status in (PlanImportStatus.SYNCING, PlanImportStatus.DONE):
            return 100
        if not self.total:
            return 0
        return int(50 * self.checked / self.total + 50 * self.written / self.total)

    def as_json(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "label": self.label,
            "rows_checked": self.checked,
            "rows_written": self.written,
            "rows_total": self.total,
            "percent": self.percent,
        }


def plan_import_state(upload: PlanImport) -> ImportState:
    """The row's outcome when the job has ended, else its latest progress report."""
    report = caches["progress"].get(_progress_key(upload.pk)) or {}
    status = upload.status
    if status == PlanImportStatus.CHECKING and report.get("status") == PlanImportStatus.WRITING:
        status = PlanImportStatus.WRITING  # finer than the row: the row cannot be written then
    return ImportState(
        status=status,
        label=PlanImportStatus(status).label,
        checked=report.get("checked", 0),
        written=report.get("written", 0),
        total=report.get("total", 0),
    )


class ImportsQueueFull(Exception):
    """The account has as many unfinished imports as it may; the upload was not kept."""

    def __init__(self, *, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"You already have {limit} imports waiting or running, the most one account may "
            "have at once. This file was not kept: send it again once one of them has finished."
        )


def plan_import_submit(
    *,
    owner: User,
    organisation: Organisation | None = None,
    idempotency_key: str,
    file_format: PlanImportFormat,
    filename: str,
    name: str,
    content: bytes,
    actions_content: bytes = b"",
    plan_content: bytes = b"",
    currency: str = "",
    status: PlanImportStatus = PlanImportStatus.QUEUED,
) -> tuple[PlanImport, bool]:
    """The import of this upload: a new one (True), or the one the same form made before.

    Raises ImportsQueueFull, keeping nothing, when the owner already has IMPORTS_QUEUED_MAX
    imports queued or running (docs/subsystems/limits.md). They are counted under the account's
    row lock, so two uploads sent together cannot both take the last place; the same form sent
    again is answered with its import whatever the count. One sheet is kept with the status
    MAPPING, replacing the account's earlier one still waiting: it is queued once its columns
    are confirmed (sheet.mappings.plan_import_mapped).
    """
    mine = PlanImport.objects.filter(owner=owner).defer(
        "content", "actions_content", "plan_content"
    )
    existing = mine.filter(idempotency_key=idempotency_key).first()
    if existing is not None:
        return existing, False
    try:
        with transaction.atomic():
            account_lock(user=owner)
            # Looked up again under the lock: the same form sent at the same moment may have
            # made its import while this one waited, and takes no second place.
            existing = mine.filter(idempotency_key=idempotency_key).first()
            if existing is not None:
                return existing, False
            if mine.filter(status__in=UNFINISHED).count() >= settings.IMPORTS_QUEUED_MAX:
                raise ImportsQueueFull(limit=settings.IMPORTS_QUEUED_MAX)
            if status == PlanImportStatus.MAPPING:
                # One sheet waits for its mapping per account: a new one replaces it, so
                # abandoned uploads do not pile up (docs/subsystems/import-mapping.md).
                mine.filter(status=PlanImportStatus.MAPPING).delete()
            upload = PlanImport.objects.create(
                owner=owner,
                organisation=organisation,
                idempotency_key=idempotency_key,
                file_format=file_format,
                filename=filename.replace("\x00", "")[:255],  # PostgreSQL refuses NUL
                name=name,
                content=content,
                actions_content=actions_content,
                plan_content=plan_content,
                currency=currency,
                status=status,
            )
    except IntegrityError:  # the same form, sent twice at the same moment
        return mine.get(idempotency_key=idempotency_key), False
    return upload, True


class _JobObserver(ImportObserver):
    """Reports to the progress cache, keeps the run's lease (raising LeaseLost once another run
    took the import over) and links the plan inside the import's transaction."""

    def __init__(self, upload: PlanImport, lease: Lease) -> None:
        self.upload = upload
        self.lease = lease
        # Until its first report (reading the file: openpyxl's parse of a large workbook takes
        # most of a minute) a run cannot renew its lease itself.
        self.heartbeat = LeaseHeartbeat(lease, at_most=SILENT_MAX)
        self.report: dict[str, Any] = {
            "status": PlanImportStatus.CHECKING,
            "checked": 0,
            "written": 0,
            "total": 0,
        }
        self.reported_at = 0.0

    def send(self, *, force: bool = False, **changes: Any) -> None:
        self.heartbeat.stop()  # the run renews its lease itself from here
        if force:  # a stage starts (the sync reports nothing until it ends): a full lease
            self.lease.renew()
        else:
            self.lease.keep()
        self.report.update(changes)
        now = time.time()
        if force or now - self.reported_at >= REPORT_INTERVAL_SECONDS:
            self.reported_at = now
            caches["progress"].set(_progress_key(self.upload.pk), {**self.report}, timeout=86_400)

    def checked(self, done: int, total: int) -> None:
        self.send(checked=done, total=total, force=done == total)

    def written(self, done: int, total: int) -> None:
        self.send(status=PlanImportStatus.WRITING, written=done, total=total, force=done == total)

    def plan_written(self, plan: Plan) -> None:
        linked = PlanImport.objects.filter(
            pk=self.upload.pk, plan__isnull=True, status__in=RUNNING
        ).update(
            plan=plan,
            status=PlanImportStatus.SYNCING,
            content=b"",
            actions_content=b"",
            plan_content=b"",
        )
        if not linked:
            raise _AlreadyImported


class _AlreadyImported(Exception):
    """Another run of the same import linked its plan first: this run's plan is rolled back."""


def _finish(
    upload: PlanImport,
    lease: Lease,
    status: PlanImportStatus,
    problems: list[str],
    problems_more: int = 0,
) -> None:
    """Records the outcome and frees the row, unless another run took it over meanwhile."""
    finished = lease.release(
        status=status,
        problems=problems,
        problems_more=problems_more,
        content=b"",
        actions_content=b"",
        plan_content=b"",
        finished_at=timezone.now(),
    )
    if finished:
        caches["progress"].delete(_progress_key(upload.pk))


def _plan_read_and_write(upload: PlanImport, observer: ImportObserver) -> Plan:
    if upload.file_format == PlanImportFormat.CSV_PAIR:
        return plan_import_csv(
            owner=upload.owner,
            organisation=upload.organisation,
            nodes_csv=bytes(upload.content),
            actions_csv=bytes(upload.actions_content),
            plan_csv=bytes(upload.plan_content) or None,
            name=upload.name or None,
            filename=upload.filename,
            observer=observer,
            currency=upload.currency or None,
        )
    if upload.file_format == PlanImportFormat.SHEET:
        return plan_import_sheet(
            owner=upload.owner,
            organisation=upload.organisation,
            content=bytes(upload.content),
            filename=upload.filename,
            columns=list(upload.columns),
            name=upload.name or None,
            observer=observer,
            currency=upload.currency or None,
        )
    return plan_file_import(
        owner=upload.owner,
        organisation=upload.organisation,
        content=bytes(upload.content),
        filename=upload.filename,
        name=upload.name or None,
        observer=observer,
        currency=upload.currency or None,
    )


# Rows an import adds before PostgreSQL's statistics are refreshed by the job itself.
def plan_import_run(*, import_id: str) -> None:
    """The job: checks and writes the plan, then runs its first suggestion sync.

    Safe to run again at any point: it runs only with the import's lease (so a finished import,
    or one another run holds, is left alone), a written one only syncs, and a run that finds
    the plan already linked rolls its own copy back.
    """
    lease = lease_claim(
        PlanImport.objects.filter(status__in=UNFINISHED),
        pk=import_id,
        duration=timedelta(seconds=settings.IMPORT_LEASE_SECONDS),
        attempts=F("attempts") + 1,
        started_at=timezone.now(),
    )
    if lease is None:
        return
    upload = PlanImport.objects.select_related("owner", "plan").get(pk=import_id)
    try:
        _plan_import_run(upload, lease)
    except LeaseLost:
        logger.warning("plan import %s was taken over by another run", upload.pk)


def _plan_import_run(upload: PlanImport, lease: Lease) -> None:
    if upload.attempts > settings.IMPORT_MAX_ATTEMPTS:
        message = f"The import stopped {upload.attempts - 1} times before it ended."
        _finish(upload, lease, PlanImportStatus.FAILED, [message])
        return
    observer = _JobObserver(upload, lease)
    plan = upload.plan
    if plan is None:
        PlanImport.objects.filter(pk=upload.pk).update(status=PlanImportStatus.CHECKING)
        observer.send(force=True)
        observer.heartbeat.start()
        try:
            plan = _plan_read_and_write(upload, observer)
        except ImportRejected as rejected:
            problems = [str(p) for p in rejected.problems]
            _finish(upload, lease, PlanImportStatus.REJECTED, problems, rejected.more)
            return
        except (_AlreadyImported, LeaseLost):
            raise LeaseLost from None  # another run has the import: it finishes it
        except Exception:
            logger.exception("plan import %s failed", upload.pk)
            message = "The import failed on our side; nothing was imported. Please try again."
            _finish(upload, lease, PlanImportStatus.FAILED, [message])
            raise
        finally:
            observer.heartbeat.stop()
    # The file's bytes are not needed any more: the first sync runs without them (the row's
    # copy is cleared when the import finishes). What reading it made is freed now, not at the
    # collector's leisure: openpyxl's workbook is a reference cycle, and left for the collector
    # it took the first sync of a workbook's plan from 327 to 375 MB.
    upload.content = upload.actions_content = upload.plan_content = b""
    gc.collect()
    observer.send(status=PlanImportStatus.SYNCING, force=True)
    with LeaseHeartbeat(lease, at_most=SILENT_MAX):  # the statistics and the sync report nothing
        imported_plan_settle(plan=plan, rows=observer.report["total"])
    _finish(upload, lease, PlanImportStatus.DONE, [])

"""The kinds of background work the worker looks after, registered by each app in its
`AppConfig.ready()`, and what the worker's tick does with them (docs/subsystems/jobs.md "Leases,
claims and the tick"):

- a resumable kind: rows whose lease expired are taken over and resumed (`jobs_resume`, run by
  `manage.py resume_jobs` when a worker starts and by every tick);
- a periodic job: run by the tick once it is due, under a lease, then due again `every` later
  (`periodic_jobs_run`).

This module imports no app: the apps above register here, as Django's admin does.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import QuerySet
from django.utils import timezone

from jobs.leases import lease_claim, leases_resume
from jobs.models import JobSchedule

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Resumable:
    label: str  # what the command prints: "plan imports"
    rows: Callable[[], QuerySet[Any]]  # the rows whose leases are this kind's
    resume: Callable[[Any], object]  # takes up one row whose worker died (jobs.leases)


@dataclass(frozen=True)
class Periodic:
    name: str
    every: timedelta
    run: Callable[[], object]  # safe to run more often than `every` (a lost run is run again)
    lease: timedelta  # longer than a run takes: a run holding it longer is taken for dead


_resumables: dict[str, Resumable] = {}
_periodics: dict[str, Periodic] = {}


def resumable_register(
    *, label: str, rows: Callable[[], QuerySet[Any]], resume: Callable[[Any], object]
) -> None:
    _resumables[label] = Resumable(label=label, rows=rows, resume=resume)


def periodic_register(
    *,
    name: str,
    every: timedelta,
    run: Callable[[], object],
    lease: timedelta = timedelta(hours=1),
) -> None:
    _periodics[name] = Periodic(name=name, every=every, run=run, lease=lease)


def resumables() -> list[Resumable]:
    return list(_resumables.values())


def periodics() -> list[Periodic]:
    return list(_periodics.values())


def jobs_resume(*, now: datetime | None = None) -> dict[str, int]:
    """Takes up the work of dead workers, every registered kind; how many rows, by label."""
    now = now or timezone.now()
    return {
        kind.label: leases_resume(kind.rows(), resume=kind.resume, now=now) for kind in resumables()
    }


def periodic_jobs_run(*, now: datetime | None = None) -> list[str]:
    """Runs every registered periodic job that is due, each under its lease (of two ticks, one
    runs it). A run that raises is logged and stays due: the next tick tries again. Returns
    the names of the jobs that ran to the end."""
    now = now or timezone.now()
    ran = []
    for job in periodics():
        JobSchedule.objects.get_or_create(name=job.name, defaults={"due_at": now})
        due = JobSchedule.objects.filter(due_at__lte=now)
        lease = lease_claim(due, pk=job.name, duration=job.lease, now=now)
        if lease is None:
            continue  # not due, or another tick runs it
        try:
            job.run()
        except Exception:
            logger.exception("periodic job %s failed; the next tick runs it again", job.name)
            lease.release()
            continue
        # From the due time, not the run's, so a daily job does not drift by a tick a day;
        # after a long stop, one run catches up and the next is `every` later.
        due_at = JobSchedule.objects.values_list("due_at", flat=True).get(pk=job.name)
        due_at += job.every
        lease.release(due_at=due_at if due_at > now else now + job.every)
        ran.append(job.name)
    return ran

"""The worker's tick: every TICK it takes up the work of dead workers (`jobs_resume`) and runs
the periodic jobs that are due (`periodic_jobs_run`).

django-tasks has no scheduler, so the tick is a chain: each run queues the next one TICK later.
The chain holds a lease on its JobSchedule row, passed from run to run as the task's argument:
a run whose lease was taken over is a stray duplicate and stops, so there is one chain however
often it is started. `manage.py resume_jobs` starts it when a worker starts; a chain whose next
run is a TICK late (its worker died, or the queue is that far behind) is started again then.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django_tasks import task
from django_tasks_db.models import DBTaskResult

from jobs.leases import Lease, LeaseLost, lease_claim
from jobs.models import JobSchedule
from jobs.registry import jobs_resume, periodic_jobs_run

TICK = timedelta(minutes=5)
TICK_NAME = "jobs.tick"
# The queued next run holds the chain until it is a TICK late.
TICK_LEASE = 2 * TICK


def _tick_enqueue(chain: Lease, *, run_after: datetime) -> None:
    jobs_tick.using(run_after=run_after).enqueue(held_until=chain.expires_at.isoformat())


@task()
def jobs_tick(*, held_until: str) -> None:
    """One tick; `held_until` is the chain's lease as the previous run (or the start) left it."""
    now = timezone.now()
    chain = Lease(
        rows=JobSchedule.objects.filter(pk=TICK_NAME),
        expires_at=datetime.fromisoformat(held_until),
        duration=TICK_LEASE,
    )
    with transaction.atomic():  # the next run is queued with the renewal, or neither is
        try:
            chain.renew(now=now, due_at=now + TICK)
        except LeaseLost:
            return  # another chain took over: this one ends here
        _tick_enqueue(chain, run_after=now + TICK)
    try:
        jobs_resume(now=now)
    finally:
        periodic_jobs_run(now=now)


def jobs_tick_start(*, now: datetime | None = None) -> bool:
    """Starts the tick chain (its first run a TICK from now) unless a live one holds it."""
    now = now or timezone.now()
    JobSchedule.objects.get_or_create(name=TICK_NAME, defaults={"due_at": now})
    with transaction.atomic():
        chain = lease_claim(
            JobSchedule.objects.all(), pk=TICK_NAME, duration=TICK_LEASE, now=now, due_at=now + TICK
        )
        if chain is None:
            return False
        _tick_enqueue(chain, run_after=now + TICK)
    return True


# How long a finished job's row stays in the queue's table (django-tasks-db keeps it for ever):
# long enough to look into a failure, short enough that the table stays the queue's size.
TASK_RESULTS_KEEP = timedelta(days=14)
TASK_RESULTS_PRUNE_EVERY = timedelta(days=1)
_PRUNE_BATCH = 5_000


def task_results_prune(*, now: datetime | None = None) -> int:
    """Deletes the rows of jobs that finished (succeeded or failed) over TASK_RESULTS_KEEP ago,
    as django-tasks-db's prune_db_task_results command would, a batch at a time so no DELETE holds
    the queue's table for long; queued and running jobs stay. A periodic job of the tick
    (registered in JobsConfig.ready()). How many rows went."""
    cutoff = (now or timezone.now()) - TASK_RESULTS_KEEP
    old = DBTaskResult.objects.finished().filter(finished_at__lte=cutoff)
    deleted = 0
    while batch := list(old.values_list("pk", flat=True)[:_PRUNE_BATCH]):
        deleted += DBTaskResult.objects.filter(pk__in=batch).delete()[0]
    return deleted

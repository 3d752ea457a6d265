"""The daily prune of finished jobs' rows (jobs.tasks.task_results_prune): django-tasks-db
keeps every finished job's row for ever, so the queue's table would grow by every sync, every
delivery attempt and every tick."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from django_tasks import TaskResultStatus
from django_tasks_db.models import DBTaskResult

from jobs import registry, tasks
from jobs.tasks import TASK_RESULTS_KEEP, jobs_tick, task_results_prune

pytestmark = pytest.mark.django_db


def _job(*, status: str, finished_days_ago: float | None) -> str:
    result = jobs_tick.enqueue(held_until=timezone.now().isoformat())
    finished_at = (
        None if finished_days_ago is None else timezone.now() - timedelta(days=finished_days_ago)
    )
    DBTaskResult.objects.filter(pk=result.id).update(status=status, finished_at=finished_at)
    return str(result.id)


def test_finished_jobs_older_than_the_retention_go_and_the_rest_stay(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    days = TASK_RESULTS_KEEP.days
    old_success = _job(status=TaskResultStatus.SUCCESSFUL, finished_days_ago=days + 1)
    old_failure = _job(status=TaskResultStatus.FAILED, finished_days_ago=days + 2)
    recent = _job(status=TaskResultStatus.SUCCESSFUL, finished_days_ago=days - 1)
    queued = _job(status=TaskResultStatus.READY, finished_days_ago=None)
    running = _job(status=TaskResultStatus.RUNNING, finished_days_ago=None)
    monkeypatch.setattr(tasks, "_PRUNE_BATCH", 1)  # one row a batch: the loop goes on to the end

    assert task_results_prune() == 2

    left = {str(pk) for pk in DBTaskResult.objects.values_list("pk", flat=True)}
    assert old_success not in left and old_failure not in left
    assert {recent, queued, running} <= left


def test_the_tick_runs_the_prune_daily() -> None:
    job = {job.name: job for job in registry.periodics()}["jobs.task_results_prune"]
    assert job.every == timedelta(days=1)
    old = _job(status=TaskResultStatus.SUCCESSFUL, finished_days_ago=TASK_RESULTS_KEEP.days + 1)
    assert "jobs.task_results_prune" in registry.periodic_jobs_run()
    assert not DBTaskResult.objects.filter(pk=old).exists()

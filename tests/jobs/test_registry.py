"""The registry (jobs.registry): the apps' kinds, `resume_jobs` resuming every one of them, and
the periodic jobs run by the tick once due, under a lease."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db.models import QuerySet
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from jobs import registry
from jobs.models import JobSchedule
from jobs.registry import periodic_jobs_run, periodic_register, resumable_register

pytestmark = pytest.mark.django_db

DAY = timedelta(days=1)


@pytest.fixture
def own_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """An empty registry for the test's own kinds (the apps' kinds are put back after)."""
    monkeypatch.setattr(registry, "_resumables", {})
    monkeypatch.setattr(registry, "_periodics", {})


def test_the_apps_register_their_kinds_and_the_daily_key_job() -> None:
    assert {kind.label for kind in registry.resumables()} >= {
        "plan imports",
        "webhook deliveries",
    }
    periodic = {job.name: job for job in registry.periodics()}
    assert periodic["integrations.api_key_notices"].every == DAY


@pytest.mark.usefixtures("own_registry")
def test_resume_jobs_resumes_every_registered_kind() -> None:
    expired = timezone.now() - timedelta(minutes=1)
    for name in ("a-1", "a-2", "b-1", "c-held"):
        JobSchedule.objects.create(name=name, due_at=expired, lease_expires_at=expired)
    JobSchedule.objects.filter(pk="c-held").update(lease_expires_at=expired + 2 * DAY)
    resumed: list[str] = []

    def rows_of(prefix: str) -> Callable[[], QuerySet[JobSchedule]]:
        return lambda: JobSchedule.objects.filter(name__startswith=prefix)

    for prefix in ("a", "b", "c"):
        resumable_register(
            label=f"kind {prefix}", rows=rows_of(prefix), resume=lambda r: resumed.append(r.pk)
        )
    out = StringIO()

    call_command("resume_jobs", stdout=out)
    call_command("resume_jobs", stdout=StringIO())

    assert sorted(resumed) == ["a-1", "a-2", "b-1"]
    assert out.getvalue() == "Taken up: kind a 2, kind b 1, kind c 0.\n"
    assert DBTaskResult.objects.filter(task_path="jobs.tasks.jobs_tick").count() == 1


@pytest.mark.usefixtures("own_registry")
def test_a_periodic_job_runs_once_it_is_due_and_again_a_period_later() -> None:
    runs: list[int] = []
    periodic_register(name="daily", every=DAY, run=lambda: runs.append(1))
    now = timezone.now()

    assert periodic_jobs_run(now=now) == ["daily"]  # new: due at once
    assert periodic_jobs_run(now=now + timedelta(minutes=5)) == []
    assert periodic_jobs_run(now=now + DAY - timedelta(seconds=1)) == []
    assert periodic_jobs_run(now=now + DAY) == ["daily"]

    assert len(runs) == 2
    schedule = JobSchedule.objects.get(name="daily")
    assert schedule.due_at == now + 2 * DAY  # from the due time: no drift
    assert schedule.lease_expires_at is None


@pytest.mark.usefixtures("own_registry")
def test_after_a_long_stop_a_periodic_job_catches_up_once() -> None:
    runs: list[datetime] = []
    periodic_register(name="daily", every=DAY, run=lambda: runs.append(timezone.now()))
    now = timezone.now()
    JobSchedule.objects.create(name="daily", due_at=now - 5 * DAY)

    assert periodic_jobs_run(now=now) == ["daily"]
    assert periodic_jobs_run(now=now + timedelta(minutes=5)) == []

    assert JobSchedule.objects.get(name="daily").due_at == now + DAY


@pytest.mark.usefixtures("own_registry")
def test_a_periodic_run_that_fails_stays_due_for_the_next_tick() -> None:
    outcomes = iter([RuntimeError("SMTP down"), None])

    def run() -> None:
        if (error := next(outcomes)) is not None:
            raise error

    periodic_register(name="daily", every=DAY, run=run)
    now = timezone.now()

    assert periodic_jobs_run(now=now) == []
    schedule = JobSchedule.objects.get(name="daily")
    assert schedule.due_at == now and schedule.lease_expires_at is None
    assert periodic_jobs_run(now=now + timedelta(minutes=5)) == ["daily"]


@pytest.mark.usefixtures("own_registry")
def test_a_periodic_run_whose_worker_died_runs_again_once_its_lease_ran_out() -> None:
    runs: list[int] = []
    periodic_register(name="daily", every=DAY, run=lambda: runs.append(1), lease=DAY / 24)
    now = timezone.now()
    # a tick claimed it an hour ago minus a minute and was killed during the run
    JobSchedule.objects.create(
        name="daily", due_at=now - DAY / 24, lease_expires_at=now + timedelta(minutes=1)
    )

    assert periodic_jobs_run(now=now) == []  # held: it might still be running
    assert periodic_jobs_run(now=now + timedelta(minutes=2)) == ["daily"]
    assert runs == [1]

"""The worker's tick (jobs.tasks): one chain however often it is started, a stray duplicate
stops, a lost chain is started again, and each tick resumes and runs the periodic jobs."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from jobs.models import JobSchedule
from jobs.tasks import TICK, TICK_NAME, jobs_tick, jobs_tick_start

pytestmark = pytest.mark.django_db


def _ticks() -> list[Any]:
    return list(DBTaskResult.objects.filter(task_path="jobs.tasks.jobs_tick", status="READY"))


@pytest.fixture
def tick_work(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """What the ticks did, instead of doing it."""
    done: list[str] = []
    monkeypatch.setattr("jobs.tasks.jobs_resume", lambda **_: done.append("resume"))
    monkeypatch.setattr("jobs.tasks.periodic_jobs_run", lambda **_: done.append("periodic"))
    return done


def test_started_twice_the_tick_is_one_chain() -> None:
    assert jobs_tick_start() is True
    assert jobs_tick_start() is False  # a second worker starting

    (tick,) = _ticks()
    assert tick.run_after is not None
    assert timedelta(minutes=4) < tick.run_after - timezone.now() <= TICK


def test_a_tick_queues_the_next_then_resumes_and_runs_the_periodic_jobs(
    tick_work: list[str],
) -> None:
    jobs_tick_start()
    (first,) = _ticks()
    first.delete()  # the worker took it

    jobs_tick.call(**first.args_kwargs["kwargs"])

    assert tick_work == ["resume", "periodic"]
    (second,) = _ticks()
    assert second.args_kwargs["kwargs"] != first.args_kwargs["kwargs"]  # the renewed lease
    schedule = JobSchedule.objects.get(name=TICK_NAME)
    assert schedule.due_at == second.run_after


def test_a_lost_chain_is_started_again_and_its_stray_tick_then_stops(
    tick_work: list[str],
) -> None:
    now = timezone.now()
    jobs_tick_start(now=now - 3 * TICK)  # its tick was lost: now two TICKs overdue
    (lost,) = _ticks()
    lost.delete()

    assert jobs_tick_start(now=now) is True  # the next worker start takes the chain over
    jobs_tick.call(**lost.args_kwargs["kwargs"])  # the lost tick turns up after all

    assert tick_work == []
    assert len(_ticks()) == 1  # only the new chain's

"""The daily key job on the worker: a periodic job of the worker's tick (jobs.registry), run
once it is due, then due again a day later."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from apikeys.models import ApiKey
from apikeys.services import api_key_create
from jobs.models import JobSchedule
from jobs.tasks import TICK, jobs_tick_start

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_worker_runs_the_key_job_and_it_is_due_again_a_day_later(user: Any) -> None:
    api_key, _raw = api_key_create(user=user, name="Soon")
    now = timezone.now()
    ApiKey.objects.filter(pk=api_key.pk).update(
        created_at=now - timedelta(days=80), expires_at=now + timedelta(days=5)
    )
    jobs_tick_start(now=now - TICK)  # a worker started a tick ago: the first tick is due
    call_command("resume_jobs", stdout=io.StringIO())  # another worker starting: one chain
    assert DBTaskResult.objects.count() == 1

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    assert [m.subject for m in mail.outbox] == ["Your Maintplan API key “Soon” expires in 7 days"]
    schedule = JobSchedule.objects.get(name="integrations.api_key_notices")
    assert timedelta(hours=23) < schedule.due_at - now < timedelta(hours=25)
    assert schedule.lease_expires_at is None
    done, queued = DBTaskResult.objects.order_by("enqueued_at")
    assert done.status == "SUCCESSFUL"
    assert (queued.status, queued.task_path) == ("READY", "jobs.tasks.jobs_tick")
    assert queued.run_after is not None
    assert TICK - timedelta(seconds=30) < queued.run_after - now < TICK + timedelta(seconds=30)

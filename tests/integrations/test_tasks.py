"""The daily key job on the worker: started once, it runs and enqueues its next run a day
later, once however often it is started."""

from __future__ import annotations

import io
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.core.management import call_command
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from integrations.models import ApiKey
from integrations.services import api_key_create

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_worker_runs_the_key_job_and_schedules_the_next_day(user: Any) -> None:
    api_key, _raw = api_key_create(user=user, name="Soon")
    now = timezone.now()
    ApiKey.objects.filter(pk=api_key.pk).update(
        created_at=now - timedelta(days=80), expires_at=now + timedelta(days=5)
    )
    for _ in range(2):  # started twice: one job
        call_command("api_key_notices", "--enqueue", stdout=io.StringIO())
    assert DBTaskResult.objects.count() == 1

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    assert [m.subject for m in mail.outbox] == ["Your Maintplan API key “Soon” expires in 7 days"]
    done, queued = DBTaskResult.objects.order_by("enqueued_at")
    assert done.status == "SUCCESSFUL"
    assert queued.status == "READY"
    assert queued.task_path == "integrations.tasks.api_key_notices"
    assert queued.run_after is not None
    assert timedelta(hours=23) < queued.run_after - now < timedelta(hours=25)

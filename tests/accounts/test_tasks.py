"""The security log's retention: accounts' own daily job of the worker (accounts.tasks)."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from accounts.models import SecurityEvent
from accounts.tasks import security_log_retention
from jobs import registry

pytestmark = pytest.mark.django_db


def test_the_security_log_retention_is_a_daily_job_of_the_worker() -> None:
    periodic = {job.name: job for job in registry.periodics()}

    job = periodic["accounts.security_log_retention"]

    assert job.every == timedelta(days=1)
    assert job.run is security_log_retention


def test_the_job_deletes_the_lines_older_than_the_security_log_days(
    user: Any, settings: Any
) -> None:
    settings.SECURITY_LOG_DAYS = 90
    old = SecurityEvent.objects.create(user=user, kind=SecurityEvent.Kind.LOGIN)
    SecurityEvent.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=91))
    kept = SecurityEvent.objects.create(user=user, kind=SecurityEvent.Kind.LOGIN)

    security_log_retention()
    security_log_retention()  # again: nothing more goes

    assert list(SecurityEvent.objects.values_list("pk", flat=True)) == [kept.pk]

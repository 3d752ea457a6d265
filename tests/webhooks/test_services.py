"""The events' retention: webhooks' own daily job of the worker (webhooks.services)."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from jobs import registry
from tests.factories import PlanFactory
from webhooks.models import WebhookEvent
from webhooks.services import EVENTS_KEEP, events_retention, events_sequence

pytestmark = pytest.mark.django_db


def test_the_events_retention_is_a_daily_job_of_the_worker() -> None:
    periodic = {job.name: job for job in registry.periodics()}

    job = periodic["webhooks.events_retention"]

    assert job.every == timedelta(days=1)
    assert job.run is events_retention


def test_the_job_deletes_the_events_older_than_30_days_but_the_newest() -> None:
    plan = PlanFactory.create()
    now = timezone.now()
    for name, age in [("old", EVENTS_KEEP + timedelta(days=1)), ("kept", timedelta(days=29))]:
        WebhookEvent.objects.create(
            id=f"evt_{name}", event_type="suggestions.changed", plan=plan, body="{}"
        )
        WebhookEvent.objects.filter(pk=f"evt_{name}").update(created_at=now - age)
    events_sequence()

    events_retention()
    assert set(WebhookEvent.objects.values_list("pk", flat=True)) == {"evt_kept"}

    # The newest event stays whatever its age, so numbering never starts again.
    WebhookEvent.objects.update(created_at=now - 2 * EVENTS_KEEP)
    events_retention()
    assert set(WebhookEvent.objects.values_list("pk", flat=True)) == {"evt_kept"}

"""The events API's order under concurrency (PostgreSQL, real connections): an event whose
transaction commits late is numbered after the events a reader already saw, and numberings
running at once never give one number twice (docs/subsystems/integrator-api.md "Events API").

Run with `scripts/with-postgres.sh .venv/bin/pytest
tests/webhooks/test_event_sequence_concurrency.py -q`.
"""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connections, transaction
from django.utils import timezone

from tests.concurrency import race
from tests.factories import PlanFactory
from webhooks.events import event_id_generate
from webhooks.models import EVENT_TYPE_SUGGESTIONS_CHANGED, WebhookEvent
from webhooks.services import events_sequence

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _event(plan: Any, **fields: Any) -> WebhookEvent:
    return WebhookEvent.objects.create(
        id=event_id_generate(),
        event_type=EVENT_TYPE_SUGGESTIONS_CHANGED,
        plan=plan,
        body="{}",
        **fields,
    )


def test_an_event_committed_late_is_numbered_after_the_ones_already_seen(
    requires_postgres: None,
) -> None:
    plan = PlanFactory.create()
    written, release = threading.Event(), threading.Event()
    late: list[str] = []

    def slow_writer() -> None:
        try:
            with transaction.atomic():
                late.append(_event(plan).pk)  # written first...
                written.set()
                release.wait(timeout=10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=slow_writer)
    thread.start()
    assert written.wait(timeout=10)
    early = _event(plan)  # ...this one is written later but committed first
    events_sequence()  # a reader lists now: it sees `early` only
    release.set()
    thread.join(timeout=10)
    events_sequence()

    numbers = {pk: seq or 0 for pk, seq in WebhookEvent.objects.values_list("pk", "sequence")}
    assert WebhookEvent.objects.get(pk=late[0]).created_at < early.created_at
    assert numbers[late[0]] > numbers[early.pk] > 0


def test_numberings_at_once_give_each_event_one_number_in_written_order(
    requires_postgres: None,
) -> None:
    plan = PlanFactory.create()
    start = timezone.now()
    events = [_event(plan, created_at=start + timedelta(seconds=i)) for i in range(60)]

    outcomes = race(*([events_sequence] * 4), refused=())

    assert outcomes == ["done"] * 4
    numbered = WebhookEvent.objects.order_by("created_at").values_list("sequence", flat=True)
    assert None not in numbered
    numbers = [number or 0 for number in numbered]
    assert numbers == sorted(numbers)
    assert len(set(numbers)) == len(events)

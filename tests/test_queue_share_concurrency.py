"""The per-account shares of the job queue under concurrency: two imports, and two test events,
racing for the account's last place (PostgreSQL, real connections; issue 27, point 2).

Run with `scripts/with-postgres.sh .venv/bin/pytest tests/test_queue_share_concurrency.py -q`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from planning.models import PlanImport, PlanImportFormat
from planning.transfer.imports.jobs import ImportsQueueFull, plan_import_submit
from tests.concurrency import race
from tests.webhooks.factories import endpoint_for
from webhooks.events import PendingTestEventsFull, endpoint_test_event_send
from webhooks.models import WebhookDelivery

ROUNDS = 5
pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _race(*calls: Callable[[], Any]) -> list[str]:
    return race(*calls, refused=(ImportsQueueFull, PendingTestEventsFull))


def _submit(owner: Any, key: str) -> Callable[[], Any]:
    return lambda: plan_import_submit(
        owner=owner,
        idempotency_key=key,
        file_format=PlanImportFormat.DOCUMENT,
        filename="plan.json",
        name="",
        content=b"{}",
    )


def test_two_uploads_never_both_take_the_last_import_place(
    requires_postgres: None, user: Any, settings: Any
) -> None:
    settings.IMPORTS_QUEUED_MAX = 2
    for round_ in range(ROUNDS):
        PlanImport.objects.all().delete()
        _submit(user, "first")()

        outcomes = _race(_submit(user, "a"), _submit(user, "b"))

        assert (outcomes, PlanImport.objects.count()) == (["done", "refused"], 2), round_


def test_the_same_form_sent_twice_at_once_at_the_last_place_is_one_import(
    requires_postgres: None, user: Any, settings: Any
) -> None:
    settings.IMPORTS_QUEUED_MAX = 2
    for round_ in range(ROUNDS):
        PlanImport.objects.all().delete()
        _submit(user, "first")()

        outcomes = _race(_submit(user, "same"), _submit(user, "same"))

        assert (outcomes, PlanImport.objects.count()) == (["done", "done"], 2), round_


def test_two_presses_never_both_take_the_last_test_event_place(
    requires_postgres: None, user: Any, settings: Any
) -> None:
    settings.WEBHOOK_TEST_EVENTS_PENDING_MAX = 2
    endpoint, _secret = endpoint_for(user)
    for round_ in range(ROUNDS):
        WebhookDelivery.objects.all().delete()
        endpoint_test_event_send(endpoint=endpoint)

        outcomes = _race(
            lambda: endpoint_test_event_send(endpoint=endpoint),
            lambda: endpoint_test_event_send(endpoint=endpoint),
        )

        assert (outcomes, WebhookDelivery.objects.count()) == (["done", "refused"], 2), round_

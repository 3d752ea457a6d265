"""The delivery job: retries with backoff, giving up, disabling after 3 days, one POST per
attempt, redirects not followed, the secret never stored raw."""

from __future__ import annotations

import itertools
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.core import mail
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from tests.webhooks.conftest import Receiver
from tests.webhooks.factories import endpoint_for
from webhooks.events import endpoint_test_event_send
from webhooks.models import (
    DeliveryStatus,
    DisabledReason,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from webhooks.signing import secret_decrypt
from webhooks.tasks import MAX_ATTEMPTS, RETRY_DELAYS, webhook_deliver

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("private_targets")]


@pytest.fixture
def endpoint(user: Any, receiver: Receiver) -> WebhookEndpoint:
    return endpoint_for(user, url=receiver.url)[0]


def _attempt(delivery: WebhookDelivery) -> None:
    """Runs the delivery's next attempt now, as the worker would."""
    delivery.refresh_from_db()
    webhook_deliver.call(delivery_id=delivery.pk, attempt=delivery.attempts + 1)
    delivery.refresh_from_db()


def _queued_attempts() -> list[tuple[int, Any]]:
    jobs = DBTaskResult.objects.filter(status="READY").order_by("run_after")
    return [(job.args_kwargs["kwargs"]["attempt"], job.run_after) for job in jobs]


def test_the_backoff_runs_from_a_minute_to_12_hours_over_8_attempts() -> None:
    assert MAX_ATTEMPTS == 8
    assert len(RETRY_DELAYS) == 7
    assert RETRY_DELAYS[0] == 60 and RETRY_DELAYS[-1] == 12 * 3600
    assert all(a * 2 < b < a * 4 for a, b in itertools.pairwise(RETRY_DELAYS))


def test_a_failed_attempt_queues_the_next_about_a_minute_later(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    receiver.statuses = [503]
    endpoint_test_event_send(endpoint=endpoint)
    DBTaskResult.objects.all().delete()  # the worker would have taken the first job
    delivery = WebhookDelivery.objects.get()
    before = timezone.now()

    _attempt(delivery)

    ((attempt, run_after),) = _queued_attempts()
    assert attempt == 2
    assert before + timedelta(seconds=54) <= run_after <= timezone.now() + timedelta(seconds=66)
    assert delivery.status == DeliveryStatus.PENDING
    assert WebhookAttempt.objects.get().error == "HTTP 503"


def test_after_8_failed_attempts_the_delivery_gives_up(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    receiver.statuses = [500] * 8
    endpoint_test_event_send(endpoint=endpoint)
    delivery = WebhookDelivery.objects.get()
    for _ in range(8):
        _attempt(delivery)
    _attempt(delivery)  # a ninth job would find nothing to do

    assert delivery.status == DeliveryStatus.FAILED
    assert len(receiver.received) == 8


def test_a_second_job_for_the_same_attempt_posts_nothing(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    endpoint_test_event_send(endpoint=endpoint)
    delivery = WebhookDelivery.objects.get()
    webhook_deliver.call(delivery_id=delivery.pk, attempt=1)
    webhook_deliver.call(delivery_id=delivery.pk, attempt=1)
    assert len(receiver.received) == 1


def test_a_redirect_is_not_followed(endpoint: WebhookEndpoint, receiver: Receiver) -> None:
    receiver.statuses = [302]
    endpoint_test_event_send(endpoint=endpoint)
    delivery = WebhookDelivery.objects.get()
    _attempt(delivery)
    attempt = WebhookAttempt.objects.get()
    assert (attempt.status_code, attempt.error) == (302, "redirect not followed")
    assert len(receiver.received) == 1


def test_an_unreachable_receiver_is_a_failed_attempt(user: Any) -> None:
    endpoint, _ = endpoint_for(user, url="http://127.0.0.1:9/closed")
    endpoint_test_event_send(endpoint=endpoint)
    _attempt(WebhookDelivery.objects.get())
    attempt = WebhookAttempt.objects.get()
    assert attempt.status_code is None
    assert attempt.error.startswith("connection failed")


def test_3_days_of_failures_disable_the_endpoint_email_the_owner_and_show_a_banner(
    endpoint: WebhookEndpoint,
    receiver: Receiver,
    client: Client,
    django_capture_on_commit_callbacks: Any,
) -> None:
    receiver.statuses = [500, 500]
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        failing_since=timezone.now() - timedelta(days=2, hours=23)
    )
    endpoint_test_event_send(endpoint=endpoint)
    delivery = WebhookDelivery.objects.get()
    _attempt(delivery)
    endpoint.refresh_from_db()
    assert endpoint.is_active

    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(
        failing_since=timezone.now() - timedelta(days=3, minutes=1)
    )
    with django_capture_on_commit_callbacks(execute=True):
        _attempt(delivery)

    endpoint.refresh_from_db()
    assert endpoint.disabled_reason == DisabledReason.FAILING
    (email,) = mail.outbox
    assert endpoint.owner is not None
    assert email.to == [endpoint.owner.email]
    assert endpoint.url in email.body
    # The link to the endpoint's page is whole, from SITE_URL (core.mail.site_link).
    assert f"({settings.SITE_URL}/profile/integrations/webhooks/{endpoint.pk}/)" in email.body
    client.force_login(endpoint.owner)
    page = client.get("/profile/integrations/webhooks/").content.decode()
    assert "A webhook endpoint was disabled" in page


def test_a_success_clears_the_failure_clock(endpoint: WebhookEndpoint) -> None:
    WebhookEndpoint.objects.filter(pk=endpoint.pk).update(failing_since=timezone.now())
    endpoint_test_event_send(endpoint=endpoint)
    _attempt(WebhookDelivery.objects.get())
    endpoint.refresh_from_db()
    assert endpoint.failing_since is None


def test_the_secret_is_stored_encrypted_only(user: Any) -> None:
    endpoint, secret = endpoint_for(user)
    assert secret.startswith("whsec_") and len(secret) == 38
    stored = WebhookEndpoint.objects.filter(pk=endpoint.pk).values().get()
    assert not any(secret in str(value) for value in stored.values())
    assert secret_decrypt(stored["secret_encrypted"]) == secret
    assert stored["secret_hint"] == secret[:10]


def test_the_secret_survives_a_rotated_secret_key_kept_as_fallback(
    user: Any, settings: Any
) -> None:
    endpoint, secret = endpoint_for(user)
    settings.SECRET_KEY_FALLBACKS = [settings.SECRET_KEY]
    settings.SECRET_KEY = "a-new-secret-key-" + "x" * 40
    assert secret_decrypt(endpoint.secret_encrypted) == secret


def test_a_delivery_whose_worker_died_mid_attempt_is_taken_up_and_delivered(
    endpoint: WebhookEndpoint, receiver: Receiver
) -> None:
    from jobs.registry import jobs_resume
    from webhooks.tasks import ATTEMPT_LEASE

    endpoint_test_event_send(endpoint=endpoint)
    DBTaskResult.objects.all().delete()  # the worker took the first job ...
    delivery = WebhookDelivery.objects.get()
    claimed_at = timezone.now() - ATTEMPT_LEASE * 3
    # ... claimed attempt 1 and was killed before recording it
    WebhookDelivery.objects.filter(pk=delivery.pk).update(
        attempts=1, lease_expires_at=claimed_at + ATTEMPT_LEASE
    )
    assert jobs_resume(now=claimed_at + ATTEMPT_LEASE)["webhook deliveries"] == 0  # still held

    assert jobs_resume()["webhook deliveries"] == 1
    assert jobs_resume()["webhook deliveries"] == 0  # taken up once

    lost = WebhookAttempt.objects.get()
    assert (lost.number, lost.error) == (1, "the worker stopped during the attempt")
    ((attempt, _run_after),) = _queued_attempts()
    assert attempt == 2
    _attempt(delivery)
    assert delivery.status == DeliveryStatus.DELIVERED and len(receiver.received) == 1


def test_resume_jobs_takes_up_stale_work_and_keeps_one_periodic_run_queued(
    endpoint: WebhookEndpoint,
) -> None:
    from io import StringIO

    from django.core.management import call_command

    from webhooks.tasks import ATTEMPT_LEASE

    endpoint_test_event_send(endpoint=endpoint)
    DBTaskResult.objects.all().delete()
    WebhookDelivery.objects.update(attempts=1, lease_expires_at=timezone.now() - ATTEMPT_LEASE)

    out = StringIO()
    call_command("resume_jobs", stdout=out)
    call_command("resume_jobs", stdout=StringIO())  # a second worker starting

    assert "Taken up: plan imports 0, plan reports 0, webhook deliveries 1." in out.getvalue()
    periodic = DBTaskResult.objects.filter(task_path="jobs.tasks.jobs_tick")
    assert periodic.count() == 1
    deliveries = DBTaskResult.objects.filter(task_path="webhooks.tasks.webhook_deliver")
    assert [job.args_kwargs["kwargs"]["attempt"] for job in deliveries] == [2]

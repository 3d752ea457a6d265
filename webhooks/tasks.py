"""The delivery job (run by `manage.py deliver_webhooks`, webhooks/dispatcher.py, from its own
queue): one attempt of one delivery per run.

A delivery's attempt n is the job `webhook_deliver(delivery_id, attempt=n)`. The job claims the
delivery's lease (jobs.leases) where `attempts = n - 1`, setting it to `n`, so a job that runs
twice, or a retry and a Redeliver queued for the same attempt, POST once between them; an
attempt whose worker died holds the lease until it runs out, and is then recorded as failed
and retried (`webhook_delivery_resume`, registered with jobs.registry). Before posting it checks
again that the endpoint is active, that its owner may still see the plan, and that the URL's host
still resolves to allowed addresses. A failed attempt queues the next one after
RETRY_DELAYS[n - 1] (1 minute growing to 12 hours, MAX_ATTEMPTS in all, about 18 hours); an
endpoint whose attempts have failed for DISABLE_AFTER without a success in between is disabled
and its owner emailed.
"""

from __future__ import annotations

import logging
import random
import time
from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from django.core.mail import send_mail
from django.db import transaction
from django.db.models import QuerySet
from django.urls import reverse
from django.utils import timezone
from django_tasks import task

from core.mail import site_link
from jobs.leases import Lease, LeaseLost, lease_claim
from organisations.selectors import organisation_managers
from webhooks.delivery import PostOutcome, post
from webhooks.models import (
    EVENT_TYPE_TEST,
    DeliveryStatus,
    DisabledReason,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from webhooks.selectors import endpoint_covers_plan
from webhooks.signing import delivery_headers, secret_decrypt
from webhooks.targets import TargetRefused, target_check

logger = logging.getLogger("maintplan.webhooks")

MAX_ATTEMPTS = 8
# Seconds before attempt 2, 3, ... 8: 60 s x 720^(k/6), from 1 minute to 12 hours.
RETRY_DELAYS = tuple(round(60 * 720 ** (k / 6)) for k in range(MAX_ATTEMPTS - 1))
RETRY_JITTER = 0.1  # +-10 %, so endpoints failing together do not retry in lockstep
DISABLE_AFTER = timedelta(days=3)
# The lease of an attempt in progress: far longer than one POST (it times out after 10 s).
ATTEMPT_LEASE = timedelta(minutes=5)


@task(queue_name="webhooks")  # run by `manage.py deliver_webhooks` (webhooks/dispatcher.py)
def webhook_deliver(*, delivery_id: int, attempt: int) -> None:
    """Attempt `attempt` of the delivery; see the module docstring."""
    lease = lease_claim(
        WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING, attempts=attempt - 1),
        pk=delivery_id,
        duration=ATTEMPT_LEASE,
        attempts=attempt,
    )
    if lease is None:  # already made or in progress, or the delivery is no longer pending
        return
    try:
        _attempt_make(delivery_id, attempt, lease)
    except LeaseLost:
        logger.warning("webhook delivery %s, attempt %s: taken for lost", delivery_id, attempt)


def _attempt_make(delivery_id: int, attempt: int, lease: Lease) -> None:
    delivery = WebhookDelivery.objects.select_related("endpoint", "event").get(pk=delivery_id)
    endpoint, event = delivery.endpoint, delivery.event
    # A test event goes out even to a disabled endpoint: it is how its owner checks a fix.
    if not endpoint.is_active and event.event_type != EVENT_TYPE_TEST:
        _record_not_sent(delivery, lease, attempt, "endpoint disabled")
        return
    if event.plan_id is not None and not endpoint_covers_plan(
        endpoint=endpoint, plan_id=event.plan_id
    ):
        _record_not_sent(delivery, lease, attempt, "the endpoint no longer covers this plan")
        return
    try:
        target = target_check(endpoint.url)
    except TargetRefused as refused:
        outcome = PostOutcome(status_code=None, duration_ms=0, error=str(refused)[:200])
    else:
        body = event.body.encode()
        outcome = post(
            target,
            body=body,
            headers=delivery_headers(
                secrets=_signing_secrets(endpoint),
                event_id=event.pk,
                timestamp=int(time.time()),
                body=body,
            ),
        )
    _record(delivery, attempt, outcome, lease)


def _signing_secrets(endpoint: WebhookEndpoint) -> list[str]:
    """The secret before the last roll while it still signs, then the current one (last: a
    receiver that reads only the last `v1=` of Maintplan-Signature, as the guide's check once
    did, verifies with the current secret as it did before the overlap existed)."""
    secrets = []
    until = endpoint.previous_secret_until
    if endpoint.previous_secret_encrypted and until is not None and timezone.now() < until:
        secrets.append(secret_decrypt(endpoint.previous_secret_encrypted))
    secrets.append(secret_decrypt(endpoint.secret_encrypted))
    return secrets


def delivery_attempt_enqueue(
    *, delivery: WebhookDelivery, run_after: datetime | None = None
) -> None:
    """Queues the delivery's next attempt (in the current transaction, with the caller's
    writes: the job table is in the same database)."""
    job = webhook_deliver if run_after is None else webhook_deliver.using(run_after=run_after)
    job.enqueue(delivery_id=delivery.pk, attempt=delivery.attempts + 1)


def webhook_deliveries_leased() -> QuerySet[WebhookDelivery]:
    """The rows of this kind of job (jobs.registry): the pending deliveries."""
    return WebhookDelivery.objects.filter(status=DeliveryStatus.PENDING).select_related("endpoint")


def webhook_delivery_resume(delivery: WebhookDelivery) -> None:
    """Records the attempt whose worker died (its lease ran out; jobs.leases took it over) as
    failed, which queues the next one: the event still arrives."""
    lost = PostOutcome(
        status_code=None, duration_ms=0, error="the worker stopped during the attempt"
    )
    _record(delivery, delivery.attempts, lost, None)


def _record_not_sent(delivery: WebhookDelivery, lease: Lease, attempt: int, reason: str) -> None:
    with transaction.atomic():
        WebhookAttempt.objects.create(
            delivery=delivery, endpoint_id=delivery.endpoint_id, number=attempt, error=reason
        )
        _delivery_update(delivery, lease, status=DeliveryStatus.SKIPPED)


def retry_delay(attempt: int) -> timedelta:
    """How long after failed attempt `attempt` (1-based) the next one runs."""
    base = RETRY_DELAYS[attempt - 1]
    return timedelta(seconds=base * random.uniform(1 - RETRY_JITTER, 1 + RETRY_JITTER))  # noqa: S311


def _delivery_update(delivery: WebhookDelivery, lease: Lease | None, **changes: Any) -> None:
    """Writes the attempt's outcome on the delivery, freeing the lease the attempt holds (an
    attempt taken up by `webhook_delivery_resume` holds none: the take-over freed it)."""
    if lease is None:
        WebhookDelivery.objects.filter(pk=delivery.pk).update(**changes)
    elif not lease.release(**changes):
        raise LeaseLost  # taken for dead and recorded meanwhile: this record rolls back


def _record(
    delivery: WebhookDelivery, attempt: int, outcome: PostOutcome, lease: Lease | None
) -> None:
    now = timezone.now()
    endpoints = WebhookEndpoint.objects.filter(pk=delivery.endpoint_id)
    with transaction.atomic():
        WebhookAttempt.objects.create(
            delivery=delivery,
            endpoint_id=delivery.endpoint_id,
            number=attempt,
            attempted_at=now,
            status_code=outcome.status_code,
            duration_ms=outcome.duration_ms,
            error=outcome.error,
        )
        if outcome.delivered:
            _delivery_update(delivery, lease, status=DeliveryStatus.DELIVERED)
            if delivery.endpoint.failing_since is not None:  # as loaded: spares a write
                endpoints.filter(failing_since__isnull=False).update(failing_since=None)
            return
        logger.info(
            "webhook delivery %s, attempt %s failed: %s",
            delivery.pk,
            attempt,
            outcome.error,
            extra={"event_id": delivery.event_id, "endpoint_id": str(delivery.endpoint_id)},
        )
        endpoints.filter(failing_since__isnull=True).update(failing_since=now)
        disabled = endpoints.filter(
            disabled_at__isnull=True, failing_since__lte=now - DISABLE_AFTER
        ).update(disabled_at=now, disabled_reason=DisabledReason.FAILING)
        if disabled:
            endpoint_id = delivery.endpoint_id
            transaction.on_commit(lambda: _disabled_email(endpoint_id=endpoint_id))
        if attempt < MAX_ATTEMPTS and not disabled:
            run_after = now + retry_delay(attempt)
            _delivery_update(delivery, lease, next_attempt_at=run_after)
            delivery.attempts = attempt
            delivery_attempt_enqueue(delivery=delivery, run_after=run_after)
        else:
            _delivery_update(delivery, lease, status=DeliveryStatus.FAILED)


def _disabled_email(*, endpoint_id: UUID) -> None:
    endpoint = WebhookEndpoint.objects.select_related("owner", "organisation").get(pk=endpoint_id)
    if endpoint.organisation is not None:
        recipients = [
            m.user.email for m in organisation_managers(organisation=endpoint.organisation)
        ]
    else:
        assert endpoint.owner is not None
        recipients = [endpoint.owner.email]
    page = site_link(reverse("webhooks:endpoint_detail", args=[endpoint.pk]))
    try:
        send_mail(
            subject="Maintplan: a webhook endpoint was disabled",
            message=(
                f"Deliveries to your webhook endpoint {endpoint.url} have failed for "
                f"{DISABLE_AFTER.days} days, so Maintplan has disabled it and sends it no more "
                f"events.\n\nOnce the receiver works again, enable it under Profile > "
                f"Integrations > Webhooks ({page}); Send test event checks it first.\n"
            ),
            from_email=None,
            recipient_list=recipients,
        )
    except OSError:
        logger.exception("could not email the owner of disabled webhook endpoint %s", endpoint.pk)

"""Runs: how `manage.py deliver_webhooks` (webhooks/dispatcher.py) sends one endpoint's due
deliveries in a row, instead of one job per claim round (docs/subsystems/webhooks.md "Runs:
one endpoint's deliveries in a row").

A claim takes up to RUN_SIZE due delivery jobs of one endpoint, in queue order, and in the same
transaction the lease of each one's delivery (`attempts` n - 1 to n, as `webhook_deliver`'s
claim), so a worker that dies leaves leases that run out and are taken up as lost attempts
(`webhooks.tasks.webhook_delivery_resume`): every event still arrives. The run then posts them
one after another over one kept-alive connection (`webhooks.delivery.Sender`), checking the
endpoint, its plans and its URL's addresses once per run, and records the delivered ones in one
transaction at the end. A failed attempt is recorded at once as `webhook_deliver` records it
(its retry queued) and ends the run; the jobs not yet attempted, and those left when RUN_SECONDS
have passed or the dispatcher stops, go back to the queue with their leases freed.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from django.db import transaction
from django.db.models import BigIntegerField, F, Q
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.db.utils import OperationalError
from django.utils import timezone
from django_tasks_db.compat import TaskResultStatus
from django_tasks_db.models import DBTaskResult, DBTaskResultQuerySet
from django_tasks_db.utils import exclusive_transaction, is_locked_database_exception

from jobs.leases import Lease, LeaseLost
from webhooks.delivery import PostOutcome, Sender
from webhooks.models import (
    EVENT_TYPE_TEST,
    DeliveryStatus,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
)
from webhooks.selectors import endpoint_covers_plan
from webhooks.signing import delivery_headers
from webhooks.targets import Target, TargetRefused, target_check
from webhooks.tasks import ATTEMPT_LEASE, _record, _record_not_sent, _signing_secrets

logger = logging.getLogger("maintplan.webhooks")

QUEUE_NAME = "webhooks"
BACKEND_NAME = "default"
# django-tasks-db's order of due jobs (DBTaskResult.Meta.ordering); then the deliveries' order.
QUEUE_ORDER = (F("priority").desc(), F("run_after").asc(), F("enqueued_at").asc())
RUN_SIZE = 200  # jobs of one endpoint claimed at once
# No attempt starts later than this into a run: with each attempt ending within 10 s the run
# ends well inside its leases (ATTEMPT_LEASE, 5 minutes).
RUN_SECONDS = 30.0


@dataclass
class RunItem:
    job_id: UUID
    delivery_id: int  # 0: a job without one (posts nothing)
    attempt: int
    leased: bool = False  # this run holds the delivery at this attempt


@dataclass
class Run:
    endpoint_id: UUID | None
    items: list[RunItem]
    expires_at: datetime  # the leases taken with the claim


def _due_jobs(busy: set[UUID]) -> DBTaskResultQuerySet:
    """The due delivery jobs whose endpoint has no attempt in flight (in `busy`, or holding a
    delivery lease anywhere), in queue order."""
    leased = WebhookDelivery.objects.filter(
        lease_expires_at__gt=timezone.now(), status=DeliveryStatus.PENDING
    ).values("endpoint_id")
    blocked = WebhookDelivery.objects.filter(
        Q(endpoint_id__in=leased) | Q(endpoint_id__in=busy), status=DeliveryStatus.PENDING
    ).values("pk")
    return (
        DBTaskResult.objects.ready()
        .filter(backend_name=BACKEND_NAME, queue_name=QUEUE_NAME)
        .annotate(
            delivery_pk=Cast(KT("args_kwargs__kwargs__delivery_id"), output_field=BigIntegerField())
        )
        .exclude(delivery_pk__in=blocked)
    )


def delivery_run_claim(*, worker_id: str, busy: set[UUID]) -> Run | None:
    """Claims a run: the first due job whose endpoint is free and up to RUN_SIZE - 1 more due
    jobs of that endpoint, with their deliveries' leases; None when nothing is due (or SQLite
    is busy with another writer: the next round tries again)."""
    jobs = _due_jobs(busy)
    try:
        # The first due job is read without a lock, before the claim's transaction (so idle
        # rounds take no lock: on SQLite a claim locks the database): a claim locks its endpoint
        # before any job of it (`_endpoint_taken`), so two claims at once never each hold some
        # of one endpoint's jobs, which would send them out of order.
        first = jobs.first()
        if first is None:
            return None
        with exclusive_transaction(jobs.db):
            endpoint_id = (
                WebhookDelivery.objects.filter(pk=first.delivery_pk)  # type: ignore[attr-defined]
                .values_list("endpoint_id", flat=True)
                .first()
            )
            # The first job is the run's even when its delivery is no longer pending (a retry
            # queued before a Redeliver that delivered it): it then posts nothing and finishes,
            # instead of staying first in the queue for every later claim.
            mine = Q(pk=first.pk)
            if endpoint_id is not None:
                if _endpoint_taken(endpoint_id):
                    return None
                pending = WebhookDelivery.objects.filter(
                    endpoint_id=endpoint_id, status=DeliveryStatus.PENDING
                ).values("pk")
                mine |= Q(delivery_pk__in=pending)
            rows = list(
                jobs.filter(mine)  # type: ignore[misc]
                .select_for_update(skip_locked=True)
                .order_by(*QUEUE_ORDER, "delivery_pk")
                .values_list("pk", "args_kwargs")[:RUN_SIZE]
            )
            if all(pk != first.pk for pk, _args in rows):
                return None  # another claim took the first job meanwhile: the next round
            now = timezone.now()
            DBTaskResult.objects.filter(pk__in=[pk for pk, _ in rows]).update(
                status=TaskResultStatus.RUNNING, started_at=now, worker_ids=[worker_id]
            )
            run = Run(
                endpoint_id=endpoint_id,
                items=[
                    RunItem(
                        job_id=pk,
                        delivery_id=int(args["kwargs"].get("delivery_id") or 0),
                        attempt=args["kwargs"].get("attempt", 0),
                    )
                    for pk, args in rows
                ],
                expires_at=now + ATTEMPT_LEASE,
            )
            _leases_take(run, now)
    except OperationalError as error:
        if is_locked_database_exception(error):
            return None
        raise
    return run


def _endpoint_taken(endpoint_id: UUID) -> bool:
    """Locks the endpoint's row for the claim and says whether another claim already holds a
    run of it. Two dispatchers claiming at once on PostgreSQL each see the other's leases only
    once committed: the second waits here for the first claim to commit, then sees its leases
    and leaves the endpoint alone (on SQLite the claim's transaction locks the database). No
    claim holds a job of the endpoint before this lock, so the first takes every due job of it
    in order."""
    list(WebhookEndpoint.objects.select_for_update().filter(pk=endpoint_id).values_list("pk"))
    return WebhookDelivery.objects.filter(
        endpoint_id=endpoint_id,
        status=DeliveryStatus.PENDING,
        lease_expires_at__gt=timezone.now(),
    ).exists()


def _leases_take(run: Run, now: datetime) -> None:
    """Leases each item's delivery at its attempt, as `webhook_deliver`'s claim does (pending,
    at attempt n - 1, lease free), one UPDATE per attempt number; an item whose delivery was
    already attempted, is in progress or is no longer pending (or a second job for the same
    attempt) posts nothing."""
    free = Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)
    by_attempt: dict[int, list[int]] = {}
    for item in run.items:
        if item.delivery_id:
            by_attempt.setdefault(item.attempt, []).append(item.delivery_id)
    for attempt, ids in by_attempt.items():
        WebhookDelivery.objects.filter(
            free, pk__in=ids, status=DeliveryStatus.PENDING, attempts=attempt - 1
        ).update(attempts=attempt, lease_expires_at=run.expires_at)
    held = dict(
        WebhookDelivery.objects.filter(
            pk__in=[i.delivery_id for i in run.items], lease_expires_at=run.expires_at
        ).values_list("pk", "attempts")
    )
    for item in run.items:
        if held.get(item.delivery_id) == item.attempt:
            item.leased = True
            del held[item.delivery_id]  # a second job for the same attempt posts nothing


class _Checks:
    """What is checked before posting, once per run: the endpoint active, the plans it still
    covers, the URL's addresses (the connection goes to the checked ones)."""

    def __init__(self, delivery: WebhookDelivery) -> None:
        self.endpoint = delivery.endpoint
        self._covers: dict[object, bool] = {}
        self.target: Target | TargetRefused
        try:
            self.target = target_check(self.endpoint.url)
        except TargetRefused as refused:
            self.target = refused
        self.secrets = _signing_secrets(self.endpoint)

    def not_sent(self, delivery: WebhookDelivery) -> str:
        """Why the delivery is not sent (recorded, not retried), or empty."""
        event = delivery.event
        if not self.endpoint.is_active and event.event_type != EVENT_TYPE_TEST:
            return "endpoint disabled"
        if event.plan_id is not None:
            if event.plan_id not in self._covers:
                self._covers[event.plan_id] = endpoint_covers_plan(
                    endpoint=self.endpoint, plan_id=event.plan_id
                )
            if not self._covers[event.plan_id]:
                return "the endpoint no longer covers this plan"
        return ""


def delivery_run(run: Run, *, stopping: threading.Event) -> None:
    """Posts the run's leased deliveries in order; see the module docstring."""
    leased = [item for item in run.items if item.leased]
    deliveries = WebhookDelivery.objects.select_related("endpoint", "event").in_bulk(
        [item.delivery_id for item in leased]
    )
    done: list[RunItem] = [item for item in run.items if not item.leased]
    delivered: list[tuple[RunItem, PostOutcome, datetime]] = []
    returned: list[RunItem] = []
    ends_at = time.monotonic() + RUN_SECONDS
    checks: _Checks | None = None
    try:
        with Sender() as sender:
            for index, item in enumerate(leased):
                if stopping.is_set() or time.monotonic() > ends_at:
                    returned = leased[index:]
                    break
                delivery = deliveries.get(item.delivery_id)
                if delivery is None:  # its endpoint was deleted meanwhile
                    done.append(item)
                    continue
                checks = checks or _Checks(delivery)
                reason = checks.not_sent(delivery)
                if reason:
                    with _lease_lost_logged(item):
                        _record_not_sent(delivery, _lease(item, run), item.attempt, reason)
                    done.append(item)
                    continue
                attempted_at = timezone.now()
                if isinstance(checks.target, TargetRefused):
                    error = str(checks.target)[:200]
                    outcome = PostOutcome(status_code=None, duration_ms=0, error=error)
                else:
                    body = delivery.event.body.encode()
                    headers = delivery_headers(
                        secrets=checks.secrets,
                        event_id=delivery.event_id,
                        timestamp=int(time.time()),
                        body=body,
                    )
                    outcome = sender.post(checks.target, body=body, headers=headers)
                if outcome.delivered:
                    delivered.append((item, outcome, attempted_at))
                    continue
                # A failure is recorded at once (its retry queued) and ends the run.
                _delivered_record(run, delivered, deliveries)
                done += [i for i, _o, _a in delivered]
                delivered = []
                with _lease_lost_logged(item):
                    _record(delivery, item.attempt, outcome, _lease(item, run))
                done.append(item)
                returned = leased[index + 1 :]
                break
        _delivered_record(run, delivered, deliveries)
        done += [i for i, _o, _a in delivered]
    finally:
        _jobs_finish(run, done=done, returned=returned)


@contextmanager
def _lease_lost_logged(item: RunItem) -> Iterator[None]:
    try:
        yield
    except LeaseLost:
        logger.warning(
            "webhook delivery %s, attempt %s: taken for lost", item.delivery_id, item.attempt
        )


def _lease(item: RunItem, run: Run) -> Lease:
    return Lease(
        rows=WebhookDelivery.objects.filter(pk=item.delivery_id),
        expires_at=run.expires_at,
        duration=ATTEMPT_LEASE,
    )


def _delivered_record(
    run: Run,
    delivered: list[tuple[RunItem, PostOutcome, datetime]],
    deliveries: dict[int, WebhookDelivery],
) -> None:
    """The delivered attempts in one transaction: their log lines, their deliveries delivered
    (those whose lease this run still holds), the endpoint's failure clock cleared."""
    if not delivered:
        return
    ids = [item.delivery_id for item, _o, _a in delivered]
    endpoint = deliveries[ids[0]].endpoint
    with transaction.atomic():
        held = set(
            WebhookDelivery.objects.select_for_update()
            .filter(pk__in=ids, lease_expires_at=run.expires_at)
            .values_list("pk", flat=True)
        )
        WebhookAttempt.objects.bulk_create(
            WebhookAttempt(
                delivery_id=item.delivery_id,
                endpoint_id=endpoint.pk,
                number=item.attempt,
                attempted_at=attempted_at,
                status_code=outcome.status_code,
                duration_ms=outcome.duration_ms,
            )
            for item, outcome, attempted_at in delivered
            if item.delivery_id in held
        )
        WebhookDelivery.objects.filter(pk__in=held, lease_expires_at=run.expires_at).update(
            status=DeliveryStatus.DELIVERED, lease_expires_at=None
        )
        if endpoint.failing_since is not None:
            type(endpoint).objects.filter(pk=endpoint.pk, failing_since__isnull=False).update(
                failing_since=None
            )
            endpoint.failing_since = None


def _jobs_finish(run: Run, *, done: list[RunItem], returned: list[RunItem]) -> None:
    """Marks the attempted jobs finished and puts the others back in the queue, their
    deliveries' leases freed at their previous attempt. Jobs of a run that raised are left
    running; their leases run out and are taken up as lost attempts."""
    now = timezone.now()
    with transaction.atomic():
        if returned:
            WebhookDelivery.objects.filter(
                pk__in=[item.delivery_id for item in returned], lease_expires_at=run.expires_at
            ).update(lease_expires_at=None, attempts=F("attempts") - 1)
            DBTaskResult.objects.filter(pk__in=[item.job_id for item in returned]).update(
                status=TaskResultStatus.READY, started_at=None
            )
        if done:
            DBTaskResult.objects.filter(pk__in=[item.job_id for item in done]).update(
                status=TaskResultStatus.SUCCESSFUL, finished_at=now
            )

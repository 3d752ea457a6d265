"""The outbox: events written in the transaction of the change they describe.

`suggestion_changes_receive` listens to planning's `plan_changed` signal (planning.core.writes,
connected in WebhooksConfig.ready), which every sync, Apply, Dismiss and Restore sends inside
its transaction. `suggestion_changes_record` writes the events (whether or not an endpoint
receives them: the events API lists them too), one delivery per endpoint that covers the plan,
and the worker jobs that send them, all in that transaction: rolled back, nothing is sent or
listed; committed, nothing is lost (the job queue is a table of the same database).

A plan's first sync that opens more than one event's worth of suggestions (an import, a
generated plan: 37,000 for 20,000 nodes) sends one `suggestions.bulk_changed` instead
(`suggestions_bulk_changed_record`): how many changed and what is open now, by severity and
type. Its changes are the whole list and repeat nothing an integrator held, so one event and a
read of the list tell them all of it, where hundreds of events would each carry a hundred
suggestions the list gives anyway (docs/integrators.md section 12).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from typing import Any
from uuid import UUID

from django.conf import settings
from django.db import transaction
from django.db.models import Count, Q
from django.utils import timezone

from accounts.actor import current_actor
from accounts.services import account_lock
from core.chunks import chunked
from core.tokens import random_base62
from organisations.models import Organisation
from planning.models import Plan, Severity, Suggestion, SuggestionStatus, SuggestionType
from planning.suggestions.events import SuggestionChange
from planning.suggestions.selectors import iso_utc, suggestion_payloads_with_status
from webhooks.models import (
    EVENT_TYPE_SUGGESTIONS_BULK_CHANGED,
    EVENT_TYPE_SUGGESTIONS_CHANGED,
    EVENT_TYPE_TEST,
    DeliveryStatus,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)
from webhooks.selectors import endpoints_covering_plan
from webhooks.tasks import delivery_attempt_enqueue

MAX_CHANGES_PER_EVENT = 100
EVENTS_PER_BATCH = 50
EVENT_ID_RANDOM_LENGTH = 24


def event_id_generate() -> str:
    return "evt_" + random_base62(EVENT_ID_RANDOM_LENGTH)


def event_body(*, event_id: str, event_type: str, created_at: str, data: dict[str, Any]) -> str:
    return json.dumps(
        {"id": event_id, "type": event_type, "created_at": created_at, "data": data},
        separators=(",", ":"),
        ensure_ascii=False,
    )


def event_create(*, event_type: str, plan_id: Any, data: dict[str, Any]) -> WebhookEvent:
    """One event of `event_type` (of a plan, or None), created now with a new id and its body."""
    now = timezone.now()
    event_id = event_id_generate()
    return WebhookEvent.objects.create(
        id=event_id,
        event_type=event_type,
        plan_id=plan_id,
        created_at=now,
        body=event_body(
            event_id=event_id, event_type=event_type, created_at=iso_utc(now), data=data
        ),
    )


def deliveries_enqueue(*, event: WebhookEvent, endpoints: Iterable[WebhookEndpoint]) -> None:
    """A delivery of `event` to each endpoint, and its first attempt queued for the worker (in
    the current transaction)."""
    deliveries = WebhookDelivery.objects.bulk_create(
        WebhookDelivery(endpoint=endpoint, event=event, created_at=event.created_at)
        for endpoint in endpoints
    )
    for delivery in deliveries:
        delivery_attempt_enqueue(delivery=delivery)


# Why a `suggestions.bulk_changed` event was sent instead of the changes (an open set: more
# reasons may come).
BULK_REASON_FIRST_SYNC = "first_sync"


def suggestion_changes_receive(
    sender: Any,
    *,
    plan_id: Any,
    suggestion_changes: Sequence[tuple[str, UUID]],
    first_sync: bool = False,
    **_: Any,
) -> None:
    """Receiver of `planning.core.writes.plan_changed`: records the write's suggestion changes,
    those of a plan's first sync summed up when they take more than one event."""
    if first_sync and len(suggestion_changes) > MAX_CHANGES_PER_EVENT:
        suggestions_bulk_changed_record(
            plan_id=plan_id, changes=suggestion_changes, reason=BULK_REASON_FIRST_SYNC
        )
    elif suggestion_changes:
        suggestion_changes_record(plan_id=plan_id, changes=suggestion_changes)


def event_actor() -> dict[str, str]:
    """Who made the changes of an event, as the history names them (accounts.actor): a
    person, a service account (its id and name, the same through its keys' rolls), an import,
    or the system (the sync, a job)."""
    actor = current_actor()
    if actor is None:
        return {"kind": "system", "id": "", "name": ""}
    return {"kind": actor.kind, "id": actor.id, "name": actor.label}


@transaction.atomic
def suggestion_changes_record(*, plan_id: Any, changes: Sequence[tuple[str, UUID]]) -> None:
    """Records `suggestions.changed` events for the changes of one write to a plan.

    Call it inside the transaction of the change, after its writes (`plan_changed` does, see
    `suggestion_changes_receive`): it reads the suggestions as that transaction left them.
    `changes` are `(change, suggestion id)` pairs, `change` one of `SuggestionChange`
    ("opened", "updated", "resolved", "dismissed", "reopened"), each suggestion at most once,
    in the order they happened. Every 100 changes make one event `{"id": "evt_...", "type":
    "suggestions.changed", "created_at", "data": {"plan_id", "plan_number", "changes":
    [{"change", "suggestion": {spec 2.3 fields, "status"}}]}}`, written for the events API
    (platform_api.endpoints.events) and queued for every active endpoint that covers the plan now
    (the owner is a member, and the endpoint takes every plan or names this one), if any.
    """
    if not changes:
        return
    endpoints = list(endpoints_covering_plan(plan_id=plan_id))
    unknown = {change for change, _id in changes} - set(SuggestionChange.values)
    if unknown:
        raise ValueError(f"unknown suggestion change(s): {sorted(unknown)}")
    plan_number = Plan.objects.filter(pk=plan_id).values_list("number", flat=True).get()
    actor = event_actor()
    now = timezone.now()
    # A batch of events at a time: one read of their suggestions and one INSERT (a sync that
    # resolves 3,000 suggestions writes its 30 events with two queries), while a first sync
    # of 37,000 suggestions never holds them all at once (docs/subsystems/import-bounds.md "Import
    # bounds").
    for batch in chunked(changes, MAX_CHANGES_PER_EVENT * EVENTS_PER_BATCH):
        payloads = suggestion_payloads_with_status(
            plan_id=plan_id, suggestion_ids=[suggestion_id for _change, suggestion_id in batch]
        )
        events = []
        for chunk in chunked(batch, MAX_CHANGES_PER_EVENT):
            event_changes = [
                {"change": change, "suggestion": payloads[str(suggestion_id)]}
                for change, suggestion_id in chunk
                if str(suggestion_id) in payloads  # deleted in this transaction: nothing to say
            ]
            if not event_changes:
                continue
            event_id = event_id_generate()
            events.append(
                WebhookEvent(
                    id=event_id,
                    event_type=EVENT_TYPE_SUGGESTIONS_CHANGED,
                    plan_id=plan_id,
                    created_at=now,
                    body=event_body(
                        event_id=event_id,
                        event_type=EVENT_TYPE_SUGGESTIONS_CHANGED,
                        created_at=iso_utc(now),
                        data={
                            "plan_id": str(plan_id),
                            "plan_number": plan_number,
                            "actor": actor,
                            "changes": event_changes,
                        },
                    ),
                )
            )
        for event in WebhookEvent.objects.bulk_create(events):
            deliveries_enqueue(event=event, endpoints=endpoints)


@transaction.atomic
def suggestions_bulk_changed_record(
    *, plan_id: Any, changes: Sequence[tuple[str, UUID]], reason: str
) -> None:
    """Records one `suggestions.bulk_changed` event for the changes of one write to a plan,
    instead of their `suggestions.changed` events: `{"id", "type": "suggestions.bulk_changed",
    "created_at", "data": {"plan_id", "plan_number", "actor", "reason", "counts": {change: n},
    "open_count", "open_by_severity": {severity: n}, "open_by_type": {type: n}}}`, every known
    change, severity and type named (0 when none). The open figures are read in the transaction
    of the change: what the list shows once it commits. Queued as `suggestion_changes_record`
    queues its events."""
    counts = dict.fromkeys(SuggestionChange.values, 0)
    for change, _id in changes:
        if change not in counts:
            raise ValueError(f"unknown suggestion change: {change!r}")
        counts[change] += 1
    by_severity = dict.fromkeys(Severity.values, 0)
    by_type = dict.fromkeys(SuggestionType.values, 0)
    open_rows = (
        Suggestion.objects.filter(plan_id=plan_id, status=SuggestionStatus.OPEN)
        .order_by()
        .values_list("severity", "suggestion_type")
        .annotate(count=Count("id"))
    )
    for severity, suggestion_type, count in open_rows:
        by_severity[severity] = by_severity.get(severity, 0) + count
        by_type[suggestion_type] = by_type.get(suggestion_type, 0) + count
    plan_number = Plan.objects.filter(pk=plan_id).values_list("number", flat=True).get()
    event = event_create(
        event_type=EVENT_TYPE_SUGGESTIONS_BULK_CHANGED,
        plan_id=plan_id,
        data={
            "plan_id": str(plan_id),
            "plan_number": plan_number,
            "actor": event_actor(),
            "reason": reason,
            "counts": counts,
            "open_count": sum(by_severity.values()),
            "open_by_severity": by_severity,
            "open_by_type": by_type,
        },
    )
    deliveries_enqueue(event=event, endpoints=endpoints_covering_plan(plan_id=plan_id))


class PendingTestEventsFull(Exception):
    """The account has as many test events on their way as it may; none was queued."""

    def __init__(self, *, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"No test event was sent: {limit} of yours are still waiting to be delivered, the "
            "most one account may have at once. Their attempts are in the delivery log; "
            "Redeliver tries one again now."
        )


@transaction.atomic
def endpoint_test_event_send(*, endpoint: WebhookEndpoint) -> WebhookEvent:
    """A `webhook.test` event for one endpoint (the Send-test-event button), queued at once.

    Raises PendingTestEventsFull, queueing nothing, when the endpoint's owner already has
    WEBHOOK_TEST_EVENTS_PENDING_MAX test deliveries pending (on any of their endpoints,
    retries included; docs/subsystems/limits.md "Shares of the job queue"). They are counted under
    the owner's row lock, so two presses at once cannot both take the last place.
    """
    if endpoint.organisation_id is not None:  # an organisation's endpoints share one ceiling
        Organisation.objects.select_for_update().filter(pk=endpoint.organisation_id).first()
        holder = Q(endpoint__organisation_id=endpoint.organisation_id)
    else:
        assert endpoint.owner is not None
        account_lock(user=endpoint.owner)
        holder = Q(endpoint__owner_id=endpoint.owner_id)
    limit: int = settings.WEBHOOK_TEST_EVENTS_PENDING_MAX
    pending = WebhookDelivery.objects.filter(
        holder,
        event__event_type=EVENT_TYPE_TEST,
        status=DeliveryStatus.PENDING,
    )
    if pending.count() >= limit:
        raise PendingTestEventsFull(limit=limit)
    event = event_create(
        event_type=EVENT_TYPE_TEST,
        plan_id=None,
        data={
            "endpoint_id": str(endpoint.pk),
            "message": "A test event from Maintplan: this endpoint is reachable.",
        },
    )
    deliveries_enqueue(event=event, endpoints=[endpoint])
    return event

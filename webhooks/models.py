"""Webhook endpoints, the outbox of events, and their deliveries with one row per attempt.

An event is written once per plan and change (in the transaction of the change); a delivery
ties an event to one endpoint and carries its retry state; an attempt is one POST, the row the
delivery log shows.
"""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from jobs.models import Leased
from planning.models import Plan


class DisabledReason(models.TextChoices):
    OWNER = "owner", "Disabled by you"
    FAILING = "failing", "Disabled after 3 days of failed deliveries"


class WebhookEndpointQuerySet(models.QuerySet["WebhookEndpoint"]):
    def active(self) -> WebhookEndpointQuerySet:
        return self.filter(disabled_at__isnull=True)


class WebhookEndpoint(models.Model):
    """A receiver of a person's events (`owner`) or of an organisation's (`organisation`, managed
    by its owners and admins; exactly one of the two). The signing secret is kept encrypted
    (webhooks.signing): it must be readable to sign, unlike an API key, which is only
    compared."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="webhook_endpoints",
    )
    organisation = models.ForeignKey(
        "organisations.Organisation",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="webhook_endpoints",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    url = models.URLField("URL", max_length=2000)
    description = models.CharField(max_length=200, blank=True)
    # True: every plan the holder can see at delivery time (an organisation: its plans); False:
    # only `plans` (and of those only the ones the holder can still see).
    all_plans = models.BooleanField(default=True)
    plans = models.ManyToManyField(Plan, blank=True, related_name="+")
    secret_encrypted = models.TextField(editable=False)
    secret_hint = models.CharField(max_length=16, editable=False)
    # The secret before the last roll, which still signs (beside the current one) until
    # `previous_secret_until`: a receiver switches secrets without a gap (webhooks.signing).
    previous_secret_encrypted = models.TextField(blank=True, default="", editable=False)
    previous_secret_until = models.DateTimeField(null=True, blank=True, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    disabled_at = models.DateTimeField(null=True, blank=True)
    disabled_reason = models.CharField(max_length=10, choices=DisabledReason.choices, blank=True)
    # The first failed attempt since the last successful one; 3 days later the endpoint is
    # disabled.
    failing_since = models.DateTimeField(null=True, blank=True)

    objects: ClassVar[WebhookEndpointQuerySet] = WebhookEndpointQuerySet.as_manager()  # type: ignore[assignment]

    class Meta:
        ordering = ("created_at", "id")
        indexes: ClassVar = [
            models.Index(fields=["owner", "created_at"]),
            models.Index(fields=["organisation", "created_at"]),
        ]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False, organisation__isnull=True)
                | Q(owner__isnull=True, organisation__isnull=False),
                name="webhooks_endpoint_one_holder",
            ),
            models.CheckConstraint(
                condition=Q(disabled_reason__in=["", *DisabledReason.values]),
                name="webhooks_endpoint_disabled_reason_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.url

    @property
    def is_active(self) -> bool:
        return self.disabled_at is None


# The event types: `suggestions.changed` and `suggestions.bulk_changed` (the outbox,
# webhooks.events: a plan's changes one by one, or summed up when they are the whole list), and
# `webhook.test` (a test event an owner sends from the endpoint page, delivered even to a
# disabled endpoint).
EVENT_TYPE_SUGGESTIONS_CHANGED = "suggestions.changed"
EVENT_TYPE_SUGGESTIONS_BULK_CHANGED = "suggestions.bulk_changed"
EVENT_TYPE_TEST = "webhook.test"
# Plan data events (webhooks.plan_events), derived from the plan's history entries.
PLAN_DATA_EVENT_TYPES = (
    "actions.created",
    "actions.updated",
    "actions.deleted",
    "actions.completed",
    "nodes.created",
    "nodes.updated",
    "nodes.deleted",
    "projects.created",
    "projects.updated",
    "projects.deleted",
    "versions.adopted",
)


class WebhookEvent(models.Model):
    """One event as sent: `body` is the exact JSON that is signed and posted, and listed by the
    events API. Written for every change of a plan's suggestions, whether or not an endpoint
    receives it; kept 30 days (webhooks.services.events_expire)."""

    id = models.CharField(primary_key=True, max_length=40, editable=False)  # evt_...
    event_type = models.CharField(max_length=40)
    # Null for a test event, which belongs to no plan.
    plan = models.ForeignKey(Plan, null=True, on_delete=models.CASCADE, related_name="+")
    body = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)
    # The position in the events API, given in the order events became visible (committed),
    # not written: null until `events_sequence` numbers it (docs/subsystems/integrator-api.md
    # "Events API").
    sequence = models.PositiveBigIntegerField(null=True, blank=True, unique=True, editable=False)

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["plan", "sequence"]),
            models.Index(
                fields=["created_at"],
                condition=Q(sequence__isnull=True),
                name="webhooks_event_unnumbered",
            ),
            models.Index(fields=["created_at"], name="webhooks_event_created"),
        ]

    def __str__(self) -> str:
        return self.id


class DeliveryStatus(models.TextChoices):
    PENDING = "pending", "Pending"
    DELIVERED = "delivered", "Delivered"
    FAILED = "failed", "Failed (gave up)"
    SKIPPED = "skipped", "Not sent"


class WebhookDelivery(Leased):
    """An event on its way to one endpoint. `next_attempt_at` is when the next attempt is due;
    the attempt in progress holds the row's lease (webhooks.tasks, jobs.leases)."""

    endpoint = models.ForeignKey(
        WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries"
    )
    event = models.ForeignKey(WebhookEvent, on_delete=models.CASCADE, related_name="deliveries")
    status = models.CharField(
        max_length=10, choices=DeliveryStatus.choices, default=DeliveryStatus.PENDING
    )
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta(Leased.Meta):
        verbose_name_plural = "webhook deliveries"
        indexes: ClassVar = [*Leased.Meta.indexes, models.Index(fields=["endpoint", "status"])]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(status__in=DeliveryStatus.values),
                name="webhooks_delivery_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.event_id} to {self.endpoint_id}"


class WebhookAttempt(models.Model):
    """One POST of a delivery (or the reason it was not sent): a line of the delivery log."""

    delivery = models.ForeignKey(
        WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log"
    )
    # Denormalised so the log of an endpoint is one index range, newest first.
    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="+")
    number = models.PositiveSmallIntegerField()
    attempted_at = models.DateTimeField(default=timezone.now)
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    # Why it failed or was not sent, in a few words ("timeout", "no access to plan 4").
    error = models.CharField(max_length=200, blank=True)

    class Meta:
        ordering = ("-attempted_at", "-id")
        indexes: ClassVar = [models.Index(fields=["endpoint", "-attempted_at", "-id"])]

    def __str__(self) -> str:
        return f"attempt {self.number} of {self.delivery_id}"

    @property
    def succeeded(self) -> bool:
        return self.status_code is not None and 200 <= self.status_code < 300


class PlanEventMark(models.Model):
    """How far a plan's history entries have been turned into plan data events
    (webhooks.plan_events): the id of the last entry read. Advanced under the plan's lock."""

    plan = models.OneToOneField(Plan, primary_key=True, on_delete=models.CASCADE, related_name="+")
    history_id = models.BigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.plan_id}: {self.history_id}"

"""Writes of the webhooks app: endpoints, their secrets, Redeliver, and the events' numbering
for the events API and their retention."""

from __future__ import annotations

from collections.abc import Collection
from datetime import datetime, timedelta

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone

from accounts.models import User
from organisations.models import Organisation
from planning.models import Plan
from webhooks.models import (
    DeliveryStatus,
    DisabledReason,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)
from webhooks.selectors import plans_visible
from webhooks.signing import SECRET_OVERLAP, secret_encrypt, secret_generate, secret_hint
from webhooks.targets import TargetRefused, target_check
from webhooks.tasks import delivery_attempt_enqueue

URL_MAX_LENGTH: int = WebhookEndpoint._meta.get_field("url").max_length  # type: ignore[assignment]


def endpoint_url_check(url: str) -> str:
    """The URL, stripped, if the SSRF guard and the field's rules accept it."""
    url = url.strip()
    if not url:
        raise ValidationError({"url": "Enter the URL of your receiver."})
    if len(url) > URL_MAX_LENGTH:
        raise ValidationError({"url": f"At most {URL_MAX_LENGTH} characters."})
    try:
        target_check(url)
    except TargetRefused as refused:
        raise ValidationError({"url": str(refused)}) from None
    return url


def endpoint_plans_check(
    *, plans: Collection[Plan] | None, user: User | None, organisation: Organisation | None
) -> None:
    """Refuses an empty choice and a plan the holder cannot see (an organisation: a plan that
    is not its own)."""
    if plans is None:
        return
    if not plans:
        raise ValidationError({"plans": "Choose at least one plan, or every plan."})
    allowed = (
        Plan.objects.filter(organisation=organisation)
        if organisation is not None
        else plans_visible(user=user)
    )
    visible = set(allowed.filter(pk__in=[p.pk for p in plans]))
    if len(visible) != len(set(plans)):
        if organisation is not None:
            raise ValidationError({"plans": "You can only choose the organisation's own plans."})
        raise ValidationError({"plans": "You can only choose plans you are a member of."})


@transaction.atomic
def endpoint_create(
    *,
    user: User | None,
    url: str,
    description: str = "",
    plans: Collection[Plan] | None = None,
    organisation: Organisation | None = None,
) -> tuple[WebhookEndpoint, str]:
    """Creates an endpoint and returns it with its signing secret, which the caller shows once:
    `user`'s own, or with `organisation` one of the organisation's, made by `user` (the caller
    checks that they manage it).

    `plans` None: every plan the holder can see (then and later); else those plans, each of
    which the holder must be able to see now.
    """
    url = endpoint_url_check(url)
    endpoint_plans_check(plans=plans, user=user, organisation=organisation)
    secret = secret_generate()
    endpoint = WebhookEndpoint(
        owner=None if organisation is not None else user,
        organisation=organisation,
        created_by=user,
        url=url,
        description=description.strip(),
        all_plans=plans is None,
        secret_encrypted=secret_encrypt(secret),
        secret_hint=secret_hint(secret),
    )
    endpoint.full_clean(validate_unique=False, validate_constraints=False)
    endpoint.save(force_insert=True)
    if plans is not None:
        endpoint.plans.set(plans)
    return endpoint, secret


@transaction.atomic
def endpoint_update(
    *,
    endpoint: WebhookEndpoint,
    url: str | None = None,
    description: str | None = None,
    change_plans: bool = False,
    plans: Collection[Plan] | None = None,
) -> WebhookEndpoint:
    """Changes what is given (`url` or `description` None: unchanged; with `change_plans`,
    `plans` as endpoint_create takes them, None: every plan), with endpoint_create's rules: the
    SSRF guard on a new URL, only plans the holder may choose."""
    fields = []
    if url is not None:
        endpoint.url = endpoint_url_check(url)
        fields.append("url")
    if description is not None:
        endpoint.description = description.strip()
        fields.append("description")
    if change_plans:
        endpoint_plans_check(plans=plans, user=endpoint.owner, organisation=endpoint.organisation)
        endpoint.all_plans = plans is None
        fields.append("all_plans")
    endpoint.full_clean(validate_unique=False, validate_constraints=False)
    if fields:
        endpoint.save(update_fields=fields)
    if change_plans:
        endpoint.plans.set(plans or [])
    return endpoint


def endpoint_secret_roll(*, endpoint: WebhookEndpoint) -> str:
    """A new signing secret, used from the next attempt on; the old one keeps signing beside
    it for SECRET_OVERLAP (24 hours), so the receiver can switch without refusing a delivery.
    The web page's roll and the API's rotate-secret both run this."""
    secret = secret_generate()
    endpoint.previous_secret_encrypted = endpoint.secret_encrypted
    endpoint.previous_secret_until = timezone.now() + SECRET_OVERLAP
    endpoint.secret_encrypted = secret_encrypt(secret)
    endpoint.secret_hint = secret_hint(secret)
    endpoint.save(
        update_fields=[
            "secret_encrypted",
            "secret_hint",
            "previous_secret_encrypted",
            "previous_secret_until",
        ]
    )
    return secret


def endpoint_disable(*, endpoint: WebhookEndpoint) -> None:
    """No more events until enabled again; pending retries are dropped when they come due."""
    if endpoint.disabled_at is None:
        endpoint.disabled_at = timezone.now()
        endpoint.disabled_reason = DisabledReason.OWNER
        endpoint.save(update_fields=["disabled_at", "disabled_reason"])


def endpoint_enable(*, endpoint: WebhookEndpoint) -> None:
    """Back on; the failure clock starts again. The URL must still pass the SSRF guard."""
    endpoint_url_check(endpoint.url)
    endpoint.disabled_at = None
    endpoint.disabled_reason = ""
    endpoint.failing_since = None
    endpoint.save(update_fields=["disabled_at", "disabled_reason", "failing_since"])


def endpoint_delete(*, endpoint: WebhookEndpoint) -> None:
    """Deletes the endpoint with its deliveries and log; queued jobs then find nothing to do."""
    endpoint.delete()


@transaction.atomic
def delivery_redeliver(*, delivery: WebhookDelivery) -> None:
    """Sends the delivery's event again now, with the same event id, as its next attempt."""
    delivery = WebhookDelivery.objects.select_for_update().get(pk=delivery.pk)
    delivery.status = DeliveryStatus.PENDING
    delivery.next_attempt_at = None
    delivery.save(update_fields=["status", "next_attempt_at"])
    delivery_attempt_enqueue(delivery=delivery)


# Events (and with them their deliveries and delivery log) are kept this long: the events API
# lists the last 30 days.
EVENTS_KEEP = timedelta(days=30)
_BATCH = 1000


def events_sequence() -> int:
    """Numbers the committed events that have no `sequence` yet, after every number given so
    far, in the order they were written; returns how many it numbered.

    Numbers follow the order in which events became visible, not the order they were written:
    an event whose transaction commits late still comes after every event a reader has already
    seen, so replaying after the last id seen never skips it (docs/subsystems/integrator-api.md
    "Events API").
    Two callers at once: both start after the same highest number and the unique index refuses
    the second (on PostgreSQL once the first committed); the second gives up, having numbered
    nothing, and the first one's numbers stand. Called before each read of the events API.
    """
    numbered = 0
    while True:
        unnumbered = list(
            WebhookEvent.objects.filter(sequence__isnull=True)
            .order_by("created_at", "id")
            .values_list("pk", flat=True)[:_BATCH]
        )
        if not unnumbered:
            return numbered
        try:
            with transaction.atomic():
                last = WebhookEvent.objects.aggregate(last=Max("sequence"))["last"] or 0
                for offset, event_id in enumerate(unnumbered, start=1):
                    WebhookEvent.objects.filter(pk=event_id, sequence__isnull=True).update(
                        sequence=last + offset
                    )
        except IntegrityError:
            return numbered
        numbered += len(unnumbered)
        if len(unnumbered) < _BATCH:
            return numbered


def events_expire(*, now: datetime) -> int:
    """Deletes the events older than EVENTS_KEEP with their deliveries and delivery log, in
    batches; the newest event stays whatever its age, so numbering never restarts (the events
    API hides it once it is too old). Returns how many were deleted. The daily job
    `events_retention` runs it."""
    newest = WebhookEvent.objects.aggregate(last=Max("sequence"))["last"]
    old = WebhookEvent.objects.filter(created_at__lt=now - EVENTS_KEEP)
    if newest is not None:
        old = old.exclude(sequence=newest)
    deleted = 0
    while batch := list(old.values_list("pk", flat=True)[:_BATCH]):
        WebhookEvent.objects.filter(pk__in=batch).delete()
        deleted += len(batch)
    return deleted


EVENTS_RETENTION_EVERY = timedelta(days=1)


def events_retention() -> None:
    """`events_expire` as of now: a periodic job of the worker (registered in
    WebhooksConfig.ready()); running it more often deletes nothing twice."""
    events_expire(now=timezone.now())

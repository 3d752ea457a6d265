"""Writes of the webhooks app: endpoints, their secrets, Redeliver."""

from __future__ import annotations

from collections.abc import Collection

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from accounts.models import User
from organisations.models import Organisation
from planning.models import Plan
from webhooks.models import DeliveryStatus, DisabledReason, WebhookDelivery, WebhookEndpoint
from webhooks.selectors import plans_visible
from webhooks.signing import secret_encrypt, secret_generate, secret_hint
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
    if plans is not None:
        if not plans:
            raise ValidationError({"plans": "Choose at least one plan, or every plan."})
        allowed = (
            Plan.objects.filter(organisation=organisation)
            if organisation is not None
            else plans_visible(user=user)
        )
        visible = set(allowed.filter(pk__in=[p.pk for p in plans]))
        if len(visible) != len(set(plans)):
            raise ValidationError({"plans": "You can only choose plans you are a member of."})
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


def endpoint_secret_roll(*, endpoint: WebhookEndpoint) -> str:
    """A new signing secret, used from the next attempt on; the old one stops at once."""
    secret = secret_generate()
    endpoint.secret_encrypted = secret_encrypt(secret)
    endpoint.secret_hint = secret_hint(secret)
    endpoint.save(update_fields=["secret_encrypted", "secret_hint"])
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

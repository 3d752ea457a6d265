"""Reads of the webhooks app."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.paginator import Page, Paginator
from django.db.models import Exists, OuterRef, Q, QuerySet, Subquery
from django.http import Http404

from organisations.models import Organisation, OrganisationMembership, OrganisationRole
from planning.models import Plan, PlanMembership
from planning.plans.selectors import plans_visible as planning_plans_visible
from webhooks.models import (
    DisabledReason,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)

DELIVERY_LOG_PAGE_SIZE = 50


def _api_readable(organisation: Subquery) -> Q:
    """An endpoint whose holder could read a plan of `organisation` over the API now: the API
    access policy is off, the organisation has API access, or (a person's endpoint) staff gave
    the person the override. The rule of apikeys.selectors.plans_readable_for_key, which this
    app may not import (one layer); tests/webhooks/test_api_access.py fails when the two
    disagree."""
    if not settings.API_ACCESS_REQUIRES_GRANT:
        return Q()
    granted = Organisation.objects.filter(pk=organisation, api_access_enabled=True)
    return Q(Exists(granted)) | Q(owner__api_access_enabled=True)


def _covers(plan_id: Any) -> Q:
    """An endpoint that may see the plan now (an organisation's: the plan is the organisation's; a
    person's: they are a member of its organisation or a guest with a grant), whose holder could
    read it over the API now (docs/subsystems/webhooks.md "Webhooks follow API access": the events
    /platform/events would refuse are never delivered), and that takes every plan or this one."""
    organisation = Subquery(Plan.objects.filter(pk=plan_id).values("organisation"))
    member = OrganisationMembership.objects.filter(
        user=OuterRef("owner"), organisation=organisation
    )
    grant = PlanMembership.objects.filter(user=OuterRef("owner"), plan_id=plan_id)
    chosen = WebhookEndpoint.plans.through.objects.filter(
        webhookendpoint=OuterRef("pk"), plan_id=plan_id
    )
    sees = Q(organisation=organisation) | Q(Exists(member)) | Q(Exists(grant))
    return sees & _api_readable(organisation) & (Q(all_plans=True) | Q(Exists(chosen)))


def endpoints_covering_plan(*, plan_id: Any) -> QuerySet[WebhookEndpoint]:
    """The active endpoints that receive this plan's events (one query)."""
    return WebhookEndpoint.objects.active().filter(_covers(plan_id))


def endpoint_covers_plan(*, endpoint: WebhookEndpoint, plan_id: Any) -> bool:
    """Access as it is now: whether the endpoint may still receive the plan's events."""
    return WebhookEndpoint.objects.filter(_covers(plan_id), pk=endpoint.pk).exists()


def organisations_held_back(
    *, user: Any = None, organisation: Organisation | None = None
) -> list[Organisation]:
    """The organisations whose plans' events the holder's endpoints do not receive for want of
    API access (the endpoint pages say so): for a person, those they belong to or are a guest
    in; for an organisation, itself. None while the policy is off or a person has staff's
    override."""
    if not settings.API_ACCESS_REQUIRES_GRANT:
        return []
    if organisation is not None:
        return [] if organisation.api_access_enabled else [organisation]
    if user.api_access_enabled:
        return []
    seen = planning_plans_visible(user=user).values("organisation")
    return list(
        Organisation.objects.filter(pk__in=seen, api_access_enabled=False).order_by("name", "pk")
    )


def endpoint_list(*, user: Any) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(owner=user).prefetch_related("plans")


def organisation_endpoint_list(*, organisation: Any) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(organisation=organisation).prefetch_related("plans")


def endpoint_get(*, user: Any, endpoint_id: Any) -> WebhookEndpoint:
    """An endpoint the user manages: their own, or one of an organisation they own or
    administer (its pages live at the same addresses). Http404 for anyone else's, exactly as
    for a missing one; the organisation role is read on this request."""
    managed = OrganisationMembership.objects.filter(
        user=user, role__in=[OrganisationRole.OWNER, OrganisationRole.ADMIN]
    ).values("organisation")
    try:
        return WebhookEndpoint.objects.select_related("organisation").get(
            Q(owner=user) | Q(organisation__in=managed), pk=endpoint_id
        )
    except (WebhookEndpoint.DoesNotExist, ValueError, ValidationError):
        raise Http404("No such webhook endpoint") from None


def endpoints_disabled_for_failing(*, user: Any) -> QuerySet[WebhookEndpoint]:
    return WebhookEndpoint.objects.filter(owner=user, disabled_reason=DisabledReason.FAILING)


def plans_visible(*, user: Any) -> QuerySet[Plan]:
    return planning_plans_visible(user=user).order_by("number")


def delivery_log_page(*, endpoint: WebhookEndpoint, page_number: Any) -> Page[WebhookAttempt]:
    """One page of the endpoint's attempts, newest first (the log grows without bound)."""
    attempts = WebhookAttempt.objects.filter(endpoint=endpoint).select_related("delivery")
    return Paginator(attempts, DELIVERY_LOG_PAGE_SIZE).get_page(page_number)


def delivery_get(*, endpoint: WebhookEndpoint, delivery_id: int) -> WebhookDelivery:
    try:
        return WebhookDelivery.objects.get(endpoint=endpoint, pk=delivery_id)
    except WebhookDelivery.DoesNotExist:
        raise Http404("No such delivery") from None


@dataclass(frozen=True)
class ListedEvent:
    sequence: int
    id: str
    body: str  # the JSON the deliveries of this event post, byte for byte


def _listed(*, plans: QuerySet[Plan], since: datetime) -> QuerySet[WebhookEvent]:
    """The numbered events of `plans` written at or after `since` (test events belong to no
    plan and are never listed)."""
    return WebhookEvent.objects.filter(
        plan__in=plans.values("pk"), sequence__isnull=False, created_at__gte=since
    )


def event_position(*, plans: QuerySet[Plan], since: datetime, event_id: str) -> int | None:
    """The `sequence` of the event `event_id` if it is one of `plans`' listed events, else None
    (missing, expired, of a plan not among `plans`, or a test event: the same answer)."""
    return (
        _listed(plans=plans, since=since)
        .filter(pk=event_id)
        .values_list("sequence", flat=True)
        .first()
    )


def events_page(
    *,
    plans: QuerySet[Plan],
    since: datetime,
    event_type: str | None,
    after: int | None,
    limit: int,
) -> tuple[list[ListedEvent], bool]:
    """Up to `limit` listed events of `plans` after position `after`, oldest first (by
    `sequence`), and whether more follow."""
    events = _listed(plans=plans, since=since)
    if event_type is not None:
        events = events.filter(event_type=event_type)
    if after is not None:
        events = events.filter(sequence__gt=after)
    found = [
        ListedEvent(sequence=sequence or 0, id=event_id, body=body)  # never null: filtered
        for sequence, event_id, body in events.order_by("sequence").values_list(
            "sequence", "id", "body"
        )[: limit + 1]
    ]
    return found[:limit], len(found) > limit


def deliveries_page(
    *, endpoint: WebhookEndpoint, before: int | None, limit: int
) -> tuple[list[WebhookDelivery], bool]:
    """Up to `limit` of the endpoint's deliveries, newest first (by id, which only grows),
    those with an id below `before` if given, and whether more follow. Each carries its event's
    type and its last attempt's `last_status_code`, `last_attempted_at` and `last_error`."""
    last = WebhookAttempt.objects.filter(delivery=OuterRef("pk")).order_by("-number", "-id")
    deliveries = (
        WebhookDelivery.objects.filter(endpoint=endpoint)
        .select_related("event")
        .annotate(
            last_status_code=Subquery(last.values("status_code")[:1]),
            last_attempted_at=Subquery(last.values("attempted_at")[:1]),
            last_error=Subquery(last.values("error")[:1]),
        )
    )
    if before is not None:
        deliveries = deliveries.filter(pk__lt=before)
    found: list[WebhookDelivery] = list(deliveries.order_by("-pk")[: limit + 1])
    return found[:limit], len(found) > limit


def endpoint_delivery(*, endpoint: WebhookEndpoint, delivery_id: int) -> WebhookDelivery | None:
    """The endpoint's delivery `delivery_id` with its last attempt's facts, or None."""
    found, _more = deliveries_page(endpoint=endpoint, before=delivery_id + 1, limit=1)
    return found[0] if found and found[0].pk == delivery_id else None

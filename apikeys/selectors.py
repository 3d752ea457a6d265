"""Reads of the apikeys app."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from django.conf import settings
from django.db.models import Count, F, QuerySet, Window
from django.db.models.functions import RowNumber
from django.http import Http404
from django.utils import timezone

from accounts.models import User
from api.errors import ApiError
from apikeys.holders import KeyHolder
from apikeys.lookup import key_and_plan, key_by_hash, plan_of_key
from apikeys.models import ApiAccessRequest, ApiKey, ApiKeyQuerySet, ServiceAccount
from organisations.models import Organisation, OrganisationMembership, OrganisationRole
from organisations.selectors import memberships_for_user
from planning.models import Plan
from planning.plans.selectors import plan_access_get, plans_visible


def api_keys_at_limit(*, holder: KeyHolder) -> bool:
    """Whether the holder has API_KEYS_MAX_ACTIVE live keys (a rolled key in its grace
    included), so that neither a new key nor a roll with a grace fits. A hint for screens;
    the services decide under a lock."""
    live = holder.keys().active_at(timezone.now()).count()
    limit: int = settings.API_KEYS_MAX_ACTIVE
    return live >= limit


def api_key_by_hash(*, key_hash: str, plan_number: int | None = None) -> ApiKey | None:
    """The key with this SHA-256 and its holder, in one query on the unique index
    (apikeys.lookup). With `plan_number`, the plan of that number where the key sees it is
    read in the same query and kept on the key for `plan_for_key` (`plan_read_with_key`)."""
    if plan_number is None:
        return key_by_hash(key_hash=key_hash)
    api_key, plan = key_and_plan(key_hash=key_hash, number=plan_number)
    if api_key is not None:
        api_key.plan_read_with_key = (plan_number, plan)
    return api_key


def api_access_granted(*, user: User) -> bool:
    """Whether the API access policy lets this person's keys work anywhere: the policy is off,
    staff gave the account itself access (an override: every plan it sees), or one of its
    organisations, or the organisation of a plan it is a guest of, has API access (an
    organisation without plans yet included: the session check then answers)."""
    if user.api_access_enabled or not settings.API_ACCESS_REQUIRES_GRANT:
        return True
    member = OrganisationMembership.objects.filter(
        user=user, organisation__api_access_enabled=True
    ).exists()
    return member or plans_visible(user=user).filter(organisation__api_access_enabled=True).exists()


def api_key_access_granted(*, api_key: ApiKey) -> bool:
    """Whether the policy lets this key work at all (checked when it authenticates)."""
    if api_key.organisation is not None:
        return api_key.organisation.api_access_enabled or not settings.API_ACCESS_REQUIRES_GRANT
    assert api_key.owner is not None  # one holder (integrations_apikey_one_holder)
    return api_access_granted(user=api_key.owner)


def plans_for_key(*, api_key: ApiKey) -> QuerySet[Plan]:
    """The plans the key reaches now: its holder's (the person's visible plans, read as they
    are now, so a removed member's key loses an organisation's plans at once; or the service
    account's organisation's plans), within the key's plan limit. API access is not applied
    here: `plan_for_key` tells a plan without it apart (403)."""
    if api_key.organisation_id is not None:
        plans = Plan.objects.filter(organisation_id=api_key.organisation_id)
    else:
        plans = plans_visible(user=api_key.owner)
    if api_key.limited_to_plans:
        plans = plans.filter(pk__in=api_key.plans.values("pk"))
    return plans


def plans_readable_for_key(*, api_key: ApiKey) -> QuerySet[Plan]:
    """The plans the key may read in a list: those it reaches (`plans_for_key`) whose
    organisation has API access, or all of them for a person with the override. A list leaves
    a plan without access out where `plan_for_key` answers 403 for it."""
    plans = plans_for_key(api_key=api_key)
    override = api_key.owner is not None and api_key.owner.api_access_enabled
    if settings.API_ACCESS_REQUIRES_GRANT and not override:
        plans = plans.filter(organisation__api_access_enabled=True)
    return plans


def plan_for_key(*, api_key: ApiKey, number: int, sync_state: bool = False) -> Plan:
    """The plan `number` if the key may read it: ApiError plans.not_found when it may not see
    it (exactly as for a missing plan), auth.api_access_disabled when it may see it but the
    plan's organisation has no API access (and the person no override). One SELECT
    (apikeys.lookup, the rules of `plans_for_key`), or none when the plan was read with
    the key (`api_key_by_hash`); `sync_state`: read with it whether a sync is due
    (planning.suggestions.sync.due.with_sync_state)."""
    read = api_key.plan_read_with_key
    if read is not None and read[0] == number:
        # Read with the key, in this request, sync state included; taken once, so a second
        # call reads the plan as it is then.
        api_key.plan_read_with_key = None
        plan = read[1]
        if plan is not None and not sync_state:
            del plan.changes_pending  # as asked: `synced_data_version` reads the state itself
    else:
        plan = plan_of_key(api_key=api_key, number=number, sync_state=sync_state)
    if plan is None:
        raise ApiError("plans.not_found")
    if settings.API_ACCESS_REQUIRES_GRANT and not plan.organisation.api_access_enabled:
        override = api_key.owner is not None and api_key.owner.api_access_enabled
        if not override:
            raise ApiError("auth.api_access_disabled")
    return plan


def key_holder_may_change_plan(*, api_key: ApiKey, plan: Plan) -> bool:
    """Whether the key's holder may change `plan` (a plan the key may read, from `plan_for_key`): a
    key acts with at most its holder's rights (docs/subsystems/integrator-api.md "Acts"). A
    person needs edit rights on it, by the same rule as the web app's Dismiss
    (planning.core.access: a viewer, member or guest, may not); a service account acts on its
    organisation's plans. Read now, so a person demoted a moment ago acts no more."""
    if api_key.organisation_id is not None:
        return bool(plan.organisation_id == api_key.organisation_id)
    try:
        access = plan_access_get(user=api_key.owner, number=plan.number)
    except Http404:
        return False
    return access.plan.pk == plan.pk and access.can_edit


def organisations_without_api_access(*, user: User) -> list[OrganisationMembership]:
    """The user's organisations whose plans their keys cannot reach for want of API access
    (none while the policy is off or the account has the per-user override)."""
    if not settings.API_ACCESS_REQUIRES_GRANT or user.api_access_enabled:
        return []
    return list(memberships_for_user(user=user).filter(organisation__api_access_enabled=False))


def api_access_requests_pending(*, user: User) -> QuerySet[ApiAccessRequest]:
    """The undecided requests of the organisations the user manages (their banner)."""
    managed = OrganisationMembership.objects.filter(
        user=user, role__in=[OrganisationRole.OWNER, OrganisationRole.ADMIN]
    ).values("organisation")
    return ApiAccessRequest.objects.filter(
        organisation__in=managed, decided_at__isnull=True
    ).select_related("organisation", "requested_by")


# Revoked and expired keys are kept (the history and the security log name them) and grow with
# every roll: a key list shows the newest of them, per service account, and how many there are.
PAST_KEYS_SHOWN = 20


@dataclass
class KeyList:
    """What a key list shows: the working keys, and the newest `PAST_KEYS_SHOWN` revoked or
    expired ones of each service account (of the person, for a person's list) with their
    count."""

    live: list[ApiKey]
    past: list[ApiKey]
    past_counts: dict[UUID | None, int]


def key_list(keys: ApiKeyQuerySet, *, now: datetime) -> KeyList:
    """`keys` (a holder's, with what their rows show) as a key list shows them at `now`: the same
    queries (the count, the live keys, the newest past ones, and what `keys` prefetches) whatever
    the number of past keys."""
    past = keys.past_at(now)
    counts: dict[UUID | None, int] = dict(
        past.order_by()
        .values("service_account_id")
        .annotate(count=Count("pk"))
        .values_list("service_account_id", "count")
    )
    newest = past.annotate(
        rank=Window(
            RowNumber(),
            partition_by=[F("service_account_id")],
            order_by=[F("created_at").desc(), F("pk").desc()],
        )
    ).filter(rank__lte=PAST_KEYS_SHOWN)
    return KeyList(
        live=list(keys.active_at(now)),
        past=list(newest.order_by("-created_at", "-pk")),
        past_counts=counts,
    )


def service_accounts_with_keys(organisation: Organisation, keys: KeyList) -> list[ServiceAccount]:
    """The organisation's service accounts (at most SERVICE_ACCOUNTS_MAX), each with its live
    keys, its newest past ones (revoked or expired: shown collapsed) and how many past ones it
    has, newest first."""
    service_accounts = list(
        ServiceAccount.objects.filter(organisation=organisation).select_related("created_by")
    )
    by_id = {service_account.pk: service_account for service_account in service_accounts}
    for service_account in service_accounts:
        service_account.live_keys = []  # type: ignore[attr-defined]
        service_account.past_keys = []  # type: ignore[attr-defined]
        service_account.past_count = keys.past_counts.get(service_account.pk, 0)  # type: ignore[attr-defined]
    for shown, api_keys in (("live_keys", keys.live), ("past_keys", keys.past)):
        for api_key in api_keys:
            holder = by_id.get(api_key.service_account_id) if api_key.service_account_id else None
            if holder is not None:
                getattr(holder, shown).append(api_key)
    return service_accounts

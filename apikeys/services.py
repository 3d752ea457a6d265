"""Writes of the apikeys app: API keys (create, roll, revoke, expiry reminders), the API
access flag, and the security-log lines they leave."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import datetime, timedelta

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import transaction
from django.db.models import F, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import SecurityEvent, User
from accounts.services import security_event_record
from apikeys.holders import KeyHolder
from apikeys.keys import key_generate, key_hash, key_hint
from apikeys.models import ApiAccessRequest, ApiKey, ServiceAccount
from apikeys.service_accounts import service_account_create
from core.mail import site_link
from organisations.models import Organisation
from organisations.selectors import organisation_managers
from planning.models import Plan

# Days before expiry at which the owner is reminded, with the field that records each.
REMINDER_THRESHOLDS = {7: "reminder_7_days_sent_at", 1: "reminder_1_day_sent_at"}
# How long a key's (key, address) pair is remembered in the cache before the log is asked again.
SEEN_ADDRESS_SECONDS = 24 * 3600


def _key_words(api_key: ApiKey) -> str:
    return f"“{api_key.name}” ({api_key.hint}…)"


@transaction.atomic
def api_key_create(
    *,
    user: User | None,
    name: str,
    expires_at: datetime | None = None,
    plans: Iterable[Plan] | None = None,
    ip_address: str | None = None,
    organisation: Organisation | None = None,
    permission: str = ApiKey.Permission.READ,
    service_account: ServiceAccount | None = None,
) -> tuple[ApiKey, str]:
    """Creates a key and returns it with the raw key, which exists only here: ``user``'s own,
    or with ``service_account`` a new key of it made by ``user``, or with ``organisation``
    alone a new service account of it named as the key, with this key (the caller checks that
    ``user`` manages the organisation).

    ``plans`` limits the key to those plans (None: every plan its holder can see, now and
    later); each must be one of the holder's. The caller shows the raw key once and drops it;
    nothing keeps it (not a log line, not the database). Refused beyond API_KEYS_MAX_ACTIVE
    active keys per holder.
    """
    if service_account is not None:
        organisation = service_account.organisation
    holder = KeyHolder(organisation=organisation) if organisation else KeyHolder(user=user)
    now = timezone.now()
    limit: int = settings.API_KEYS_MAX_ACTIVE
    if _live_keys_locked(holder=holder, now=now) >= limit:
        who = "You already have" if organisation is None else f"{organisation.name} already has"
        raise ValidationError(
            f"{who} {limit} active keys, the most one {holder.words} may have. "
            "Revoke a key you no longer use, then create the new one."
        )
    if organisation is not None and service_account is None:
        service_account = service_account_create(organisation=organisation, name=name, user=user)
    api_key, raw = _key_insert(
        holder=holder,
        name=name,
        expires_at=expires_at,
        now=now,
        plans=plans,
        created_by=user,
        permission=permission,
        service_account=service_account,
    )
    holder.log(
        kind=SecurityEvent.Kind.API_KEY_CREATED,
        ip_address=ip_address,
        detail=_key_words(api_key) + (f" by {user.email}" if organisation and user else ""),
        api_key_id=api_key.pk,
    )
    return api_key, raw


def _live_keys_locked(*, holder: KeyHolder, now: datetime) -> int:
    """How many keys of the holder work at ``now`` (a rolled key in its grace included), under
    the holder's row lock: creations and rolls of one holder are serialised by it, so two of
    them cannot both see room for one more key. Call it inside a transaction, before locking
    any key row (always the holder first, then a key: one order, no deadlock)."""
    holder.lock()
    return holder.keys().active_at(now).count()


def _key_insert(
    *,
    holder: KeyHolder,
    name: str,
    expires_at: datetime | None,
    now: datetime,
    plans: Iterable[Plan] | None,
    created_by: User | None,
    permission: str = ApiKey.Permission.READ,
    service_account: ServiceAccount | None = None,
) -> tuple[ApiKey, str]:
    name = name.strip()
    if not name:
        raise ValidationError({"name": "Give the key a name."})
    if expires_at is not None and expires_at <= now:
        raise ValidationError({"expires_at": "The expiry must be in the future."})
    chosen = list(plans) if plans is not None else None
    if chosen is not None:
        visible = set(holder.plans().values_list("pk", flat=True))
        if not chosen or any(plan.pk not in visible for plan in chosen):
            raise ValidationError({"plans": "Choose one or more of your plans."})
    raw = key_generate()
    api_key = ApiKey(
        **holder.key_fields(),
        service_account=service_account,
        created_by=created_by,
        name=name,
        key_hash=key_hash(raw),
        hint=key_hint(raw),
        created_at=now,
        expires_at=expires_at,
        limited_to_plans=chosen is not None,
        permission=permission,
    )
    # Field checks only (name length); uniqueness and constraints are the database's job.
    api_key.full_clean(validate_unique=False, validate_constraints=False)
    api_key.save(force_insert=True)
    if chosen:
        api_key.plans.set(chosen)
    return api_key, raw


def roll_over_limit_message(*, limit: int) -> str:
    """What the roll form says when a grace would take the account past the limit."""
    return (
        f"You have {limit} live keys, the most one account may have (a rolled key still in its "
        "grace counts), so the old key cannot keep working beside the new one. Choose “None” "
        "to replace it at once, or revoke a key you no longer use first."
    )


@transaction.atomic
def api_key_roll(
    *, api_key: ApiKey, grace: timedelta, ip_address: str | None = None
) -> tuple[ApiKey, str]:
    """Replaces a working key: a new key with the same name, lifetime and plans (its raw value
    returned, once), while the old one keeps working for ``grace`` (zero: it stops now) and
    then answers ``auth.api_key_expired``.

    An old key in its grace is a live key: it counts against API_KEYS_MAX_ACTIVE like any
    other, so a roll with a grace needs room for one more live key and is refused at the limit
    (ValidationError on ``grace``); a roll without grace replaces the key and always may.
    """
    now = timezone.now()
    holder = KeyHolder.of(api_key)
    live = _live_keys_locked(holder=holder, now=now)
    old = ApiKey.objects.select_for_update().get(pk=api_key.pk)
    if old.state_at(now) is not ApiKey.State.ACTIVE or old.rolled_at is not None:
        raise ValidationError("Only a working key that has not been rolled yet can be rolled.")
    limit: int = settings.API_KEYS_MAX_ACTIVE
    if grace > timedelta(0) and live >= limit:
        raise ValidationError({"grace": roll_over_limit_message(limit=limit)})
    lifetime = old.expires_at - old.created_at if old.expires_at is not None else None
    new, raw = _key_insert(
        holder=holder,
        created_by=old.created_by,
        name=old.name,
        expires_at=now + lifetime if lifetime is not None else None,
        now=now,
        plans=list(old.plans.all()) if old.limited_to_plans else None,
        permission=old.permission,
        service_account=old.service_account,
    )
    grace_end = now + grace
    old.rolled_at = now
    # Never later than it would have expired anyway; no grace at all ends it now (a hair after
    # its creation, for the expiry-after-creation constraint of a key rolled at once).
    old.expires_at = max(
        min(grace_end, old.expires_at or grace_end), old.created_at + timedelta(microseconds=1)
    )
    old.save(update_fields=["rolled_at", "expires_at"])
    api_key.rolled_at, api_key.expires_at = old.rolled_at, old.expires_at
    holder.log(
        kind=SecurityEvent.Kind.API_KEY_ROLLED,
        ip_address=ip_address,
        detail=f"{_key_words(old)} replaced by {new.hint}…; the old key works until "
        f"{old.expires_at:%Y-%m-%d %H:%M} UTC",
        api_key_id=old.pk,
    )
    return new, raw


def api_key_revoke(*, api_key: ApiKey, ip_address: str | None = None) -> ApiKey:
    """Revokes a key for good. Revoking a revoked key keeps its first revocation time."""
    if api_key.revoked_at is None:
        now = timezone.now()
        revoked = ApiKey.objects.filter(pk=api_key.pk, revoked_at__isnull=True).update(
            revoked_at=now
        )
        api_key.refresh_from_db(fields=["revoked_at"])
        if revoked:
            KeyHolder.of(api_key).log(
                kind=SecurityEvent.Kind.API_KEY_REVOKED,
                ip_address=ip_address,
                detail=_key_words(api_key),
                api_key_id=api_key.pk,
            )
    return api_key


def api_key_mark_used(*, api_key: ApiKey, now: datetime) -> None:
    """Records that the key was used, at most once per API_KEY_LAST_USED_RESOLUTION_SECONDS.

    The in-memory check keeps the hot path free of writes; the conditional UPDATE makes
    concurrent requests on several app servers write once between them, not once each.
    """
    cutoff = now - timedelta(seconds=settings.API_KEY_LAST_USED_RESOLUTION_SECONDS)
    if api_key.last_used_at is not None and api_key.last_used_at > cutoff:
        return
    written = ApiKey.objects.filter(
        Q(last_used_at__isnull=True) | Q(last_used_at__lte=cutoff), pk=api_key.pk
    ).update(last_used_at=now)
    if written:
        api_key.last_used_at = now


def api_key_address_note(*, api_key: ApiKey, ip_address: str) -> None:
    """Logs the key's first use from an address it was not used from before (as far back as
    the security log goes). The cache answers repeat visits, so the hot path costs one cache
    read; ``cache.add`` lets one app server of several do the database check."""
    marker = f"apikey-address:{api_key.pk}:{ip_address}"
    if not cache.add(marker, 1, timeout=SEEN_ADDRESS_SECONDS):
        return
    seen = SecurityEvent.objects.filter(
        api_key_id=api_key.pk, kind=SecurityEvent.Kind.API_KEY_NEW_ADDRESS, ip_address=ip_address
    ).exists()
    if not seen:
        KeyHolder.of(api_key).log(
            kind=SecurityEvent.Kind.API_KEY_NEW_ADDRESS,
            ip_address=ip_address,
            detail=_key_words(api_key),
            api_key_id=api_key.pk,
        )


def api_access_set(*, user: User, enabled: bool, ip_address: str | None = None) -> None:
    """Grants or withdraws API access (it matters while API_ACCESS_REQUIRES_GRANT is on)."""
    changed = (
        User.objects.filter(pk=user.pk)
        .exclude(api_access_enabled=enabled)
        .update(api_access_enabled=enabled)
    )
    user.api_access_enabled = enabled
    if changed:
        api_access_change_record(user=user, ip_address=ip_address)


def api_access_change_record(*, user: User, ip_address: str | None = None) -> None:
    security_event_record(
        user=user,
        kind=SecurityEvent.Kind.API_ACCESS_CHANGED,
        ip_address=ip_address,
        detail="API access enabled" if user.api_access_enabled else "API access withdrawn",
    )


def api_key_expiry_notices_send(*, now: datetime) -> dict[str, int]:
    """The daily job: emails each owner 7 days and 1 day before a key expires, and logs each
    expiry, exactly once per key and threshold however often it runs (each notice is claimed
    with a conditional UPDATE before it is sent, so two runs at once send it once between
    them). A threshold the key never lived past (a 7-day key's 7-day notice) is skipped, and a
    run that missed the 7-day day sends only the 1-day one. Rolled and revoked keys are not
    reminded of: their owner chose their end.
    """
    counts = {"reminders": 0, "expired": 0}
    live = ApiKey.objects.filter(
        revoked_at__isnull=True, rolled_at__isnull=True, expires_at__gt=now
    ).select_related("owner", "organisation")
    for days, field in sorted(REMINDER_THRESHOLDS.items()):  # 1 day first, then 7 days
        threshold = timedelta(days=days)
        due = live.filter(
            **{f"{field}__isnull": True},
            expires_at__lte=now + threshold,
            created_at__lt=F("expires_at") - threshold,
        )
        for api_key in due:
            claimed = ApiKey.objects.filter(pk=api_key.pk, **{f"{field}__isnull": True})
            if claimed.update(**{field: now}) == 0:
                continue  # another run sent it a moment ago
            # A longer notice not sent in time (the job was down) is not sent after this one.
            for longer_days, longer in REMINDER_THRESHOLDS.items():
                if longer_days > days:
                    ApiKey.objects.filter(pk=api_key.pk, **{f"{longer}__isnull": True}).update(
                        **{longer: now}
                    )
            _reminder_send(api_key=api_key, days=days)
            counts["reminders"] += 1
    expired = ApiKey.objects.filter(
        revoked_at__isnull=True, expires_at__lte=now, expiry_logged_at__isnull=True
    ).select_related("owner", "organisation")
    for api_key in expired:
        if ApiKey.objects.filter(pk=api_key.pk, expiry_logged_at__isnull=True).update(
            expiry_logged_at=now
        ):
            KeyHolder.of(api_key).log(
                kind=SecurityEvent.Kind.API_KEY_EXPIRED,
                detail=_key_words(api_key),
                api_key_id=api_key.pk,
            )
            counts["expired"] += 1
    return counts


def _reminder_send(*, api_key: ApiKey, days: int) -> None:
    if api_key.organisation is not None:
        keys_path = reverse("integrations:organisation_api_keys", args=[api_key.organisation.slug])
    else:
        keys_path = reverse("integrations:api_key_list")
    context = {"api_key": api_key, "days": days, "keys_link": site_link(keys_path)}
    send_mail(
        subject=f"Your Maintplan API key “{api_key.name}” expires in {days} day"
        f"{'s' if days != 1 else ''}",
        message=render_to_string("integrations/email/key_expiry_reminder.txt", context),
        from_email=None,
        recipient_list=KeyHolder.of(api_key).notice_recipients(),
    )


# --- API access of an organisation ------------------------------------------------------------


def organisation_api_access_set(
    *, organisation: Organisation, enabled: bool, by: User | None, ip_address: str | None = None
) -> bool:
    """Switches the organisation's API access; True when it changed (a line in its log)."""
    changed = (
        Organisation.objects.filter(pk=organisation.pk)
        .exclude(api_access_enabled=enabled)
        .update(api_access_enabled=enabled)
    )
    organisation.api_access_enabled = enabled
    if changed:
        security_event_record(
            user=None,
            organisation_id=organisation.pk,
            kind=SecurityEvent.Kind.API_ACCESS_CHANGED,
            ip_address=ip_address,
            detail=("API access enabled" if enabled else "API access withdrawn")
            + (f" by {by.email}" if by is not None else ""),
        )
    return bool(changed)


@transaction.atomic
def api_access_request(*, organisation: Organisation, user: User) -> ApiAccessRequest:
    """A member asks for the organisation's API access: one pending request per member; the
    owners and admins are emailed (after the commit) and see it until one of them decides."""
    pending = ApiAccessRequest.objects.filter(
        organisation=organisation, requested_by=user, decided_at__isnull=True
    ).first()
    if pending is not None:
        return pending
    request = ApiAccessRequest.objects.create(organisation=organisation, requested_by=user)
    recipients = [m.user.email for m in organisation_managers(organisation=organisation)]
    link = site_link(reverse("integrations:organisation_api_access", args=[organisation.slug]))
    transaction.on_commit(
        lambda: send_mail(
            subject=f"{user.get_full_name()} asks for API access to {organisation.name}",
            message=render_to_string(
                "integrations/email/api_access_requested.txt",
                {"requester": user, "organisation": organisation, "link": link},
            ),
            from_email=None,
            recipient_list=recipients,
        )
    )
    return request


@transaction.atomic
def api_access_request_decide(
    *, access_request: ApiAccessRequest, approve: bool, by: User, ip_address: str | None = None
) -> bool:
    """Approve (the organisation's API access on) or deny; the requester is emailed. False when
    someone decided it a moment ago (a conditional UPDATE claims the decision)."""
    now = timezone.now()
    claimed = ApiAccessRequest.objects.filter(pk=access_request.pk, decided_at__isnull=True).update(
        decided_at=now, decided_by=by, approved=approve
    )
    if not claimed:
        return False
    organisation = access_request.organisation
    if approve:
        organisation_api_access_set(
            organisation=organisation, enabled=True, by=by, ip_address=ip_address
        )
    requester = access_request.requested_by
    verdict = "approved" if approve else "declined"
    transaction.on_commit(
        lambda: send_mail(
            subject=f"Your request for API access to {organisation.name} was {verdict}",
            message=f"{by.get_full_name()} {verdict} your request for API access to "
            f"{organisation.name}.\n\nYour API keys: "
            f"{site_link(reverse('integrations:api_key_list'))}\n",
            from_email=None,
            recipient_list=[requester.email],
        )
    )
    return True

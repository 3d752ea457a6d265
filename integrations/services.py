"""Writes of the integrations app: API keys and the API access flag."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from accounts.models import User
from integrations.keys import key_generate, key_hash, key_hint
from integrations.models import ApiKey


@transaction.atomic
def api_key_create(
    *, user: User, name: str, expires_at: datetime | None = None
) -> tuple[ApiKey, str]:
    """Creates a key for ``user`` and returns it with the raw key, which exists only here.

    The caller shows the raw key once and drops it; nothing keeps it (not the session, not the
    messages framework, not a log line).
    """
    name = name.strip()
    now = timezone.now()
    if not name:
        raise ValidationError({"name": "Give the key a name."})
    if expires_at is not None and expires_at <= now:
        raise ValidationError({"expires_at": "The expiry must be in the future."})
    # The owner's row lock serialises two creations of one account, so the limit holds.
    User.objects.select_for_update().filter(pk=user.pk).first()
    limit: int = settings.API_KEYS_MAX_ACTIVE
    if ApiKey.objects.owned_by(user).active_at(now).count() >= limit:
        raise ValidationError(
            f"You already have {limit} active keys, the most one account may have. "
            "Revoke a key you no longer use, then create the new one."
        )
    raw = key_generate()
    api_key = ApiKey(
        owner=user,
        name=name,
        key_hash=key_hash(raw),
        hint=key_hint(raw),
        created_at=now,
        expires_at=expires_at,
    )
    # Field checks only (name length); uniqueness and constraints are the database's job.
    api_key.full_clean(validate_unique=False, validate_constraints=False)
    api_key.save(force_insert=True)
    return api_key, raw


def api_key_revoke(*, api_key: ApiKey) -> ApiKey:
    """Revokes a key for good. Revoking a revoked key keeps its first revocation time."""
    if api_key.revoked_at is None:
        now = timezone.now()
        ApiKey.objects.filter(pk=api_key.pk, revoked_at__isnull=True).update(revoked_at=now)
        api_key.refresh_from_db(fields=["revoked_at"])
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


def api_access_set(*, user: User, enabled: bool) -> None:
    """Grants or withdraws API access (it matters while API_ACCESS_REQUIRES_GRANT is on)."""
    User.objects.filter(pk=user.pk).update(api_access_enabled=enabled)
    user.api_access_enabled = enabled

"""Reads of the integrations app."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.shortcuts import get_object_or_404
from django.utils import timezone

from accounts.models import User
from integrations.models import ApiKey, ApiKeyQuerySet


def api_key_list(*, user: User) -> ApiKeyQuerySet:
    return ApiKey.objects.owned_by(user).prefetch_related("plans")


def api_keys_at_limit(*, user: User) -> bool:
    """Whether the account has API_KEYS_MAX_ACTIVE live keys (a rolled key in its grace
    included), so that neither a new key nor a roll with a grace fits. A hint for screens;
    the services decide under a lock."""
    live = ApiKey.objects.owned_by(user).active_at(timezone.now()).count()
    limit: int = settings.API_KEYS_MAX_ACTIVE
    return live >= limit


def api_key_get(*, user: User, api_key_id: uuid.UUID) -> ApiKey:
    """One of the user's own keys; another user's key is a 404, exactly like a missing one."""
    return get_object_or_404(ApiKey.objects.owned_by(user), pk=api_key_id)


def api_key_by_hash(*, key_hash: str) -> ApiKey | None:
    """The key with this SHA-256 and its owner, in one query on the unique index."""
    try:
        return ApiKey.objects.select_related("owner").get(key_hash=key_hash)
    except ApiKey.DoesNotExist:
        return None


def api_access_granted(*, user: User) -> bool:
    """Whether the API access policy lets this account's keys work."""
    return user.api_access_enabled or not settings.API_ACCESS_REQUIRES_GRANT

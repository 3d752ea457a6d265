from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from apikeys.keys import key_hash
from apikeys.models import ApiKey
from apikeys.services import (
    api_access_set,
    api_key_create,
    api_key_mark_used,
    api_key_revoke,
)
from tests.factories import UserFactory


def test_create_stores_the_hash_and_hint_but_not_the_key(user: Any) -> None:
    api_key, raw = api_key_create(user=user, name="  Monitoring  ")
    stored = ApiKey.objects.get(pk=api_key.pk)
    assert stored.key_hash == key_hash(raw)
    assert stored.hint == raw[:8]
    assert stored.name == "Monitoring"
    assert stored.owner == user
    stored_values = ApiKey.objects.filter(pk=api_key.pk).values().get()
    secret_part = raw[len("mpk_") : -6]  # the random characters, whatever wraps them
    assert not any(secret_part in str(value) for value in stored_values.values())


def test_create_rejects_an_empty_name(user: Any) -> None:
    with pytest.raises(ValidationError):
        api_key_create(user=user, name="   ")
    assert not ApiKey.objects.exists()


def test_create_rejects_an_expiry_in_the_past(user: Any) -> None:
    with pytest.raises(ValidationError):
        api_key_create(user=user, name="x", expires_at=timezone.now() - timedelta(minutes=1))
    assert not ApiKey.objects.exists()


def test_revoke_keeps_the_first_revocation_time(user: Any) -> None:
    api_key, _raw = api_key_create(user=user, name="x")
    api_key_revoke(api_key=api_key)
    first = ApiKey.objects.get(pk=api_key.pk).revoked_at
    assert first is not None
    api_key_revoke(api_key=ApiKey.objects.get(pk=api_key.pk))
    assert ApiKey.objects.get(pk=api_key.pk).revoked_at == first


def test_mark_used_writes_once_for_two_concurrent_holders_of_a_stale_key(user: Any) -> None:
    api_key, _raw = api_key_create(user=user, name="x")
    # Two app servers loaded the same never-used key; both try to record the use.
    copy_a, copy_b = ApiKey.objects.get(pk=api_key.pk), ApiKey.objects.get(pk=api_key.pk)
    first_use = timezone.now()
    api_key_mark_used(api_key=copy_a, now=first_use)
    api_key_mark_used(api_key=copy_b, now=first_use + timedelta(seconds=1))
    assert ApiKey.objects.get(pk=api_key.pk).last_used_at == first_use


def test_access_set_grants_and_withdraws(user: Any) -> None:
    api_access_set(user=user, enabled=True)
    user.refresh_from_db()
    assert user.api_access_enabled is True
    api_access_set(user=user, enabled=False)
    user.refresh_from_db()
    assert user.api_access_enabled is False


def test_create_refuses_a_key_over_the_active_limit(user: Any, settings: Any) -> None:
    settings.API_KEYS_MAX_ACTIVE = 2
    first, _raw = api_key_create(user=user, name="one")
    api_key_create(user=user, name="two")

    with pytest.raises(ValidationError, match="already have 2 active keys"):
        api_key_create(user=user, name="three")
    # Revoked and expired keys do not count.
    api_key_revoke(api_key=first)
    api_key_create(user=user, name="three")
    ApiKey.objects.filter(name="three").update(expires_at=timezone.now())
    api_key_create(user=user, name="four")
    assert ApiKey.objects.count() == 4


def test_the_active_limit_is_per_account(user: Any, settings: Any) -> None:
    settings.API_KEYS_MAX_ACTIVE = 1
    api_key_create(user=user, name="one")

    api_key_create(user=UserFactory.create(), name="theirs")

    assert ApiKey.objects.count() == 2


def test_default_active_limit_is_20(settings: Any) -> None:
    assert settings.API_KEYS_MAX_ACTIVE == 20

"""Writes of service accounts (docs/subsystems/api-keys.md "Service accounts"): make one, rename
it. Their keys are made, rolled and revoked by apikeys.services."""

from __future__ import annotations

from django.core.exceptions import ValidationError
from django.db import transaction

from accounts.models import User
from apikeys.holders import KeyHolder
from apikeys.models import ServiceAccount
from organisations.models import Organisation

# Service accounts one organisation may have (live keys are limited by API_KEYS_MAX_ACTIVE).
SERVICE_ACCOUNTS_MAX = 100


def service_account_create(
    *, organisation: Organisation, name: str, user: User | None
) -> ServiceAccount:
    """A new service account of ``organisation``, with no key yet (``api_key_create`` with
    ``service_account`` gives it keys). Refused beyond SERVICE_ACCOUNTS_MAX per organisation."""
    name = _service_account_name(name)
    with transaction.atomic():
        KeyHolder(organisation=organisation).lock()
        if ServiceAccount.objects.filter(organisation=organisation).count() >= (
            SERVICE_ACCOUNTS_MAX
        ):
            raise ValidationError(
                f"{organisation.name} already has {SERVICE_ACCOUNTS_MAX} service accounts, the "
                "most one organisation may have."
            )
        return ServiceAccount.objects.create(organisation=organisation, name=name, created_by=user)


def service_account_rename(*, service_account: ServiceAccount, name: str) -> ServiceAccount:
    """Renames a service account: its principal.name and the history's label from now on
    (entries already written keep the name they were written with)."""
    service_account.name = _service_account_name(name)
    service_account.save(update_fields=["name"])
    return service_account


def _service_account_name(name: str) -> str:
    name = name.strip()
    if not name:
        raise ValidationError({"name": "Give the service account a name."})
    limit = ServiceAccount._meta.get_field("name").max_length or 100
    if len(name) > limit:
        raise ValidationError({"name": f"At most {limit} characters."})
    return name

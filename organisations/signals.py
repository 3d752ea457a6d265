"""Every new account gets its personal organisation, whichever way it was made (registration,
the JSON route, createsuperuser, the admin, a test factory)."""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver

from accounts.models import User
from organisations.services import organisation_personal_create


@receiver(post_save, sender=User)
def _personal_organisation_made(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
    if created and not kwargs.get("raw"):
        organisation_personal_create(user=instance)

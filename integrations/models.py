from __future__ import annotations

import uuid
from datetime import datetime
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import Exact, GreaterThan
from django.utils import timezone


class ApiKeyQuerySet(models.QuerySet["ApiKey"]):
    def owned_by(self, user: models.Model) -> ApiKeyQuerySet:
        return self.filter(owner=user)

    def active_at(self, now: datetime) -> ApiKeyQuerySet:
        """Keys that work at `now` as far as the key itself goes: not revoked, not expired."""
        return self.filter(
            models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now),
            revoked_at__isnull=True,
        )


class ApiKey(models.Model):
    """A user's API key. Only the SHA-256 hex of the raw key is stored (see integrations.keys)."""

    class State(models.TextChoices):
        ACTIVE = "active", "Active"
        EXPIRED = "expired", "Expired"
        REVOKED = "revoked", "Revoked"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_keys"
    )
    name = models.CharField(max_length=100)
    key_hash = models.CharField("SHA-256 of the key", max_length=64, unique=True, editable=False)
    hint = models.CharField(max_length=16, editable=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField(null=True, blank=True)
    revoked_at = models.DateTimeField(null=True, blank=True)
    last_used_at = models.DateTimeField(null=True, blank=True)
    # Rolled: replaced by a new key of the same name; this one works until expires_at (the grace).
    rolled_at = models.DateTimeField(null=True, blank=True)
    # Limited to chosen plans (`plans`); otherwise every plan its owner can see. A flag rather
    # than "no plans chosen", so a limited key whose plans are all deleted reaches nothing.
    limited_to_plans = models.BooleanField(default=False)
    plans = models.ManyToManyField("planning.Plan", blank=True, related_name="+")
    # When the expiry reminders went out and the expiry was logged (each claimed once).
    reminder_7_days_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    reminder_1_day_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    expiry_logged_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects: ClassVar[ApiKeyQuerySet] = ApiKeyQuerySet.as_manager()  # type: ignore[assignment]

    class Meta:
        verbose_name = "API key"
        ordering = ("-created_at", "id")
        indexes: ClassVar = [models.Index(fields=["owner", "-created_at"])]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Exact(Length("key_hash"), 64), name="integrations_apikey_hash_length"
            ),
            models.CheckConstraint(
                condition=GreaterThan(Length("name"), 0), name="integrations_apikey_name_set"
            ),
            models.CheckConstraint(
                condition=models.Q(expires_at__isnull=True)
                | models.Q(expires_at__gt=models.F("created_at")),
                name="integrations_apikey_expires_after_creation",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"

    def covers_plan(self, plan_id: uuid.UUID) -> bool:
        """Whether the key may reach this plan (its owner's access is checked separately)."""
        return not self.limited_to_plans or self.plans.filter(pk=plan_id).exists()

    def plan_numbers(self) -> list[int] | None:
        """The numbers of the plans the key is limited to, or None for every plan."""
        if not self.limited_to_plans:
            return None
        return sorted(self.plans.values_list("number", flat=True))

    def state_at(self, now: datetime) -> ApiKey.State:
        if self.revoked_at is not None:
            return self.State.REVOKED
        if self.expires_at is not None and self.expires_at <= now:
            return self.State.EXPIRED
        return self.State.ACTIVE

    @property
    def state(self) -> ApiKey.State:
        return self.state_at(timezone.now())

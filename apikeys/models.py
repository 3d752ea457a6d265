from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any, ClassVar

from django.conf import settings
from django.db import models
from django.db.models.functions import Length
from django.db.models.lookups import Exact, GreaterThan
from django.utils import timezone


class ApiKeyQuerySet(models.QuerySet["ApiKey"]):
    def owned_by(self, user: models.Model) -> ApiKeyQuerySet:
        """A person's own keys."""
        return self.filter(owner=user)

    def of_organisation(self, organisation: models.Model) -> ApiKeyQuerySet:
        """An organisation's service-account keys."""
        return self.filter(organisation=organisation)

    def of_service_account(self, service_account: models.Model) -> ApiKeyQuerySet:
        """One service account's keys."""
        return self.filter(service_account=service_account)

    def active_at(self, now: datetime) -> ApiKeyQuerySet:
        """Keys that work at `now` as far as the key itself goes: not revoked, not expired."""
        return self.filter(
            models.Q(expires_at__isnull=True) | models.Q(expires_at__gt=now),
            revoked_at__isnull=True,
        )

    def past_at(self, now: datetime) -> ApiKeyQuerySet:
        """Keys that no longer work at `now`: revoked or expired (`active_at`'s others)."""
        return self.filter(models.Q(revoked_at__isnull=False) | models.Q(expires_at__lte=now))


class ServiceAccount(models.Model):
    """An organisation's integration identity: what its keys speak for. Its id is the API's
    `principal.id` and the history's actor, so it stays the same through rolls, new keys and
    revocations; it stays listed with no live key (docs/subsystems/api-keys.md "Service
    accounts")."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organisation = models.ForeignKey(
        "organisations.Organisation", on_delete=models.CASCADE, related_name="service_accounts"
    )
    name = models.CharField(max_length=100)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("name", "id")
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=GreaterThan(Length("name"), 0),
                name="integrations_serviceaccount_name_set",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class ApiKey(models.Model):
    """An API key: a person's own (`owner`), or one of a service account's
    (`service_account`), which belongs to an organisation (`organisation`, the service
    account's, kept on the key for the one-statement lookup and the per-organisation limit) and
    keeps working when the person who made it (`created_by`) leaves. Only the SHA-256 hex of
    the raw key is stored (see apikeys.keys); docs/subsystems/api-keys.md "The key"."""

    class State(models.TextChoices):
        ACTIVE = "active", "Active"
        EXPIRED = "expired", "Expired"
        REVOKED = "revoked", "Revoked"

    class Permission(models.TextChoices):
        READ = "read", "Read only"
        READ_WRITE = "read_write", "Read and act on suggestions"

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_keys",
    )
    organisation = models.ForeignKey(
        "organisations.Organisation",
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_keys",
    )
    service_account = models.ForeignKey(
        ServiceAccount,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="api_keys",
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
        editable=False,
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
    # What the key may do: read (every GET), or also act (dismiss, restore a suggestion).
    permission = models.CharField(
        max_length=10, choices=Permission.choices, default=Permission.READ, db_default="read"
    )
    plans = models.ManyToManyField("planning.Plan", blank=True, related_name="+")
    # When the expiry reminders went out and the expiry was logged (each claimed once).
    reminder_7_days_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    reminder_1_day_sent_at = models.DateTimeField(null=True, blank=True, editable=False)
    expiry_logged_at = models.DateTimeField(null=True, blank=True, editable=False)

    objects: ClassVar[ApiKeyQuerySet] = ApiKeyQuerySet.as_manager()  # type: ignore[assignment]

    # Not a column: the plan a GET named, read in the same statement as the key when it
    # authenticated (apikeys.lookup.key_and_plan), as (number, the plan or None where the
    # key does not see it); `apikeys.selectors.plan_for_key` takes it once.
    plan_read_with_key: tuple[int, Any] | None = None

    class Meta:
        verbose_name = "API key"
        ordering = ("-created_at", "id")
        indexes: ClassVar = [
            models.Index(fields=["owner", "-created_at"]),
            models.Index(fields=["organisation", "-created_at"]),
        ]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=models.Q(
                    owner__isnull=False, organisation__isnull=True, service_account__isnull=True
                )
                | models.Q(
                    owner__isnull=True, organisation__isnull=False, service_account__isnull=False
                ),
                name="integrations_apikey_one_holder",
            ),
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

    @property
    def holder_key(self) -> str:
        """Who the key speaks for, as the per-account throttle and the key limit count it."""
        if self.organisation_id is not None:
            return f"organisation:{self.organisation_id}"
        return f"user:{self.owner_id}"

    def covers_plan(self, plan_id: uuid.UUID) -> bool:
        """Whether the key's plan limit lets it reach this plan (its holder's access is checked
        separately: apikeys.selectors.plan_for_key)."""
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


class ApiAccessRequest(models.Model):
    """A member's request for their organisation's API access, until an owner or admin
    approves (the access is switched on) or declines it."""

    organisation = models.ForeignKey(
        "organisations.Organisation", on_delete=models.CASCADE, related_name="+"
    )
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved = models.BooleanField(null=True)

    class Meta:
        ordering = ("created_at",)
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["organisation", "requested_by"],
                condition=models.Q(decided_at__isnull=True),
                name="integrations_api_access_request_one_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"API access request of {self.requested_by} for {self.organisation}"


class IdempotentRequest(models.Model):
    """The first answer to a POST sent with an `Idempotency-Key` (platform_api.idempotency): the
    same key of the same API key with the same request within IDEMPOTENCY_HOURS gets this answer
    again; with another request, 409. The row is written in the act's own transaction, so an
    act that fails leaves none and may be sent again.

    Only the platform API reads and writes it, but it stays in this app: its table is
    integrations_idempotentrequest under this app's label, and a row belongs to its key
    (deleted with it), so it moved with no migration at all."""

    id = models.BigAutoField(primary_key=True)
    api_key = models.ForeignKey(ApiKey, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)  # SHA-256 of method, path and body
    status = models.PositiveSmallIntegerField()
    message = models.CharField(max_length=300)
    message_key = models.CharField(max_length=100)
    data = models.JSONField(null=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["api_key", "key"], name="idempotent_request_once")
        ]

    def __str__(self) -> str:
        return f"idempotent request {self.key} of key {self.api_key_id}"

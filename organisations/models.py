"""Organisations, their members and their roles (docs/subsystems/organisations.md "Organisations").

An organisation owns plans (`Plan.organisation`), service-account keys and webhooks;
its members hold one role each. Every account has a personal organisation, made when the
account is (organisations.signals), so "my plans" is always an organisation's plans.
"""

from __future__ import annotations

import uuid
from datetime import datetime
from decimal import Decimal
from typing import ClassVar

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.db.models import Q
from django.utils import timezone


class OrganisationRole(models.TextChoices):
    """Highest first; `ORGANISATION_ROLE_RANK` orders them."""

    OWNER = "owner", "Owner"
    ADMIN = "admin", "Admin"
    PLANNER = "planner", "Planner"
    VIEWER = "viewer", "Viewer"


# Who manages the organisation (members, invitations, API access, service accounts, webhooks).
MANAGING_ROLES = frozenset({OrganisationRole.OWNER, OrganisationRole.ADMIN})
# Who may change the organisation's plans.
EDITING_ROLES = frozenset({*MANAGING_ROLES, OrganisationRole.PLANNER})


class Organisation(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    name = models.CharField(max_length=200)
    slug = models.SlugField(max_length=60, unique=True)
    # The account this is the personal organisation of (made with the account); null for an
    # organisation someone created, and once that account is gone.
    personal_for = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="personal_organisation",
    )
    # With API_ACCESS_REQUIRES_GRANT on, keys reach this organisation's plans only while set
    # (owners and admins switch it; staff too, in the admin).
    api_access_enabled = models.BooleanField("API access enabled", default=False)
    # What a m2 of its buildings costs to build again, in its catalog's currency: a building
    # without its own replacement value is valued at its area times this
    # (docs/subsystems/portfolio.md "Facility condition index").
    value_per_m2 = models.DecimalField(
        "building value per m²",
        max_digits=12,
        decimal_places=2,
        null=True,
        blank=True,
        validators=[MinValueValidator(Decimal("0.01"), message="Enter a value above 0.")],
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ("name", "slug")
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(value_per_m2__isnull=True) | Q(value_per_m2__gt=0),
                name="organisation_value_per_m2_positive",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class OrganisationMembership(models.Model):
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="memberships"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        related_name="organisation_memberships",
    )
    role = models.CharField(max_length=10, choices=OrganisationRole.choices)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["organisation", "user"], name="organisation_membership_unique"
            ),
            models.CheckConstraint(
                condition=Q(role__in=OrganisationRole.values),
                name="organisation_membership_role_valid",
            ),
        ]
        indexes: ClassVar = [models.Index(fields=["user", "organisation"])]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.organisation}"

    @property
    def can_manage(self) -> bool:
        return self.role in MANAGING_ROLES

    @property
    def can_edit(self) -> bool:
        return self.role in EDITING_ROLES


INVITATION_DAYS = 7


class Invitation(models.Model):
    """An invitation by email to join an organisation with a role, or (with `plan_id`) to be a
    guest of one of its plans with a grant role. Only the SHA-256 of its token is stored; the
    link with the token exists only in the email. It works once, for INVITATION_DAYS, and only
    for an account with the invited email."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    organisation = models.ForeignKey(
        Organisation, on_delete=models.CASCADE, related_name="invitations"
    )
    email = models.EmailField(max_length=254)
    role = models.CharField(max_length=10, choices=OrganisationRole.choices, blank=True)
    # A guest invitation: the plan (planning is above this app, so no foreign key; planning
    # deletes a plan's invitations with the plan) and the grant's role (editor | viewer).
    plan_id = models.UUIDField(null=True, blank=True)
    grant_role = models.CharField(max_length=10, blank=True)
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    expires_at = models.DateTimeField()
    accepted_at = models.DateTimeField(null=True, blank=True)
    accepted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ("-created_at",)
        indexes: ClassVar = [models.Index(fields=["organisation", "email"])]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=(Q(plan_id__isnull=True) & Q(role__in=OrganisationRole.values))
                | (Q(plan_id__isnull=False) & Q(grant_role__in=["editor", "viewer"])),
                name="organisations_invitation_role_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"invitation of {self.email} to {self.organisation}"

    def is_pending_at(self, now: datetime) -> bool:
        return self.accepted_at is None and self.revoked_at is None and self.expires_at > now

    @property
    def is_pending(self) -> bool:
        return self.is_pending_at(timezone.now())

    @property
    def what(self) -> str:
        """What it offers, in words."""
        if self.plan_id is not None:
            return f"{self.grant_role} of one plan"
        return OrganisationRole(self.role).label.lower()

"""Plans, their numbers and their members."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.core.validators import RegexValidator
from django.db import models
from django.db.models import Q

from planning.models.fields import MAX_PLAN_NUMBER, NAME_VALIDATORS, choice_messages


class PlanNumberCounter(models.Model):
    """A single row holding the last plan number handed out.

    Incrementing it with an UPDATE inside the creating transaction serialises concurrent
    creations (the row lock) and, unlike MAX(number) + 1, never hands out a number again after
    its plan was deleted.
    """

    last_number = models.PositiveIntegerField(default=0)

    class Meta:
        constraints: ClassVar = [
            models.CheckConstraint(condition=Q(pk=1), name="plan_number_counter_single_row"),
        ]

    def __str__(self) -> str:
        return f"last plan number {self.last_number}"


def plan_currency_default() -> str:
    return str(settings.PLAN_DEFAULT_CURRENCY)


CURRENCY_VALIDATORS = [
    RegexValidator(r"^[A-Z]{3}\Z", message="Enter a 3-letter currency code such as EUR or USD.")
]


class Plan(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    number = models.PositiveIntegerField(unique=True, editable=False)
    name = models.CharField(max_length=200, validators=NAME_VALIDATORS)
    description = models.TextField(blank=True)
    # Every plan belongs to one organisation; its members reach the plan by their role there,
    # guests by a plan grant (PlanMembership). PROTECT: an organisation goes with its plans
    # deleted first, never by accident.
    organisation = models.ForeignKey(
        "organisations.Organisation", on_delete=models.PROTECT, related_name="plans"
    )
    # Every amount of the plan is in this currency (ISO 4217); shown beside each figure.
    currency = models.CharField(
        max_length=3,
        default=plan_currency_default,
        validators=CURRENCY_VALIDATORS,
        help_text="ISO 4217 code, e.g. EUR, USD, CHF.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    last_synced_at = models.DateTimeField(null=True, blank=True)
    # The version of everything the plan's pages and lists are derived from: raised in the
    # transaction of every change of the plan's data or suggestions (planning.writes) and by
    # every sync that takes in a change made elsewhere. ETags and cached figures are keyed on it.
    data_version = models.PositiveBigIntegerField(default=0, editable=False)
    # Digest of the suggestion rules and thresholds the last full sync used: when a deployment
    # changes them, the next sync re-derives the whole plan.
    suggestion_rules = models.CharField(max_length=64, blank=True, editable=False)
    members = models.ManyToManyField(
        settings.AUTH_USER_MODEL, through="PlanMembership", related_name="plans"
    )

    class Meta:
        ordering = ("number",)
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(number__gte=1) & Q(number__lte=MAX_PLAN_NUMBER),
                name="plan_number_positive",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"


class PlanRole(models.TextChoices):
    """A plan grant's role, and a person's effective rights on a plan (planning.access): owner
    (change it, its guests, delete it), editor, viewer. New grants are editor or viewer (guests
    outside the organisation); an owner grant comes from the plans made before organisations
    (its co-owners kept their rights)."""

    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


class PlanMembership(models.Model):
    """A plan grant: a guest's rights on one plan (docs/design.md "Organisations")."""

    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="memberships")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="plan_memberships"
    )
    role = models.CharField(
        max_length=10,
        choices=PlanRole.choices,
        default=PlanRole.VIEWER,
        error_messages=choice_messages(PlanRole),
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["plan", "user"], name="plan_membership_unique"),
            models.CheckConstraint(
                condition=Q(role__in=PlanRole.values), name="plan_membership_role_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.role} of {self.plan}"

    @property
    def can_edit(self) -> bool:
        return self.role in (PlanRole.OWNER, PlanRole.EDITOR)

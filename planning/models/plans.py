"""Plans, their numbers and their members."""

from __future__ import annotations

import uuid
from decimal import Decimal, InvalidOperation
from typing import Any, ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator, RegexValidator
from django.db import models
from django.db.models import Q

from planning.models.fields import (
    MAX_PLAN_NUMBER,
    MAX_YEAR,
    MIN_YEAR,
    NAME_VALIDATORS,
    NOT_NEGATIVE,
    YEAR_VALIDATORS,
    choice_messages,
    this_year,
)


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


def percent_validators(low: int, high: int) -> list[MinValueValidator | MaxValueValidator]:
    message = f"Enter a percentage between {low} and {high}."
    return [MinValueValidator(low, message=message), MaxValueValidator(high, message=message)]


# The money settings (docs/subsystems/money.md "Money"): their ranges, written once.
INDEX_RATE_RANGE = (-10, 50)
MARKUP_RANGE = (0, 100)
MARKUPS_MAX = 6
MARKUP_NAME_MAX = 40


def markup_percent_valid(percent: Decimal) -> bool:
    """A markup's percentage: from 0 to 100 (MARKUP_RANGE), at most two decimals. Compared
    before anything formats it, so a file's "1e999999999" is refused, not written out."""
    low, high = MARKUP_RANGE
    return percent.is_finite() and low <= percent <= high and percent == round(percent, 2)


def markups_validate(value: Any) -> None:
    """A plan's markups: a list of at most MARKUPS_MAX {"name", "percent"} objects, names of 1 to
    MARKUP_NAME_MAX characters told apart (case aside), percentages from 0 to 100 with at most
    two decimals (as the overhead and VAT columns hold them)."""
    if not isinstance(value, list):
        raise ValidationError("Markups are a list of names and percentages.")
    if len(value) > MARKUPS_MAX:
        raise ValidationError(f"At most {MARKUPS_MAX} markups.")
    seen: set[str] = set()
    for position, item in enumerate(value, start=1):
        if not isinstance(item, dict) or set(item) != {"name", "percent"}:
            raise ValidationError(f"Markup {position}: give a name and a percentage.")
        name = item["name"]
        if not isinstance(name, str) or not name.strip() or len(name) > MARKUP_NAME_MAX:
            raise ValidationError(
                f"Markup {position}: a name of 1 to {MARKUP_NAME_MAX} characters."
            )
        if ";" in name:  # a sheet's cell lists markups apart by ";"
            raise ValidationError(f"Markup {position}: a name without “;”.")
        if name.strip().casefold() in seen:
            raise ValidationError(f"Markup {position}: “{name}” is named twice.")
        seen.add(name.strip().casefold())
        try:
            percent = Decimal(str(item["percent"]))
        except (InvalidOperation, ValueError):
            percent = Decimal("NaN")
        if not markup_percent_valid(percent):
            low, high = MARKUP_RANGE
            raise ValidationError(
                f"Markup {position} ({name}): a percentage from {low} to {high}, "
                "with at most two decimals."
            )


def _percent_field(low: int, high: int, help_text: str) -> models.DecimalField:
    return models.DecimalField(
        max_digits=5,
        decimal_places=2,
        default=0,
        db_default=0,
        validators=percent_validators(low, high),
        help_text=help_text,
    )


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
    # Money (docs/subsystems/money.md "Money"): estimated costs are in the prices of
    # `price_base_year`; nominal figures index them by `index_rate_percent` a year and add overhead
    # and VAT.
    price_base_year = models.PositiveSmallIntegerField(
        default=this_year,
        validators=YEAR_VALIDATORS,
        help_text="The year whose prices the estimated costs are in.",
    )
    index_rate_percent = _percent_field(
        *INDEX_RATE_RANGE, "Yearly price rise (negative for a fall), in %."
    )
    # The markups, in the order they apply, each on the amount before it (docs/subsystems/money.md
    # "Markups"): [{"name": "Overhead", "percent": "10.00"}, ...]. Null for a plan
    # whose markups are its overhead and VAT alone (made before the list, or by an older client
    # or file that sets those two). `overhead_percent` and `vat_percent` are kept as the first
    # and last markup, for older clients (planning.plans.services.plans.plan_money_update writes
    # both).
    markups = models.JSONField(
        null=True, blank=True, validators=[markups_validate], help_text="Named percentages."
    )
    overhead_percent = _percent_field(*MARKUP_RANGE, "Added to every cost (fees, site), in %.")
    vat_percent = _percent_field(*MARKUP_RANGE, "Added after the overhead, in %.")
    annual_budget = models.DecimalField(
        max_digits=14,
        decimal_places=2,
        null=True,
        blank=True,
        validators=NOT_NEGATIVE,
        help_text="Today's prices; the planning page marks the years above it. Optional.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    last_synced_at = models.DateTimeField(null=True, blank=True)
    # The version of everything the plan's pages and lists are derived from: raised in the
    # transaction of every change of the plan's data or suggestions (planning.core.writes) and by
    # every sync that takes in a change made elsewhere. ETags and cached figures are keyed on it.
    data_version = models.PositiveBigIntegerField(default=0, editable=False)
    # Digest of the suggestion rules and thresholds the last full sync used: when a deployment
    # changes them, the next sync re-derives the whole plan.
    suggestion_rules = models.CharField(max_length=64, blank=True, editable=False)
    # The annual budget the stored budget_peak suggestions were derived under: a sync re-derives
    # rule 6 when it differs from `annual_budget`, however the budget was changed.
    suggestions_budget = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True, editable=False
    )
    # The building labels (planning.tree.selectors.building_labels, by building id) the stored
    # suggestions' texts name: a sync re-derives the suggestions of every building whose label
    # has changed since, by a rename of its own, of a building with the same name or of an
    # ancestor (docs/subsystems/suggestion-rules.md "Suggestion rules"). Null until the first sync
    # that stores them (nullable, so adding the column rebuilds no table, whose triggers SQLite
    # would drop).
    suggestions_labels = models.JSONField(null=True, blank=True, editable=False)
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
            models.CheckConstraint(
                condition=Q(price_base_year__gte=MIN_YEAR) & Q(price_base_year__lte=MAX_YEAR),
                name="plan_price_base_year_range",
            ),
            models.CheckConstraint(
                condition=Q(index_rate_percent__gte=INDEX_RATE_RANGE[0])
                & Q(index_rate_percent__lte=INDEX_RATE_RANGE[1]),
                name="plan_index_rate_range",
            ),
            *(
                models.CheckConstraint(
                    condition=Q(**{f"{name}__gte": MARKUP_RANGE[0]})
                    & Q(**{f"{name}__lte": MARKUP_RANGE[1]}),
                    name=f"plan_{name}_range",
                )
                for name in ("overhead_percent", "vat_percent")
            ),
            models.CheckConstraint(
                condition=Q(annual_budget__isnull=True) | Q(annual_budget__gte=0),
                name="plan_annual_budget_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"#{self.number} {self.name}"


class PlanRole(models.TextChoices):
    """A plan grant's role, and a person's effective rights on a plan (planning.web.access): owner
    (change it, its guests, delete it), editor, viewer. New grants are editor or viewer (guests
    outside the organisation); an owner grant comes from the plans made before organisations
    (its co-owners kept their rights)."""

    OWNER = "owner", "Owner"
    EDITOR = "editor", "Editor"
    VIEWER = "viewer", "Viewer"


class PlanMembership(models.Model):
    """A plan grant: a guest's rights on one plan
    (docs/subsystems/organisations.md "Rights on a plan")."""

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

"""A plan's fund and its named funding scenarios (docs/subsystems/funding.md). The figures they
give (cash flow, percent funded, solved contributions) are planning.figures.funding's."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.core.exceptions import ValidationError
from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from planning.models.fields import (
    MAX_YEAR,
    MIN_YEAR,
    NAME_VALIDATORS,
    NOT_NEGATIVE,
    YEAR_VALIDATORS,
    choice_messages,
    this_year,
)
from planning.models.plans import INDEX_RATE_RANGE, Plan, percent_validators

# The rules of a fund's figures, written once (the forms, the services and the API read them).
FUND_RATE_RANGE = (-10, 50)  # interest j and a contribution's yearly increase, % a year
HORIZON_RANGE = (10, 40)
HORIZON_DEFAULT = 30
SCENARIOS_MAX = 20  # named scenarios a plan keeps; the tab compares up to four of them
SCENARIO_NAME_MAX = 100
MONEY_DIGITS = 14  # as every amount of a plan: up to 999,999,999,999.99


class FundingGoal(models.TextChoices):
    """What a contribution is solved for (docs/subsystems/funding.md "Goals")."""

    BASELINE = "baseline", "Baseline: the balance never below zero"
    THRESHOLD_AMOUNT = "threshold_amount", "Threshold: the balance never below an amount"
    THRESHOLD_PERCENT = "threshold_percent", "Threshold: percent funded never below a share"
    FULL = "full", "Full: 100 % funded by the last year"


def _money(*, null: bool = False, signed: bool = False, help_text: str = "") -> models.DecimalField:
    field = models.DecimalField(
        max_digits=MONEY_DIGITS,
        decimal_places=2,
        null=null,
        blank=null,
        validators=[] if signed else NOT_NEGATIVE,
        help_text=help_text,
    )
    if not null:  # a null one's default is None already (so migrations do not see a change)
        field = models.DecimalField(
            max_digits=MONEY_DIGITS,
            decimal_places=2,
            default=0,
            validators=[] if signed else NOT_NEGATIVE,
            help_text=help_text,
        )
    return field


def _rate(
    *, null: bool = False, help_text: str, low_high: tuple[int, int] = FUND_RATE_RANGE
) -> models.DecimalField:
    return models.DecimalField(
        max_digits=5,
        decimal_places=2,
        null=null,
        blank=null,
        default=None if null else 0,
        validators=percent_validators(*low_high),
        help_text=help_text,
    )


def _horizon() -> models.PositiveSmallIntegerField:
    low, high = HORIZON_RANGE
    message = f"Enter a number of years from {low} to {high}."
    return models.PositiveSmallIntegerField(
        default=HORIZON_DEFAULT,
        validators=[
            MinValueValidator(low, message=message),
            MaxValueValidator(high, message=message),
        ],
        help_text=f"Years the figures cover, {low} to {high}.",
    )


def _checks(prefix: str) -> list[models.CheckConstraint]:
    low, high = FUND_RATE_RANGE
    return [
        models.CheckConstraint(
            condition=Q(start_year__gte=MIN_YEAR) & Q(start_year__lte=MAX_YEAR),
            name=f"{prefix}_start_year_range",
        ),
        models.CheckConstraint(
            condition=Q(interest_percent__gte=low) & Q(interest_percent__lte=high),
            name=f"{prefix}_interest_range",
        ),
        models.CheckConstraint(
            condition=Q(contribution_increase_percent__gte=low)
            & Q(contribution_increase_percent__lte=high),
            name=f"{prefix}_increase_range",
        ),
        models.CheckConstraint(
            condition=Q(horizon_years__gte=HORIZON_RANGE[0])
            & Q(horizon_years__lte=HORIZON_RANGE[1]),
            name=f"{prefix}_horizon_range",
        ),
        models.CheckConstraint(
            condition=Q(contribution__isnull=True) | Q(contribution__gte=0),
            name=f"{prefix}_contribution_not_negative",
        ),
    ]


class Fund(models.Model):
    """A plan's reserve: its balance at the start of `start_year`, interest j and the yearly
    contribution (`contribution` in the first year, raised by `contribution_increase_percent`
    each year; 0 % keeps it constant). The optional thresholds add the threshold goals to the
    goals the Funding tab solves."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.OneToOneField(Plan, on_delete=models.CASCADE, related_name="fund")
    opening_balance = _money(signed=True, help_text="The balance at the start of the start year.")
    start_year = models.PositiveSmallIntegerField(default=this_year, validators=YEAR_VALIDATORS)
    interest_percent = _rate(help_text="Interest the balance earns, % a year.")
    contribution = models.DecimalField(
        max_digits=MONEY_DIGITS,
        decimal_places=2,
        default=0,
        validators=NOT_NEGATIVE,
        help_text="Paid in the first year.",
    )
    contribution_increase_percent = _rate(help_text="The contribution rises by this each year.")
    horizon_years = _horizon()
    threshold_amount = _money(null=True, help_text="Optional: the lowest balance wanted.")
    threshold_percent = models.DecimalField(
        max_digits=5,
        decimal_places=2,
        null=True,
        blank=True,
        validators=percent_validators(0, 200),
        help_text="Optional: the lowest percent funded wanted.",
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints: ClassVar = [
            *_checks("fund"),
            models.CheckConstraint(
                condition=Q(threshold_percent__isnull=True)
                | (Q(threshold_percent__gte=0) & Q(threshold_percent__lte=200)),
                name="fund_threshold_percent_range",
            ),
        ]

    def __str__(self) -> str:
        return f"fund of plan {self.plan_id}"


class FundingScenario(models.Model):
    """A named what-if of a plan's funding: its own opening balance, interest, contribution (or a
    goal the contribution is solved for), horizon, and optionally another index rate (the costs'
    nominal prices) and an annual budget (the most the fund may receive in a year)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="funding_scenarios")
    name = models.CharField(max_length=SCENARIO_NAME_MAX, validators=NAME_VALIDATORS)
    opening_balance = _money(signed=True, help_text="The balance at the start of the start year.")
    start_year = models.PositiveSmallIntegerField(default=this_year, validators=YEAR_VALIDATORS)
    interest_percent = _rate(help_text="Interest the balance earns, % a year.")
    contribution = _money(null=True, help_text="Paid in the first year; empty with a goal.")
    contribution_increase_percent = _rate(help_text="The contribution rises by this each year.")
    goal = models.CharField(
        max_length=20,
        blank=True,
        choices=FundingGoal.choices,
        error_messages=choice_messages(FundingGoal),
        help_text="Solve the contribution for this goal instead.",
    )
    goal_threshold = models.DecimalField(
        max_digits=MONEY_DIGITS,
        decimal_places=2,
        null=True,
        blank=True,
        validators=NOT_NEGATIVE,
        help_text="A threshold goal's amount, or its percent funded.",
    )
    horizon_years = _horizon()
    index_rate_percent = _rate(
        null=True,
        low_high=INDEX_RATE_RANGE,
        help_text="Optional: another yearly price rise for the costs, in %.",
    )
    annual_budget = _money(
        null=True, help_text="Optional: the most the fund may receive in a year."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("name",)
        constraints: ClassVar = [
            *_checks("funding_scenario"),
            models.UniqueConstraint(fields=["plan", "name"], name="funding_scenario_name_unique"),
            models.CheckConstraint(
                condition=Q(contribution__isnull=False) | ~Q(goal=""),
                name="funding_scenario_contribution_or_goal",
            ),
            models.CheckConstraint(
                condition=Q(goal="") | Q(goal__in=FundingGoal.values),
                name="funding_scenario_goal_valid",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        """A scenario pays a contribution or solves one for its goal; a threshold goal names
        its threshold (a percent funded of at most 200 %)."""
        super().clean()
        if not self.goal and self.contribution is None:
            raise ValidationError({"contribution": "Give a contribution, or choose a goal."})
        threshold_goals = (FundingGoal.THRESHOLD_AMOUNT, FundingGoal.THRESHOLD_PERCENT)
        if self.goal in threshold_goals and self.goal_threshold is None:
            raise ValidationError({"goal_threshold": "A threshold goal needs its threshold."})
        if self.goal == FundingGoal.THRESHOLD_PERCENT and (self.goal_threshold or 0) > 200:
            raise ValidationError({"goal_threshold": "Enter a percent funded from 0 to 200."})

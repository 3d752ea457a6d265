"""Projects and the maintenance actions of a plan."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from planning.models.fields import (
    INTERVAL_RANGE,
    INTERVAL_VALIDATORS,
    MAX_YEAR,
    MIN_YEAR,
    NAME_VALIDATORS,
    NOT_NEGATIVE,
    PAST_DATE_VALIDATORS,
    PLANNED_YEAR_VALIDATORS,
    YEAR_VALIDATORS,
    choice_messages,
)
from planning.models.plans import Plan
from planning.models.structure import StructureNode


class Project(models.Model):
    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="projects")
    name = models.CharField(max_length=200, validators=NAME_VALIDATORS)
    year = models.PositiveSmallIntegerField(validators=YEAR_VALIDATORS)
    created_at = models.DateTimeField(auto_now_add=True)
    # When its name or year last changed: the projects list's `updated_since`
    # (docs/subsystems/integrator-api.md "Incremental reads").
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("year", "name")
        indexes: ClassVar = [
            models.Index(fields=["plan", "updated_at"], name="project_plan_updated"),
        ]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(year__gte=MIN_YEAR) & Q(year__lte=MAX_YEAR), name="project_year_range"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.year})"


class ActionKind(models.TextChoices):
    INSPECTION = "inspection", "Inspection"
    REPAIR = "repair", "Repair"
    REPLACEMENT = "replacement", "Replacement"


class ActionStatus(models.TextChoices):
    PLANNED = "planned", "Planned"
    DONE = "done", "Done"
    CANCELLED = "cancelled", "Cancelled"


class Action(models.Model):
    """A planned maintenance measure on one structure node."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="actions")
    node = models.ForeignKey(StructureNode, on_delete=models.CASCADE, related_name="actions")
    title = models.CharField(max_length=200, validators=NAME_VALIDATORS)
    kind = models.CharField(
        max_length=12, choices=ActionKind.choices, error_messages=choice_messages(ActionKind)
    )
    # Within Y - 50 .. Y + 100 (PLANNED_YEAR_VALIDATORS); the constraint below is the fixed outer
    # range the database can check.
    planned_year = models.PositiveSmallIntegerField(validators=PLANNED_YEAR_VALIDATORS)
    estimated_cost = models.DecimalField(
        max_digits=14, decimal_places=2, default=0, validators=NOT_NEGATIVE
    )
    # A recurring action occurs in planned_year (its next occurrence), + n, + 2n, ...
    interval_years = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        validators=INTERVAL_VALIDATORS,
        verbose_name="repeats every (years)",
        help_text="Leave empty for a one-off action.",
    )
    status = models.CharField(
        max_length=10,
        choices=ActionStatus.choices,
        default=ActionStatus.PLANNED,
        error_messages=choice_messages(ActionStatus),
    )
    project = models.ForeignKey(
        Project, null=True, blank=True, on_delete=models.SET_NULL, related_name="actions"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("planned_year", "title")
        indexes: ClassVar = [
            models.Index(fields=["plan", "planned_year"]),
            # the API's `updated_since` (platform_api.endpoints.actions)
            models.Index(fields=["plan", "updated_at"], name="action_plan_updated"),
        ]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(kind__in=ActionKind.values), name="action_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=ActionStatus.values), name="action_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(planned_year__gte=MIN_YEAR) & Q(planned_year__lte=MAX_YEAR),
                name="action_planned_year_range",
            ),
            models.CheckConstraint(
                condition=Q(estimated_cost__gte=0), name="action_estimated_cost_not_negative"
            ),
            models.CheckConstraint(
                condition=Q(interval_years__isnull=True)
                | (
                    Q(interval_years__gte=INTERVAL_RANGE[0])
                    & Q(interval_years__lte=INTERVAL_RANGE[1])
                ),
                name="action_interval_years_range",
            ),
        ]

    def __str__(self) -> str:
        return self.title


class Completion(models.Model):
    """Work done on an action (Mark done): when, at what cost against which estimate, by whom,
    and which occurrence (`planned_year`, the action's planned year before it was marked
    done)."""

    action = models.ForeignKey(Action, on_delete=models.CASCADE, related_name="completions")
    completed_on = models.DateField(validators=PAST_DATE_VALIDATORS)
    planned_year = models.PositiveSmallIntegerField(validators=YEAR_VALIDATORS)
    # The action's estimate when the work was done: what the actual cost is compared with, so a
    # later change of the estimate (a recurring action's next occurrence) leaves it be.
    estimated_cost = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True, validators=NOT_NEGATIVE
    )
    actual_cost = models.DecimalField(
        max_digits=14, decimal_places=2, null=True, blank=True, validators=NOT_NEGATIVE
    )
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("completed_on", "created_at")
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=Q(actual_cost__isnull=True) | Q(actual_cost__gte=0),
                name="completion_actual_cost_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.action} done {self.completed_on}"

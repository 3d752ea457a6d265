"""Suggestions and their vocabularies (docs/subsystems/suggestion-rules.md "Suggestion rules")."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone

from planning.models.plans import Plan
from planning.models.structure import StructureNode


class SuggestionType(models.TextChoices):
    MISSING_CODE = "missing_code", "Missing code"
    DEVIATION = "deviation", "Deviation"
    PROJECT_GROUPING = "project_grouping", "Project grouping"
    CONDITION = "condition", "Condition"
    OVERDUE = "overdue", "Overdue"
    BUDGET_PEAK = "budget_peak", "Budget peak"


class Severity(models.TextChoices):
    INFO = "info", "Info"
    WARNING = "warning", "Warning"
    CRITICAL = "critical", "Critical"


# A severity's place in the list order (critical first): what `Suggestion.severity_rank` stores.
SEVERITY_RANKS: dict[str, int] = {Severity.CRITICAL: 0, Severity.WARNING: 1, Severity.INFO: 2}


class SuggestionStatus(models.TextChoices):
    OPEN = "open", "Open"
    DISMISSED = "dismissed", "Dismissed"
    RESOLVED = "resolved", "Resolved"


class Resolution(models.TextChoices):
    APPLIED = "applied", "Applied"
    AUTO = "auto", "Resolved automatically"


class DismissReason(models.TextChoices):
    NOT_APPLICABLE = "not_applicable", "Not applicable"
    ACCEPTED = "accepted", "Accepted as is"
    PLANNED_ELSEWHERE = "planned_elsewhere", "Planned elsewhere"
    FALSE_POSITIVE = "false_positive", "False positive"


class Suggestion(models.Model):
    """A suggestion on a plan. `status`, `fingerprint` and the dismissal/resolution fields are
    internal: the API record carries none of them (spec 2.3)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(
        Plan, on_delete=models.CASCADE, related_name="suggestions", db_index=False
    )
    suggestion_type = models.CharField(max_length=20, choices=SuggestionType.choices)
    severity = models.CharField(max_length=10, choices=Severity.choices)
    title = models.CharField(max_length=300)
    body = models.TextField()
    structure_node = models.ForeignKey(
        StructureNode, on_delete=models.CASCADE, related_name="suggestions"
    )
    recommended_action_json = models.JSONField(default=dict)
    created_at = models.DateTimeField(default=timezone.now)
    status = models.CharField(
        max_length=10, choices=SuggestionStatus.choices, default=SuggestionStatus.OPEN
    )
    fingerprint = models.CharField(max_length=200)
    updated_at = models.DateTimeField(default=timezone.now)
    dismissed_at = models.DateTimeField(null=True, blank=True)
    dismissed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="dismissed_suggestions",
    )
    dismiss_reason = models.CharField(max_length=20, choices=DismissReason.choices, blank=True)
    dismiss_comment = models.CharField(max_length=280, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    resolution = models.CharField(max_length=10, choices=Resolution.choices, blank=True)
    # The list order is severity (critical first), created_at, id; a stored rank lets one index
    # serve the order, the filters' counts and keyset pages.
    severity_rank = models.GeneratedField(
        expression=models.Case(
            models.When(severity=Severity.CRITICAL, then=0),
            models.When(severity=Severity.WARNING, then=1),
            default=2,
        ),
        output_field=models.PositiveSmallIntegerField(),
        db_persist=True,
    )

    class Meta:
        ordering = ("created_at", "id")
        # (plan, fingerprint) and the list order's index both lead with the plan, so the plan
        # column needs no index of its own: each index costs every sync's inserts.
        indexes: ClassVar = [
            models.Index(
                fields=["plan", "status", "severity_rank", "created_at", "id"],
                name="suggestion_list_order",
            ),
        ]
        constraints: ClassVar = [
            models.UniqueConstraint(
                fields=["plan", "fingerprint"], name="suggestion_plan_fingerprint_unique"
            ),
            models.CheckConstraint(
                condition=Q(suggestion_type__in=SuggestionType.values),
                name="suggestion_type_valid",
            ),
            models.CheckConstraint(
                condition=Q(severity__in=Severity.values), name="suggestion_severity_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=SuggestionStatus.values), name="suggestion_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.suggestion_type}: {self.title}"


class SuggestionMove(models.Model):
    """A suggestion's severity changed, so its place in the list order moved: the rank it had
    and the plan's `data_version` the change started from (the sync's write raises it by one).
    A walk of the list pages keeps each row at the place it had when the walk began by reading
    these (planning.suggestions.walk, docs/adr/0018-walks-keep-their-order.md); they are kept
    only as long as a walk lasts."""

    id = models.BigAutoField(primary_key=True)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="+", db_index=False)
    # No foreign key: a move outlives nothing it needs, and a deleted suggestion leaves no walk.
    suggestion_id = models.UUIDField()
    rank_before = models.PositiveSmallIntegerField()
    version_before = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["plan", "version_before"], name="suggestion_move_walk"),
            models.Index(fields=["plan", "created_at"], name="suggestion_move_age"),
        ]

    def __str__(self) -> str:
        return f"{self.suggestion_id} from rank {self.rank_before} at v{self.version_before}"

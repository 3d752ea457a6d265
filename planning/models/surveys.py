"""Condition surveys of components and the photos and documents attached to nodes and actions
(docs/subsystems/surveys-and-files.md "Surveys and files")."""

from __future__ import annotations

import datetime
import uuid
from typing import ClassVar

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import MaxLengthValidator, MaxValueValidator, MinValueValidator
from django.db import models
from django.db.models import Q

from planning.models.actions import Action
from planning.models.fields import EARLIEST_DATE, today
from planning.models.plans import Plan
from planning.models.structure import (
    CONSEQUENCE_MESSAGE,
    GRADE_MESSAGE,
    ConditionConsequence,
    ConditionGrade,
    StructureNode,
)

SURVEY_NOTE_MAX = 2000


def validate_assessed_on(value: datetime.date) -> None:
    """A survey is dated from 1950 to tomorrow (UTC): a phone ahead of UTC is already on
    tomorrow's date for part of the day."""
    if value < EARLIEST_DATE:
        raise ValidationError(f"Enter a date from {EARLIEST_DATE} on.", code="min_value")
    if value > today() + datetime.timedelta(days=1):
        raise ValidationError("Enter a date no later than today.", code="max_value")


class ConditionSurvey(models.Model):
    """One assessment of a component: its grade, the consequence of its failure, a note, who and
    when. Every survey is kept; the latest (by `assessed_on`, then `created_at`) is the
    component's current condition, copied onto the node by
    planning.plans.services.surveys.survey_record."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="surveys")
    node = models.ForeignKey(StructureNode, on_delete=models.CASCADE, related_name="surveys")
    grade = models.PositiveSmallIntegerField(
        "condition grade",
        choices=ConditionGrade.choices,
        validators=[MaxValueValidator(3, message=GRADE_MESSAGE)],
        error_messages={"invalid_choice": GRADE_MESSAGE, "null": GRADE_MESSAGE},
    )
    consequence = models.PositiveSmallIntegerField(
        "consequence grade",
        null=True,
        blank=True,
        choices=ConditionConsequence.choices,
        validators=[MaxValueValidator(3, message=CONSEQUENCE_MESSAGE)],
        error_messages={"invalid_choice": CONSEQUENCE_MESSAGE},
    )
    note = models.TextField(
        blank=True,
        default="",
        max_length=SURVEY_NOTE_MAX,
        validators=[
            MaxLengthValidator(
                SURVEY_NOTE_MAX, message=f"Keep the note to {SURVEY_NOTE_MAX:,} characters."
            )
        ],
    )
    assessed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    assessed_on = models.DateField(validators=[validate_assessed_on])
    created_at = models.DateTimeField(auto_now_add=True)
    # The device's key for one entry, so an entry sent twice (an offline queue replayed) is
    # recorded once. Null, not "", for a survey without one: the unique constraint skips nulls.
    idempotency_key = models.CharField(max_length=100, null=True, blank=True)  # noqa: DJ001

    class Meta:
        ordering = ("-assessed_on", "-created_at")
        indexes: ClassVar = [
            models.Index(fields=["node", "-assessed_on", "-created_at"], name="survey_node_latest")
        ]
        constraints: ClassVar = [
            models.CheckConstraint(condition=Q(grade__lte=3), name="survey_grade_range"),
            models.CheckConstraint(
                condition=Q(consequence__isnull=True) | Q(consequence__lte=3),
                name="survey_consequence_range",
            ),
            models.UniqueConstraint(
                fields=["plan", "idempotency_key"],
                condition=Q(idempotency_key__isnull=False),
                name="survey_idempotency_key_unique",
            ),
        ]

    def __str__(self) -> str:
        return f"grade {self.grade} of {self.node_id} on {self.assessed_on}"

    @property
    def risk(self) -> int | None:
        """Grade x consequence (0-9), when the consequence is known."""
        if self.consequence is None:
            return None
        return self.grade * self.consequence


class AttachmentKind(models.TextChoices):
    IMAGE = "image", "Photo"
    DOCUMENT = "document", "Document"


class Attachment(models.Model):
    """A photo or document on a node or an action (exactly one of them), kept in Django's
    storage under a name of its own (never the uploader's file name) and served only through
    the app (planning.web.views.attachments). Its files leave the storage when the row is
    deleted, by any path, once the transaction commits (planning.plans.services.attachments)."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="attachments")
    node = models.ForeignKey(
        StructureNode,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="attachments",
    )
    action = models.ForeignKey(
        Action, null=True, blank=True, on_delete=models.CASCADE, related_name="attachments"
    )
    survey = models.ForeignKey(
        ConditionSurvey,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="attachments",
    )
    kind = models.CharField(max_length=10, choices=AttachmentKind.choices)
    file = models.FileField(max_length=300)
    thumbnail = models.FileField(max_length=300, null=True, blank=True)
    original_name = models.CharField(max_length=255)
    content_type = models.CharField(max_length=100)
    size = models.PositiveBigIntegerField(validators=[MinValueValidator(1)])
    uploaded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-created_at",)
        indexes: ClassVar = [
            models.Index(fields=["node", "-created_at"], name="attachment_node_newest"),
            models.Index(fields=["action", "-created_at"], name="attachment_action_newest"),
        ]
        constraints: ClassVar = [
            models.CheckConstraint(
                condition=(Q(node__isnull=False) & Q(action__isnull=True))
                | (Q(node__isnull=True) & Q(action__isnull=False)),
                name="attachment_node_or_action",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=AttachmentKind.values), name="attachment_kind_valid"
            ),
        ]

    def __str__(self) -> str:
        return self.original_name

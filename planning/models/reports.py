"""Board reports of a plan, printed by background jobs
(docs/subsystems/board-report.md "Board report")."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from jobs.models import Leased
from planning.models.plans import Plan


class PlanReportStatus(models.TextChoices):
    QUEUED = "queued", "Waiting for a worker"
    RUNNING = "running", "Being made"
    DONE = "done", "Ready"
    FAILED = "failed", "Not made: an error on our side"


class PlanReport(Leased):
    """A board report asked for on the planning page (or its job's outcome): the PDF is kept
    here, where every app server can serve it, until newer reports of the plan replace it
    (REPORTS_KEPT_PER_PLAN). The running job holds the row's lease and writes its step and
    percent to the row."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="reports")
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="plan_reports",
    )
    prices = models.CharField(max_length=10)  # planning.figures.budget.TODAY or NOMINAL
    status = models.CharField(
        max_length=10, choices=PlanReportStatus.choices, default=PlanReportStatus.QUEUED
    )
    step = models.CharField(max_length=100, blank=True)
    percent = models.PositiveSmallIntegerField(default=0)
    attempts = models.PositiveIntegerField(default=0)
    pdf = models.BinaryField(default=b"")
    size = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(default=timezone.now)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta(Leased.Meta):
        indexes: ClassVar = [
            *Leased.Meta.indexes,
            models.Index(fields=["plan", "-created_at"], name="plan_report_newest"),
        ]

    def __str__(self) -> str:
        return f"report {self.pk} of plan {self.plan_id} ({self.status})"

    @property
    def finished(self) -> bool:
        return self.status in (PlanReportStatus.DONE, PlanReportStatus.FAILED)

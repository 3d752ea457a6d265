"""Adopted versions of a plan (docs/subsystems/versions.md "Versions")."""

from __future__ import annotations

import uuid
from typing import ClassVar

from django.conf import settings
from django.db import models
from django.utils import timezone

from planning.models.fields import PAST_DATE_VALIDATORS
from planning.models.plans import Plan


class PlanVersion(models.Model):
    """The plan as it stood when its board adopted it: a name, the decision date, a note and a
    snapshot of its nodes, actions and projects (VersionNode, VersionAction, VersionProject),
    which keep the ids of the rows they copy and no foreign key to them, so no later edit,
    move, deletion or import of the plan reaches them. Nothing in the app updates a version
    or its rows; a version goes only with its plan."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    plan = models.ForeignKey(Plan, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()  # 1, 2, ... within the plan
    name = models.CharField(max_length=200)
    decided_on = models.DateField(validators=PAST_DATE_VALIDATORS)
    note = models.TextField(blank=True, max_length=2000)
    adopted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    adopted_by_label = models.CharField(max_length=300, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    # The plan's money settings then, so the version's figures read as they did.
    currency = models.CharField(max_length=3)
    node_count = models.PositiveIntegerField(default=0)
    action_count = models.PositiveIntegerField(default=0)
    project_count = models.PositiveIntegerField(default=0)
    total_cost = models.DecimalField(max_digits=16, decimal_places=2, default=0)  # live actions

    class Meta:
        constraints: ClassVar = [
            models.UniqueConstraint(fields=["plan", "number"], name="plan_version_number_once")
        ]
        ordering = ("plan", "-number")

    def __str__(self) -> str:
        return f"version {self.number} “{self.name}” of plan {self.plan_id}"


class VersionNode(models.Model):
    id = models.BigAutoField(primary_key=True)
    version = models.ForeignKey(PlanVersion, on_delete=models.CASCADE, related_name="nodes")
    node_id = models.UUIDField()
    parent_id = models.UUIDField(null=True)
    building_id = models.UUIDField(null=True)
    name = models.CharField(max_length=200)
    kind = models.CharField(max_length=20)
    path = models.TextField()

    class Meta:
        indexes: ClassVar = [models.Index(fields=["version", "node_id"], name="version_node_id")]

    def __str__(self) -> str:
        return self.name


class VersionAction(models.Model):
    id = models.BigAutoField(primary_key=True)
    version = models.ForeignKey(PlanVersion, on_delete=models.CASCADE, related_name="actions")
    action_id = models.UUIDField()
    node_id = models.UUIDField()
    building_id = models.UUIDField(null=True)
    title = models.CharField(max_length=200)
    kind = models.CharField(max_length=20)
    planned_year = models.PositiveSmallIntegerField()
    estimated_cost = models.DecimalField(max_digits=14, decimal_places=2)
    interval_years = models.PositiveSmallIntegerField(null=True)
    status = models.CharField(max_length=20)
    project_id = models.UUIDField(null=True)

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["version", "action_id"], name="version_action_id")
        ]

    def __str__(self) -> str:
        return self.title


class VersionProject(models.Model):
    id = models.BigAutoField(primary_key=True)
    version = models.ForeignKey(PlanVersion, on_delete=models.CASCADE, related_name="projects")
    project_id = models.UUIDField()
    name = models.CharField(max_length=200)
    year = models.PositiveSmallIntegerField(null=True)

    def __str__(self) -> str:
        return self.name

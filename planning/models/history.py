"""The change history of plans (docs/subsystems/history.md "History")."""

from __future__ import annotations

from typing import ClassVar

from django.db import models


class HistoryActorKind(models.TextChoices):
    USER = "user", "Person"
    SERVICE = "service", "Service account"
    IMPORT = "import", "Import"
    SYSTEM = "system", "System"


class HistoryEntity(models.TextChoices):
    PLAN = "plan", "Plan"
    NODE = "node", "Node"
    ACTION = "action", "Action"
    PROJECT = "project", "Project"
    GRANT = "grant", "Guest"
    COMPLETION = "completion", "Completion"
    SUGGESTION = "suggestion", "Suggestion"
    ATTACHMENT = "attachment", "File"


class HistoryOperation(models.TextChoices):
    CREATE = "create", "added"
    UPDATE = "update", "changed"
    DELETE = "delete", "deleted"
    IMPORT = "import", "imported"


class HistoryEntry(models.Model):
    """One change of a plan's data: when, who, what (entity, its fields before and after).

    Written by the history triggers of planning.db (every path: services, the admin,
    `QuerySet.update()`, raw SQL) with the actor the app put in the transaction's context
    (planning.core.actor), or `system` when there is none; an import writes one entry of its own
    and its rows none. `plan_id` is no foreign key: a plan's entries go with it in
    `plan_delete`. `changes` maps each field to [before, after] (null on the side that did not
    exist)."""

    id = models.BigAutoField(primary_key=True)
    plan_id = models.UUIDField()
    at = models.DateTimeField()
    actor_kind = models.CharField(max_length=10, choices=HistoryActorKind.choices)
    actor_id = models.CharField(max_length=64, blank=True)
    actor_label = models.CharField(max_length=300, blank=True)
    entity = models.CharField(max_length=12, choices=HistoryEntity.choices)
    entity_uuid = models.UUIDField(null=True)
    entity_int = models.BigIntegerField(null=True)
    subject_uuid = models.UUIDField(null=True)  # a completion's action
    entity_label = models.CharField(max_length=300, blank=True)
    operation = models.CharField(max_length=6, choices=HistoryOperation.choices)
    changes = models.JSONField(default=dict)
    summary = models.CharField(max_length=300, blank=True)

    class Meta:
        indexes: ClassVar = [
            models.Index(fields=["plan_id", "-id"], name="history_plan_newest"),
            models.Index(fields=["entity_uuid"], name="history_entity"),
            models.Index(fields=["subject_uuid"], name="history_subject"),
        ]

    def __str__(self) -> str:
        return f"{self.entity} {self.operation} of plan {self.plan_id} at {self.at:%Y-%m-%d %H:%M}"


class HistoryContext(models.Model):
    """SQLite only: the actor of the write transaction in progress, one row read by the history
    triggers (PostgreSQL keeps it in the transaction's `maintplan.actor` setting). SQLite runs
    one write transaction at a time, and planning.core.actor writes and deletes the row inside
    it."""

    id = models.PositiveSmallIntegerField(primary_key=True)
    actor = models.TextField()

    def __str__(self) -> str:
        return self.actor

"""The change log the suggestion sync reads
(docs/subsystems/sync.md "Incremental: the change log")."""

from __future__ import annotations

from django.db import models


class PlanChange(models.Model):
    """A change to a plan's nodes or actions, or to the code catalog, that the plan's next
    suggestion sync has not yet taken into account (docs/subsystems/sync.md
    "Incremental: the change log").

    Written only by the change-log triggers (planning.db) and claimed by the sync
    (planning.suggestions.sync.changes). A node row carries the node's parent, kind, stored
    building and path before the change (`old_kind` null: the node is new); an action row its
    node and planned year, once as before and once as after the change. `plan_id` is no foreign
    key: a deleted plan's rows are written while its rows go, and `plan_delete` removes them
    (`changes_discard`).
    """

    id = models.BigAutoField(primary_key=True)
    plan_id = models.UUIDField(db_index=True)
    node_id = models.UUIDField(null=True)
    action_id = models.UUIDField(null=True)
    year = models.IntegerField(null=True)
    old_parent_id = models.UUIDField(null=True)
    old_kind = models.CharField(max_length=10, null=True)  # noqa: DJ001 - null means "new"
    old_building_id = models.UUIDField(null=True)
    old_path = models.TextField(null=True)  # noqa: DJ001 - null: a new node, or an action row
    catalog = models.BooleanField(default=False)

    def __str__(self) -> str:
        return f"change {self.pk} of plan {self.plan_id}"

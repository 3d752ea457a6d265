"""The changes a write can make to a suggestion, as `plan_changed` (planning.core.writes) carries
them to its receivers (the webhooks' outbox, docs/subsystems/webhooks.md)."""

from __future__ import annotations

from django.db import models


class SuggestionChange(models.TextChoices):
    OPENED = "opened"  # a new suggestion
    UPDATED = "updated"  # an open suggestion's content changed
    RESOLVED = "resolved"  # no longer wanted (auto) or applied
    DISMISSED = "dismissed"  # dismissed by a planner; later syncs leave it so
    REOPENED = "reopened"  # a resolved suggestion wanted again, or a dismissed one restored

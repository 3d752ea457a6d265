"""Where suggestion changes leave the planning app (docs/design.md "Webhooks").

Every write that changes a suggestion's status or content calls `suggestion_changes_publish`
inside its own transaction, after its writes: the sync (opened, updated, resolved, reopened),
Apply (resolved), Dismiss (dismissed) and Restore (reopened). The listener, named by dotted
path in the `SUGGESTION_CHANGES_HOOK` setting (the webhooks app's outbox, which sits above
planning and so cannot be imported from here), records what it needs in that same transaction:
a rolled-back change publishes nothing, a committed one is never lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol
from uuid import UUID

from django.conf import settings
from django.db import models
from django.utils.module_loading import import_string


class SuggestionChange(models.TextChoices):
    OPENED = "opened"  # a new suggestion
    UPDATED = "updated"  # an open suggestion's content changed
    RESOLVED = "resolved"  # no longer wanted (auto) or applied
    DISMISSED = "dismissed"  # dismissed by a planner; later syncs leave it so
    REOPENED = "reopened"  # a resolved suggestion wanted again, or a dismissed one restored


class SuggestionChangesHook(Protocol):
    def __call__(self, *, plan_id: Any, changes: Sequence[tuple[str, UUID]]) -> None: ...


@cache
def _hook(path: str) -> SuggestionChangesHook:
    hook: SuggestionChangesHook = import_string(path)
    return hook


def suggestion_changes_publish(*, plan_id: Any, changes: Sequence[tuple[str, UUID]]) -> None:
    """Hands the changes of one write to the listener; call it inside the writing transaction,
    after the writes (the listener reads the suggestions as they now are).

    `changes`: `(SuggestionChange value, suggestion id)` pairs of one plan, in the order they
    happened; each suggestion at most once. No changes, or no listener configured: nothing.
    """
    path = settings.SUGGESTION_CHANGES_HOOK
    if changes and path:
        _hook(path)(plan_id=plan_id, changes=changes)

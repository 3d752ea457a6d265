"""The one path every change of a plan takes (docs/subsystems/writes.md).

    with plan_write(plan_id=plan.pk, data_changed=True) as write:
        ...  # the service's writes
        write.suggestions_changed([(SuggestionChange.DISMISSED, suggestion.pk)])

`plan_write` opens a transaction and locks the plan's row (`plan_lock`, the only
`SELECT ... FOR UPDATE` on a plan); the service writes; then, when the write changed anything,
it raises `Plan.data_version` and sends `plan_changed` once, still inside the transaction, so a
receiver's own writes commit or roll back with the change. Receivers (connected in their app's
`AppConfig.ready()`): the sync queue (planning.tasks, on commit, data changes only) and the
webhooks' outbox (suggestion changes). A write that raises changes, sends and queues nothing.

A `plan_write` opened directly inside another one for the same plan (Apply calls
`action_update`) joins it in a savepoint: when it succeeds its changes are the outer write's, so
one change sends one signal and queues at most one sync. One opened inside a caller's own
`atomic()` within the outer write finishes on its own, so a rollback of that block takes its
signal and version with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any
from uuid import UUID

from django.db import transaction
from django.db.models import F
from django.dispatch import Signal

from planning.core.actor import history_context
from planning.models import Plan

# Sent by `plan_write` inside the transaction of a change, with `plan_id`, `data_changed`
# (bool: the plan's own data changed, so its suggestions may have to follow),
# `suggestion_changes` (tuple of (SuggestionChange value, suggestion id), in order, each
# suggestion at most once) and `first_sync` (bool: the write is the plan's first sync, which
# derived every suggestion, so its changes are the whole list and nothing an integrator held).
plan_changed = Signal()

# The writes open in this context, by plan id (never mutated: each write sets a new mapping).
_open_writes: ContextVar[Mapping[str, PlanWrite]] = ContextVar(
    "_open_writes", default=MappingProxyType({})
)


def plan_lock(*, plan_id: Any, fields: Sequence[str] = ()) -> tuple[Any, ...]:
    """Locks the plan's row until the current transaction ends and returns `fields` of it as
    locked. Every writer of a plan takes this lock first, then the rows it changes, so two
    writers (a sync and an Apply, two node moves) wait for each other instead of deadlocking.
    Raises Plan.DoesNotExist when the plan is gone."""
    locked = Plan.objects.select_for_update().filter(pk=plan_id).values_list("pk", *fields)
    return tuple(locked.get()[1:])


@dataclass
class PlanWrite:
    """What one write did to its plan; read by `plan_write` when the service is done."""

    plan_id: Any
    data_changed: bool
    locked: tuple[Any, ...] = ()
    suggestion_changes: list[tuple[str, UUID]] = field(default_factory=list)
    # Further columns of the plan row, set in the same UPDATE as the version (the sync's).
    plan_updates: dict[str, Any] = field(default_factory=dict)
    version_raised: bool = False
    # The plan's first sync (planning.suggestions.sync.run): its changes open the whole list.
    first_sync: bool = False
    # How many savepoints were open inside this write's transaction when it began: a write of
    # the same plan opened directly inside it (one savepoint deeper) joins it.
    depth: int = 0

    def suggestions_changed(self, changes: Iterable[tuple[str, UUID]]) -> None:
        """Records suggestion changes of this write, `(SuggestionChange value, id)` pairs."""
        self.suggestion_changes.extend((str(change), pk) for change, pk in changes)

    def version_raise(self) -> None:
        """Raises the version although this write changed neither data nor suggestions (the
        sync, when it took in data changes made elsewhere: a moved node changes what a subtree
        filter lists)."""
        self.version_raised = True

    @property
    def changed(self) -> bool:
        return self.data_changed or bool(self.suggestion_changes) or self.version_raised

    def _join(self, inner: PlanWrite) -> None:
        self.data_changed |= inner.data_changed
        self.suggestion_changes.extend(inner.suggestion_changes)
        self.plan_updates.update(inner.plan_updates)
        self.version_raised |= inner.version_raised
        self.first_sync |= inner.first_sync

    def _finish(self) -> None:
        updates = dict(self.plan_updates)
        if self.changed:
            updates["data_version"] = F("data_version") + 1
        if updates:
            Plan.objects.filter(pk=self.plan_id).update(**updates)
        if self.changed:
            plan_changed.send(
                sender=Plan,
                plan_id=self.plan_id,
                data_changed=self.data_changed,
                suggestion_changes=tuple(self.suggestion_changes),
                first_sync=self.first_sync,
            )


@contextmanager
def plan_write(
    *, plan_id: Any, data_changed: bool, fields: Sequence[str] = ()
) -> Iterator[PlanWrite]:
    """A transaction holding the plan's lock for one change (see the module docstring).

    `data_changed`: the service changes the plan's data (nodes, actions, projects, the plan's
    own fields); False for writes to suggestions only (Dismiss, Restore, the sync) and for
    memberships, which no suggestion depends on. A service that finds it has nothing to do may
    set `write.data_changed = False`. `fields`: columns of the plan read under the lock, in
    `write.locked`.
    """
    key = str(plan_id)
    opened = _open_writes.get()
    outer = opened.get(key)
    with transaction.atomic(), history_context():
        write = PlanWrite(
            plan_id=plan_id,
            data_changed=data_changed,
            locked=plan_lock(plan_id=plan_id, fields=fields),
            depth=len(transaction.get_connection().savepoint_ids),
        )
        if outer is not None and write.depth == outer.depth + 1:
            yield write
            outer._join(write)
            return
        # Not directly inside a write of this plan (or inside one through a savepoint of the
        # caller's, which may roll back on its own): this write finishes on its own.
        token = _open_writes.set({**opened, key: write})
        try:
            yield write
        finally:
            _open_writes.reset(token)
        write._finish()  # closed first: a receiver's own write to the plan is a write of its own

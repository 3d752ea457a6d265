"""Who changes a plan, as the history triggers see it (docs/subsystems/history.md).

The history triggers (planning.db) write a HistoryEntry for every change of a plan's data; what they
cannot know is who made it. The app says so in two steps:

- `accounts.actor.acting(actor)`: who acts in this context (a person or a service account in
  a request, set by `accounts.middleware.ActorMiddleware`; an import);
- `history_context()`: inside a transaction, hands the current actor to the database until the
  block ends: PostgreSQL's transaction-local setting `maintplan.actor`, or on SQLite the one
  row of HistoryContext (SQLite runs one write transaction at a time). `planning.core.writes.
  plan_write` opens it for every change, as do plan creation and the admin.

A change made outside such a block (raw SQL, a shell) is recorded with the actor `system`. A
`quiet` actor writes no entries: an import records one entry of its own, and a deleted plan's
entries go with it.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import asdict, replace

from django.db import connection, transaction

from accounts.actor import SYSTEM, Actor, acting, current_actor


@contextmanager
def history_quiet() -> Iterator[None]:
    """The current actor, writing no entries (a deleted plan's rows, an import's rows)."""
    actor = current_actor() or Actor(kind=SYSTEM)
    with acting(replace(actor, quiet=True)):
        yield


def _apply(actor: Actor | None) -> None:
    value = json.dumps(asdict(actor)) if actor is not None else ""
    with connection.cursor() as cursor:
        if connection.vendor == "postgresql":
            cursor.execute("SELECT set_config('maintplan.actor', %s, true)", [value])
        elif actor is None:  # the table of HistoryContext
            cursor.execute("DELETE FROM planning_historycontext WHERE id = 1")
        else:
            cursor.execute(
                "INSERT OR REPLACE INTO planning_historycontext (id, actor) VALUES (1, %s)",
                [value],
            )


# What this context handed to the database: None when nothing, else (actor,).
_applied: ContextVar[tuple[Actor | None] | None] = ContextVar("history_applied", default=None)


@contextmanager
def history_context() -> Iterator[None]:
    """Inside a transaction: the history triggers see the current actor until the block ends,
    then the outer block's again (or none). On an error nothing is written back: the
    transaction, or its savepoint, rolls the setting back with everything else."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("history_context() needs a transaction")
    previous = _applied.get()
    actor = current_actor()
    if (actor is None and previous is None) or (previous is not None and previous[0] == actor):
        yield  # the database already has this actor (none: the system): no query
        return
    _apply(actor)
    token = _applied.set((actor,))
    try:
        yield
    except BaseException:
        _applied.reset(token)
        raise
    _applied.reset(token)
    if previous is None and connection.vendor == "postgresql" and _outermost():
        return  # the transaction ends with this block, and the setting with it
    _apply(previous[0] if previous is not None else None)


def _outermost() -> bool:
    """True when the innermost atomic block is the transaction itself (no block around it)."""
    return len(connection.atomic_blocks) == 1

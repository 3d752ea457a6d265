"""Figures of the action-planning view kept in the cache under the plan's `suggestions_version`:
the budget (planned cost per building and year), the open count and the filter counts.

Why: on a 20,000-node, 100,000-action plan (PostgreSQL) the budget reads every planned action
of the year range (170 ms) and each count scans the 37,000 open suggestions (about 40 ms each);
the page asked for all of them on every visit although they change only when the plan's data or
its suggestions do.

Why it is never stale: the page syncs first, and every sync that takes in a change of the
plan's nodes or actions (any insert, update or delete, recorded by the triggers of migration
0006) raises `suggestions_version`, as does every write to the suggestions (Apply, Dismiss,
Restore). A figure kept under (plan, version, its parameters) is therefore what computing it
afresh would give. A change committed between the sync and the read is already in the figure
and raises the version at the next visit's sync, so a figure is never older than one visit.

The `default` cache: Redis when `REDIS_URL` is set (shared by every app server), else memory.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any, TypeVar

from django.core.cache import cache

T = TypeVar("T")
# A plan nobody looks at any more gives its memory back.
CACHE_SECONDS = 30 * 60
# Bump when a cached figure changes shape: entries of the old shape are then never read.
FIGURES_FORMAT = 2


def plan_figure(
    *, plan_id: Any, version: int, name: str, parts: tuple[Any, ...], compute: Callable[[], T]
) -> T:
    """`compute()`, or the value it gave for this plan, version and parameters."""
    digest = hashlib.sha256(repr(parts).encode()).hexdigest()[:24]
    key = f"plan-figure:{FIGURES_FORMAT}:{name}:{plan_id}:{version}:{digest}"
    found: T | None = cache.get(key)
    if found is None:
        found = compute()
        cache.set(key, found, CACHE_SECONDS)
    return found

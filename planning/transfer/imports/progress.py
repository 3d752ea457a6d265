"""Hooks into a running import: how far the checks and the writes are, and the moment the new
plan's rows are in (inside the import's transaction). The web import's job reports to the cache
(planning.transfer.imports.jobs); the commands draw a progress bar on a terminal."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from planning.models import Plan

# Rows between two reports: often enough for a bar that moves, rare enough to cost nothing.
PROGRESS_STEP = 1000


class ImportObserver:
    """Does nothing; subclasses override what they need."""

    def checked(self, done: int, total: int) -> None:
        """`done` of `total` rows (nodes, then actions) have been checked."""

    def written(self, done: int, total: int) -> None:
        """`done` of `total` rows have been written (not yet committed)."""

    def plan_written(self, plan: Plan) -> None:
        """Every row of `plan` is written; runs inside the import's transaction, so raising
        here rolls the whole plan back."""

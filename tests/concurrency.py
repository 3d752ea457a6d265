"""Races for the PostgreSQL-only concurrency tests: calls run at once, each in its own thread
and database connection."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from django.db import connections


def race(*calls: Callable[[], Any], refused: tuple[type[Exception], ...]) -> list[str]:
    """Runs the calls at once; their outcomes, sorted: "done", or "refused" for one that
    raised one of `refused` (anything else fails the test through the missing outcome)."""
    barrier = threading.Barrier(len(calls))
    outcomes: list[str] = []

    def run(call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            call()
            outcomes.append("done")
        except refused:
            outcomes.append("refused")
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(call,)) for call in calls]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    return sorted(outcomes)

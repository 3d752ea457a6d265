"""Races for the PostgreSQL-only concurrency tests: calls run at once, each in its own thread
and database connection."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from django.db import connection, connections, transaction


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


def behind_a_lock(holder: Callable[[], Any], waiter: Callable[[], Any]) -> Any:
    """Runs `holder` in a transaction of its own that stays open until `waiter`, started in
    another thread and connection once `holder` is done, waits on a lock (PostgreSQL's
    pg_locks shows a lock not granted; at most 10 s), then commits it; returns what `waiter`
    returned once it went on. Two transactions in a known order, not a race left to timing."""
    held, done = threading.Event(), threading.Event()
    results: list[Any] = []
    failures: list[BaseException] = []

    def hold() -> None:
        try:
            with transaction.atomic():
                holder()
                held.set()
                deadline = time.monotonic() + 10
                with connection.cursor() as cursor:
                    while time.monotonic() < deadline and not done.is_set():
                        cursor.execute("SELECT count(*) FROM pg_locks WHERE NOT granted")
                        if cursor.fetchone()[0]:
                            break
                        time.sleep(0.02)
        except BaseException as failure:  # reported by the caller's thread
            failures.append(failure)
        finally:
            held.set()
            connections.close_all()

    def wait() -> None:
        try:
            results.append(waiter())
        except BaseException as failure:
            failures.append(failure)
        finally:
            done.set()
            connections.close_all()

    first = threading.Thread(target=hold)
    first.start()
    held.wait(timeout=30)
    second = threading.Thread(target=wait)
    second.start()
    first.join(timeout=30)
    second.join(timeout=30)
    if failures:
        raise failures[0]
    return results[0]

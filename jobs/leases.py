"""Leases: how a worker holds a row while it works on it, and how the work of a worker that
died is taken up. One design for every kind of background work (docs/subsystems/jobs.md "Leases,
claims and the tick"):

- a row that jobs work on is `jobs.models.Leased`: `lease_expires_at` NULL while free;
- `lease_claim` is a conditional UPDATE ... WHERE the lease is free (NULL or past) and the
  kind's own condition holds: of any number of workers, exactly one wins;
- the holder renews its lease while it works (`Lease.keep`, conditional on still holding
  it), from a thread across a stretch of work that cannot renew it (`LeaseHeartbeat`: a
  library's long parse), and releases it in the write that records the outcome
  (`Lease.release`);
- a lease in the past means its holder died: `leases_resume` takes such a row over (once:
  again a conditional UPDATE) and hands it to the kind's resume function.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any, TypeVar

from django.db import connections, transaction
from django.db.models import Q, QuerySet
from django.utils import timezone

from jobs.models import Leased

L = TypeVar("L", bound=Leased)
logger = logging.getLogger(__name__)


class LeaseLost(Exception):
    """The holder's lease expired and another worker took its row over: stop working on it."""


class Lease:
    """A lease on one row, held by this process until `expires_at`."""

    def __init__(self, *, rows: QuerySet[Any], expires_at: datetime, duration: timedelta) -> None:
        self.rows = rows  # the one leased row, by primary key
        self.expires_at = expires_at
        self.duration = duration
        # Every expiry this process wrote: a renewal made inside a transaction that rolled back
        # leaves the row at an earlier one, which is still ours.
        self._written = {expires_at}

    def _held(self) -> QuerySet[Any]:
        return self.rows.filter(lease_expires_at__in=self._written)

    def renew(self, *, now: datetime | None = None, **changes: Any) -> None:
        """Extends the lease to `now + duration` (writing `changes` with it); raises LeaseLost
        if it is no longer held. An expired lease that nobody took over is still held."""
        expires_at = (now or timezone.now()) + self.duration
        if not self._held().update(lease_expires_at=expires_at, **changes):
            raise LeaseLost
        self.expires_at = expires_at
        self._written.add(expires_at)

    def keep(self, *, now: datetime | None = None) -> None:
        """The heartbeat of a long job: renews once a third of the lease has passed (call it
        as often as you like). Inside a transaction the renewal also row-locks the row, which
        `leases_resume` skips: a long transaction of a live worker is not taken over."""
        now = now or timezone.now()
        if self.expires_at - now < self.duration * 2 / 3:
            self.renew(now=now)

    def release(self, **changes: Any) -> bool:
        """Frees the row, writing `changes` (the outcome) in the same UPDATE; False (nothing
        written) if the lease was lost meanwhile: the worker that took it over records it."""
        return bool(self._held().update(lease_expires_at=None, **changes))


class LeaseHeartbeat:
    """Renews `lease` from a thread every third of its duration while a stretch of work runs
    that cannot renew it itself (a library's parse of a large file, one long query), so the
    holder is not taken for dead however long the stretch takes.

    One of the two renews at a time: the holder stops the heartbeat (`stop` waits for a
    renewal under way) before it renews again itself. A heartbeat gives up after `at_most`
    (the work is taken for stuck, and its lease then runs out as a dead worker's would), and
    when the lease was lost (the holder's own next renewal raises LeaseLost); a renewal that
    fails otherwise (a busy database) is tried again at the next beat. Use it as a context
    manager, or start() and stop() it (both may be called again)."""

    def __init__(self, lease: Lease, *, at_most: timedelta) -> None:
        self.lease, self.at_most = lease, at_most
        self._stopped = threading.Event()
        self._thread: threading.Thread | None = None

    def __enter__(self) -> LeaseHeartbeat:
        self.start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def start(self) -> None:
        if self._thread is None:
            self._stopped.clear()
            self._thread = threading.Thread(target=self._beat, name="lease-heartbeat", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        if self._thread is not None:
            self._stopped.set()
            self._thread.join()
            self._thread = None

    def _beat(self) -> None:
        interval = self.lease.duration.total_seconds() / 3
        until = time.monotonic() + self.at_most.total_seconds()
        try:
            while not self._stopped.wait(interval):
                if time.monotonic() > until:
                    logger.warning(
                        "a lease's heartbeat stopped after %s: the work is stuck", self.at_most
                    )
                    return
                try:
                    self.lease.renew()
                except LeaseLost:
                    return
                except Exception:
                    logger.warning("a lease's heartbeat could not renew it", exc_info=True)
        finally:
            connections.close_all()  # this thread's own


def lease_claim(
    rows: QuerySet[L],
    *,
    pk: object,
    duration: timedelta,
    now: datetime | None = None,
    **changes: Any,
) -> Lease | None:
    """Claims the row `pk` of `rows` (whose filter is the kind's condition, e.g. "pending and
    at attempt n - 1") if its lease is free, writing `changes` in the same UPDATE. The lease,
    or None if the row does not match or another worker holds it."""
    now = now or timezone.now()
    expires_at = now + duration
    free = Q(lease_expires_at__isnull=True) | Q(lease_expires_at__lt=now)
    if not rows.filter(free, pk=pk).update(lease_expires_at=expires_at, **changes):
        return None
    return Lease(
        rows=rows.model._default_manager.filter(pk=pk), expires_at=expires_at, duration=duration
    )


def leases_expired(rows: QuerySet[L], *, now: datetime) -> QuerySet[L]:
    """The rows of `rows` whose holder died: their lease has passed."""
    return rows.filter(lease_expires_at__lt=now)


def leases_resume(
    rows: QuerySet[L], *, resume: Callable[[L], object], now: datetime | None = None
) -> int:
    """Takes over every row of `rows` whose lease has expired, each in its own transaction:
    frees its lease with a conditional UPDATE (of two resumers, one takes the row), then calls
    `resume(row)` in that transaction (queue its job again, record the lost attempt). A row
    locked by an open transaction (PostgreSQL) is skipped: its holder is alive. Returns how
    many rows were taken over."""
    now = now or timezone.now()
    manager = rows.model._default_manager
    taken = 0
    for pk, held in leases_expired(rows, now=now).values_list("pk", "lease_expires_at"):
        try:
            with transaction.atomic():
                locked = rows.select_for_update(skip_locked=True, of=("self",))
                row = locked.filter(pk=pk, lease_expires_at=held).first()
                if row is None or not manager.filter(pk=pk, lease_expires_at=held).update(
                    lease_expires_at=None
                ):
                    continue  # renewed, released, taken by another resumer, or in a live one
                row.lease_expires_at = None
                resume(row)
        except Exception:
            # One row that cannot be resumed (its transaction rolled back) stops no other row.
            logger.exception("could not resume %s %s", rows.model.__name__, pk)
            continue
        taken += 1
    return taken

"""Leases (jobs.leases): one claimer wins, the holder renews and releases, an expired lease is
taken over once, a renewed one is not, and a holder that lost its lease finds out."""

from __future__ import annotations

import threading
import time
from datetime import datetime, timedelta
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone

from jobs.leases import Lease, LeaseHeartbeat, LeaseLost, lease_claim, leases_resume
from jobs.models import JobSchedule

pytestmark = pytest.mark.django_db

MINUTE = timedelta(minutes=1)


@pytest.fixture
def t0() -> datetime:
    return timezone.now()


@pytest.fixture
def row(t0: datetime) -> JobSchedule:
    """A leased row: JobSchedule is `jobs.models.Leased` like every row jobs work on."""
    return JobSchedule.objects.create(name="work", due_at=t0)


def _claim(*, now: datetime, rows: Any = None) -> Lease | None:
    rows = JobSchedule.objects.all() if rows is None else rows
    return lease_claim(rows, pk="work", duration=MINUTE, now=now)


def _resumed(*, now: datetime) -> list[str]:
    taken: list[str] = []
    leases_resume(JobSchedule.objects.all(), resume=lambda r: taken.append(r.pk), now=now)
    return taken


def test_of_two_claimers_one_wins(row: JobSchedule, t0: datetime) -> None:
    first = _claim(now=t0)
    second = _claim(now=t0 + timedelta(seconds=1))

    assert first is not None and second is None
    row.refresh_from_db()
    assert row.lease_expires_at == first.expires_at == t0 + MINUTE


def test_a_claim_writes_its_changes_only_where_the_kinds_condition_holds(
    row: JobSchedule, t0: datetime
) -> None:
    not_due = JobSchedule.objects.filter(due_at__gt=t0)
    assert lease_claim(not_due, pk="work", duration=MINUTE, now=t0, due_at=t0 + MINUTE) is None

    due = JobSchedule.objects.filter(due_at__lte=t0)
    assert lease_claim(due, pk="work", duration=MINUTE, now=t0, due_at=t0 + MINUTE) is not None
    row.refresh_from_db()
    assert row.due_at == t0 + MINUTE


def test_an_expired_lease_is_taken_over_once_and_freed(row: JobSchedule, t0: datetime) -> None:
    assert _claim(now=t0) is not None  # and its worker dies

    assert _resumed(now=t0 + MINUTE / 2) == []  # still held
    assert _resumed(now=t0 + 2 * MINUTE) == ["work"]
    assert _resumed(now=t0 + 3 * MINUTE) == []  # taken over once
    row.refresh_from_db()
    assert row.lease_expires_at is None
    assert _claim(now=t0 + 3 * MINUTE) is not None  # free for the job queued again


def test_a_renewed_lease_is_not_taken_over(row: JobSchedule, t0: datetime) -> None:
    lease = _claim(now=t0)
    assert lease is not None

    lease.keep(now=t0 + MINUTE / 2)  # a heartbeat past a third of the lease renews it

    assert lease.expires_at == t0 + MINUTE * 3 / 2
    assert _resumed(now=t0 + MINUTE * 5 / 4) == []
    assert _resumed(now=t0 + MINUTE * 2) == ["work"]  # renewed no more: its worker died


def test_a_heartbeat_within_the_first_third_writes_nothing(row: JobSchedule, t0: datetime) -> None:
    lease = _claim(now=t0)
    assert lease is not None
    JobSchedule.objects.filter(pk="work").delete()  # any write would now raise LeaseLost

    lease.keep(now=t0 + MINUTE / 4)

    assert lease.expires_at == t0 + MINUTE


def test_a_holder_whose_lease_was_taken_over_loses_it(row: JobSchedule, t0: datetime) -> None:
    lease = _claim(now=t0)
    assert lease is not None
    assert _resumed(now=t0 + 2 * MINUTE) == ["work"]

    with pytest.raises(LeaseLost):
        lease.keep(now=t0 + 2 * MINUTE)
    assert lease.release(due_at=t0) is False  # its outcome is not written
    row.refresh_from_db()
    assert row.due_at == t0 and row.lease_expires_at is None


def test_an_expired_lease_nobody_took_over_is_still_its_holders(
    row: JobSchedule, t0: datetime
) -> None:
    lease = _claim(now=t0)
    assert lease is not None

    lease.renew(now=t0 + 2 * MINUTE)  # late, but nobody resumed the row meanwhile

    assert _resumed(now=t0 + 2 * MINUTE) == []


def test_release_writes_the_outcome_and_frees_the_row(row: JobSchedule, t0: datetime) -> None:
    lease = _claim(now=t0)
    assert lease is not None

    assert lease.release(due_at=t0 + timedelta(days=1)) is True

    row.refresh_from_db()
    assert row.lease_expires_at is None and row.due_at == t0 + timedelta(days=1)
    assert _resumed(now=t0 + 2 * MINUTE) == []  # a free row is nobody's lost work


@pytest.mark.django_db(transaction=True)
def test_of_concurrent_claimers_exactly_one_wins(t0: datetime) -> None:
    JobSchedule.objects.create(name="work", due_at=t0)
    start = threading.Barrier(4)
    won: list[bool] = []

    def claimer() -> None:
        try:
            start.wait()
            won.append(_claim(now=timezone.now()) is not None)
        finally:
            connection.close()

    threads = [threading.Thread(target=claimer) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(won) == [False, False, False, True]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("requires_postgres")
def test_a_row_locked_by_its_holders_open_transaction_is_not_taken_over(t0: datetime) -> None:
    """The import renews inside its long write transaction: the renewal is not visible yet,
    but the row lock tells a resumer that the holder is alive."""
    JobSchedule.objects.create(name="work", due_at=t0)
    lease = _claim(now=t0 - 2 * MINUTE)  # committed lease: expired a minute ago
    assert lease is not None
    renewed, done = threading.Event(), threading.Event()

    def holder() -> None:
        try:
            with transaction.atomic():
                lease.renew()
                renewed.set()
                done.wait(timeout=30)
        finally:
            connection.close()

    thread = threading.Thread(target=holder)
    thread.start()
    try:
        assert renewed.wait(timeout=30)
        assert _resumed(now=timezone.now()) == []  # at once: not blocked behind the lock
    finally:
        done.set()
        thread.join()
    assert _resumed(now=timezone.now()) == []  # the renewal is committed now


def test_a_row_whose_resume_fails_stops_no_other_row(t0: datetime) -> None:
    for name in ("broken", "fine"):
        JobSchedule.objects.create(name=name, due_at=t0, lease_expires_at=t0)
    taken: list[str] = []

    def resume(row: JobSchedule) -> None:
        if row.pk == "broken":
            raise RuntimeError("cannot queue this one")
        taken.append(row.pk)

    count = leases_resume(JobSchedule.objects.all(), resume=resume, now=t0 + MINUTE)

    assert (count, taken) == (1, ["fine"])
    # the failed take-over rolled back: the row is still expired, for the next tick
    assert JobSchedule.objects.get(pk="broken").lease_expires_at == t0


def test_a_renewal_rolled_back_with_its_transaction_leaves_the_lease_held(
    row: JobSchedule, t0: datetime
) -> None:
    lease = _claim(now=t0)
    assert lease is not None
    with pytest.raises(RuntimeError), transaction.atomic():
        lease.renew(now=t0 + MINUTE / 2)
        raise RuntimeError("the work's transaction fails")

    assert lease.release(due_at=t0 + 5 * MINUTE)
    row.refresh_from_db()
    assert (row.lease_expires_at, row.due_at) == (None, t0 + 5 * MINUTE)


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_keeps_its_lease_held_past_the_lease_and_lets_go_when_stopped() -> None:
    JobSchedule.objects.create(name="work", due_at=timezone.now())
    lease = lease_claim(
        JobSchedule.objects.all(), pk="work", duration=timedelta(seconds=0.6), now=timezone.now()
    )
    assert lease is not None

    with LeaseHeartbeat(lease, at_most=MINUTE):
        time.sleep(1.5)  # two and a half leases: the holder renews nothing itself
        during = _resumed(now=timezone.now())
    time.sleep(0.8)  # stopped: its lease runs out

    assert during == [] and _resumed(now=timezone.now()) == ["work"]


@pytest.mark.django_db(transaction=True)
def test_a_heartbeat_gives_up_after_at_most_so_stuck_work_is_taken_over() -> None:
    JobSchedule.objects.create(name="work", due_at=timezone.now())
    lease = lease_claim(
        JobSchedule.objects.all(), pk="work", duration=timedelta(seconds=0.6), now=timezone.now()
    )
    assert lease is not None

    with LeaseHeartbeat(lease, at_most=timedelta(seconds=0.5)):
        time.sleep(1.8)
        taken = _resumed(now=timezone.now())

    assert taken == ["work"]

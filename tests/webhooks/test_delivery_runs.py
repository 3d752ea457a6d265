"""Runs of deliveries (webhooks.delivery_runs), as `manage.py deliver_webhooks` sends them: one
endpoint's events arrive in order, per plan too, however they are cut into runs, each once with
one line in the log; a failed attempt ends its run and is retried with the same id, holding
back neither the events behind it nor another endpoint; a worker that died in the middle of a
run leaves leases that are taken up, so every event still arrives; a kept-alive connection that
the receiver closed is replaced."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import timedelta
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.db import connection, transaction
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from apikeys.services import api_access_set
from jobs.registry import jobs_resume
from planning.models import Plan, PlanRole
from tests.factories import PlanFactory, PlanMembershipFactory, UserFactory
from tests.webhooks.conftest import Receiver, receiver_serving
from tests.webhooks.factories import endpoint_for
from webhooks import delivery_runs
from webhooks.delivery import Sender
from webhooks.delivery_runs import delivery_run, delivery_run_claim
from webhooks.events import deliveries_enqueue, event_id_generate
from webhooks.models import (
    DeliveryStatus,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)
from webhooks.services import delivery_redeliver
from webhooks.targets import target_check
from webhooks.tasks import ATTEMPT_LEASE

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("private_targets")]


@pytest.fixture
def owner(db: Any) -> User:
    user = UserFactory.create()
    api_access_set(user=user, enabled=True)
    return user


def _plan(owner: User) -> Plan:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=owner, role=PlanRole.EDITOR)
    return plan


@pytest.fixture
def other_receiver() -> Iterator[Receiver]:
    with receiver_serving() as state:
        yield state


def _events(plans: list[Plan], endpoints: list[WebhookEndpoint]) -> list[str]:
    """An event of each plan in turn, written as the outbox writes them (one transaction per
    change), each with a delivery to every endpoint; their ids in order."""
    ids = []
    for number, plan in enumerate(plans):
        with transaction.atomic():
            event = WebhookEvent.objects.create(
                id=event_id_generate(),
                event_type="actions.updated",
                plan=plan,
                body=json.dumps({"type": "actions.updated", "n": number}),
            )
            deliveries_enqueue(event=event, endpoints=endpoints)
        ids.append(event.id)
    return ids


def _dispatch() -> None:
    """The dispatcher's rounds, in this thread: claim a run, send it, until nothing is due (a
    claim that keeps finding work after 100 rounds is a queue that never drains)."""
    for _round in range(100):
        run = delivery_run_claim(worker_id="test", busy=set())
        if run is None:
            return
        delivery_run(run, stopping=threading.Event())
    raise AssertionError("the queue never drains: a claim keeps finding the same work")


def _retries_due() -> None:
    DBTaskResult.objects.filter(status="READY").update(run_after=timezone.now())


def _received_ids(receiver: Receiver) -> list[str]:
    return [r.headers["webhook-id"] for r in receiver.received]


def test_events_arrive_in_order_per_plan_across_runs_each_once(
    owner: User, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("webhooks.delivery_runs.RUN_SIZE", 3)
    first, second = _plan(owner), _plan(owner)
    endpoint, _secret = endpoint_for(owner, url=receiver.url)
    ids = _events([first, second] * 4, [endpoint])

    _dispatch()

    assert _received_ids(receiver) == ids  # 8 events in 3 runs
    assert set(WebhookDelivery.objects.values_list("status", "attempts")) == {("delivered", 1)}
    log = WebhookAttempt.objects.order_by("id")
    assert [a.delivery.event_id for a in log] == ids
    assert {(a.number, a.status_code, a.error) for a in log} == {(1, 200, "")}
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {"SUCCESSFUL"}


def test_a_failed_attempt_ends_its_run_and_is_retried_holding_back_nobody(
    owner: User, receiver: Receiver, other_receiver: Receiver
) -> None:
    plan = _plan(owner)
    failing, _secret = endpoint_for(owner, url=receiver.url)
    other, _secret = endpoint_for(owner, url=other_receiver.url)
    receiver.statuses = [200, 500]
    ids = _events([plan] * 4, [failing, other])

    _dispatch()

    # The events behind the failed one go on, in a later run (as one at a time did).
    assert _received_ids(receiver) == ids
    assert _received_ids(other_receiver) == ids
    failed = WebhookDelivery.objects.get(endpoint=failing, event_id=ids[1])
    assert (failed.status, failed.attempts) == (DeliveryStatus.PENDING, 1)
    assert failed.next_attempt_at is not None
    assert failed.next_attempt_at > timezone.now() + timedelta(seconds=50)
    assert failed.attempt_log.get().error == "HTTP 500"
    assert WebhookDelivery.objects.filter(status=DeliveryStatus.DELIVERED).count() == 7

    _retries_due()
    _dispatch()

    assert _received_ids(receiver) == [*ids, ids[1]]  # the same id again
    failed.refresh_from_db()
    assert (failed.status, failed.attempts) == (DeliveryStatus.DELIVERED, 2)
    assert [(a.number, a.status_code) for a in failed.attempt_log.order_by("number")] == [
        (1, 500),
        (2, 200),
    ]
    assert _received_ids(other_receiver) == ids


def test_a_run_whose_worker_died_is_taken_up_and_every_event_arrives(
    owner: User, receiver: Receiver
) -> None:
    plan = _plan(owner)
    endpoint, _secret = endpoint_for(owner, url=receiver.url)
    ids = _events([plan] * 3, [endpoint])
    claimed_at = timezone.now()
    run = delivery_run_claim(worker_id="died", busy=set())
    assert run is not None and len(run.items) == 3  # ... and the worker was killed

    assert delivery_run_claim(worker_id="another", busy=set()) is None  # held meanwhile
    assert jobs_resume(now=claimed_at + ATTEMPT_LEASE / 2)["webhook deliveries"] == 0
    later = claimed_at + ATTEMPT_LEASE + timedelta(seconds=1)
    assert jobs_resume(now=later)["webhook deliveries"] == 3

    lost = WebhookAttempt.objects.all()
    assert {(a.number, a.error) for a in lost} == {(1, "the worker stopped during the attempt")}
    _retries_due()
    _dispatch()

    assert _received_ids(receiver) == ids
    assert set(WebhookDelivery.objects.values_list("status", "attempts")) == {("delivered", 2)}


def test_a_second_job_for_the_same_attempt_posts_once(owner: User, receiver: Receiver) -> None:
    plan = _plan(owner)
    endpoint, _secret = endpoint_for(owner, url=receiver.url)
    (event_id,) = _events([plan], [endpoint])
    delivery = WebhookDelivery.objects.get()
    job = DBTaskResult.objects.get()
    job.pk = None  # a Redeliver queued beside the first attempt
    job.save()

    _dispatch()

    assert _received_ids(receiver) == [event_id]
    assert delivery.attempt_log.count() == 1
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {"SUCCESSFUL"}


class _KeepAliveReceiver:
    """Answers 200 over HTTP/1.1 keeping connections open, or, with `hang_up`, closing each
    after its answer without saying so (as an idle timeout does); counts connections."""

    def __init__(self, *, hang_up: bool) -> None:
        state = self
        self.connections = 0
        self.posts = 0

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def setup(self) -> None:
                super().setup()
                state.connections += 1

            def do_POST(self) -> None:
                self.rfile.read(int(self.headers["Content-Length"]))
                state.posts += 1
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()
                self.close_connection = hang_up

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}/hooks"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.mark.parametrize("hang_up", [False, True])
def test_a_run_posts_over_one_connection_and_replaces_one_the_receiver_closed(
    hang_up: bool,
) -> None:
    receiver = _KeepAliveReceiver(hang_up=hang_up)
    try:
        target = target_check(receiver.url)
        with Sender() as sender:
            outcomes = [sender.post(target, body=b"{}", headers={}) for _ in range(3)]
    finally:
        receiver.stop()

    assert [o.error for o in outcomes] == ["", "", ""]
    assert receiver.posts == 3
    assert receiver.connections == (3 if hang_up else 1)


def test_a_retry_left_behind_by_a_redeliver_finishes_and_holds_up_no_endpoint(
    owner: User, receiver: Receiver, other_receiver: Receiver
) -> None:
    plan = _plan(owner)
    endpoint, _secret = endpoint_for(owner, url=receiver.url)
    receiver.statuses = [500]
    (event_id,) = _events([plan], [endpoint])
    _dispatch()  # the first attempt fails: a retry is queued for a minute later
    delivery = WebhookDelivery.objects.get()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.PENDING, 1)
    delivery_redeliver(delivery=delivery)  # the owner fixed the receiver and pressed Redeliver
    _dispatch()
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.DELIVERED

    _retries_due()  # the old retry comes due, its delivery delivered meanwhile
    other, _secret = endpoint_for(owner, url=other_receiver.url)
    (other_id,) = _events([plan], [other])
    _dispatch()

    assert _received_ids(other_receiver) == [other_id]
    assert _received_ids(receiver) == [event_id, event_id]  # the retry posted nothing more
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {"SUCCESSFUL"}


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_dispatchers_claiming_at_once_leave_an_endpoints_order_whole(
    requires_postgres: None, owner: User, receiver: Receiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two dispatcher processes on PostgreSQL: both find the same endpoint's deliveries due at
    once. One claims all of them in order and the other none; had each held some of them, the
    first would send the fourth before the other let go of the second."""
    plan = _plan(owner)
    endpoint, _secret = endpoint_for(owner, url=receiver.url)
    _events([plan] * 5, [endpoint])
    in_order = list(WebhookDelivery.objects.order_by("pk").values_list("pk", flat=True))
    both_there = threading.Barrier(2, timeout=20)
    endpoint_taken = delivery_runs._endpoint_taken

    def meeting(endpoint_id: Any) -> bool:  # both claims got this far before either locks it
        both_there.wait()
        return endpoint_taken(endpoint_id)

    monkeypatch.setattr("webhooks.delivery_runs._endpoint_taken", meeting)
    runs: dict[str, delivery_runs.Run | None] = {}

    def claim(name: str) -> None:
        try:
            runs[name] = delivery_run_claim(worker_id=name, busy=set())
        finally:
            connection.close()

    threads = [threading.Thread(target=claim, args=(name,)) for name in ("a", "b")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)

    claimed = [run for run in runs.values() if run is not None]
    assert len(runs) == 2 and len(claimed) == 1
    assert [item.delivery_id for item in claimed[0].items] == in_order
    assert all(item.leased for item in claimed[0].items)

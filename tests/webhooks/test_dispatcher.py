"""The delivery dispatcher (`manage.py deliver_webhooks`): a receiver that drips its answer
holds one thread for 10 s and is recorded as a timeout, while another endpoint's event queued
meanwhile arrives within seconds, even when the slow endpoint has more attempts waiting than
there are threads."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

import pytest
from django.db import OperationalError

from tests.factories import UserFactory
from tests.webhooks.conftest import DripReceiver, Receiver
from tests.webhooks.factories import endpoint_for
from webhooks.dispatcher import Dispatcher
from webhooks.events import endpoint_test_event_send
from webhooks.models import WebhookAttempt

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("private_targets")]


def wait_for(condition: Callable[[], Any], *, within: float) -> float:
    """Seconds until `condition()` held; fails the test after `within` seconds."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < within, "did not happen in time"
        time.sleep(0.05)
    return time.monotonic() - started


@pytest.mark.usefixtures("reads_take_no_lock")
def test_a_dripping_receiver_times_out_at_10_s_and_delays_no_other_endpoint(
    user: Any, drip_receiver: DripReceiver, receiver: Receiver
) -> None:
    slow, _secret = endpoint_for(user, url=drip_receiver.url)
    for _ in range(3):  # more than the dispatcher's threads
        endpoint_test_event_send(endpoint=slow)
    someone_else: Any = UserFactory()
    other, _secret = endpoint_for(someone_else, url=receiver.url)
    dispatcher = Dispatcher(threads=2, interval=0.1, worker_id="test")
    runner = threading.Thread(target=dispatcher.run)
    started = time.monotonic()
    runner.start()
    # While the dispatcher runs the test watches the receivers, not the tables: on SQLite's
    # in-memory test database a claim (an exclusive transaction) fails any read meeting it.
    try:
        wait_for(lambda: drip_receiver.connections >= 1, within=3)

        endpoint_test_event_send(endpoint=other)
        arrived_after = wait_for(lambda: receiver.received, within=5)

        # Its 10 s run from the first connection (up to 3 s after the start): the wall clock
        # here allows a loaded machine's scheduling (a run on a machine at load 8 took over 15 s);
        # the attempt's own recorded duration, below, holds the 10 s exactly.
        wait_for(lambda: drip_receiver.hung_up, within=25)
        slow_attempt_ended_after = drip_receiver.hung_up[0] - started
    finally:
        dispatcher.stopping.set()
        drip_receiver.stop()  # the next attempt, now in flight, ends at once, not in 10 s
        runner.join(timeout=15)

    assert not runner.is_alive()
    assert arrived_after < 5
    assert receiver.events("webhook.test")[0]["data"]["endpoint_id"] == str(other.pk)
    assert slow_attempt_ended_after < 24
    first = WebhookAttempt.objects.filter(endpoint=slow).order_by("attempted_at").first()
    assert first is not None
    assert (first.status_code, first.error) == (None, "timeout")
    assert 9_500 <= first.duration_ms < 11_000


def test_the_dispatcher_outlives_an_unavailable_database(monkeypatch: pytest.MonkeyPatch) -> None:
    def unavailable(**kwargs: Any) -> None:
        dispatcher.stopping.set()
        raise OperationalError("the database system is shutting down")

    dispatcher = Dispatcher(threads=1, interval=0.05, worker_id="test")
    monkeypatch.setattr("webhooks.dispatcher.delivery_run_claim", unavailable)
    dispatcher.run()  # returns once stopped, instead of raising

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

from tests.factories import UserFactory
from tests.webhooks.conftest import DripReceiver, Receiver
from tests.webhooks.factories import endpoint_for
from webhooks.dispatcher import Dispatcher
from webhooks.events import endpoint_test_event_send
from webhooks.models import WebhookAttempt

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("private_targets")]


def _wait_for(condition: Callable[[], Any], *, within: float) -> float:
    """Seconds until `condition()` held; fails the test after `within` seconds."""
    started = time.monotonic()
    while not condition():
        assert time.monotonic() - started < within, "did not happen in time"
        time.sleep(0.05)
    return time.monotonic() - started


def test_a_dripping_receiver_times_out_at_10_s_and_delays_no_other_endpoint(
    user: Any, drip_receiver: DripReceiver, receiver: Receiver
) -> None:
    slow, _secret = endpoint_for(user, url=drip_receiver.url)
    for _ in range(3):  # more than the dispatcher's threads
        endpoint_test_event_send(endpoint=slow)
    someone_else: Any = UserFactory()
    other, _secret = endpoint_for(someone_else, url=receiver.url)
    dispatcher = Dispatcher(threads=2, interval=0.05, worker_id="test")
    runner = threading.Thread(target=dispatcher.run)
    started = time.monotonic()
    runner.start()
    try:
        _wait_for(lambda: drip_receiver.connections >= 1, within=3)

        endpoint_test_event_send(endpoint=other)
        arrived_after = _wait_for(lambda: receiver.received, within=5)

        slow_attempt = WebhookAttempt.objects.filter(endpoint=slow)
        _wait_for(slow_attempt.exists, within=12)
        ended_after = time.monotonic() - started
    finally:
        dispatcher.stopping.set()
        drip_receiver.stop()  # the attempt in flight ends now, not in 10 s
        runner.join(timeout=15)

    assert arrived_after < 5
    assert receiver.events("webhook.test")[0]["data"]["endpoint_id"] == str(other.pk)
    first = slow_attempt.order_by("attempted_at").first()
    assert first is not None
    assert (first.status_code, first.error) == (None, "timeout")
    assert 9_500 <= first.duration_ms < 11_000
    assert ended_after < 11.5
    assert not runner.is_alive()

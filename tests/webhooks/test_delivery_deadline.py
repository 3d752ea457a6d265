"""The delivery deadline is wall-clock time for the whole attempt: a receiver that drips its
answer a byte at a time is cut off when it is spent, and that is a timeout."""

from __future__ import annotations

import time

import pytest

from tests.webhooks.conftest import DripReceiver
from webhooks import delivery
from webhooks.targets import target_check

pytestmark = pytest.mark.usefixtures("private_targets")


def test_a_dripping_answer_is_cut_off_at_the_deadline_as_a_timeout(
    drip_receiver: DripReceiver, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each byte comes well within a per-read timeout; the whole answer never within the deadline.
    drip_receiver.every = 0.3
    monkeypatch.setattr(delivery, "DELIVERY_TIMEOUT_SECONDS", 1.5)
    started = time.monotonic()

    outcome = delivery.post(target_check(drip_receiver.url), body=b"{}", headers={})

    assert time.monotonic() - started < 2.0
    assert (outcome.status_code, outcome.error) == (None, "timeout")
    assert 1400 <= outcome.duration_ms < 2000
    assert drip_receiver.connections == 1

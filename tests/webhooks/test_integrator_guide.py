"""The guide's signature checks (docs/integrators.md, "Webhooks"), the Standard Webhooks
library's and the manual one, run as written against a real delivery to a receiver on
loopback."""

from __future__ import annotations

import time
from typing import Any

import pytest
from standardwebhooks.webhooks import WebhookVerificationError

from tests.contract.test_integrator_guide import (
    PYTHON_STANDARD_WEBHOOKS,
    PYTHON_WEBHOOK_SIGNATURE,
)
from tests.webhooks.conftest import Receiver, run_worker
from tests.webhooks.factories import endpoint_for
from webhooks.events import endpoint_test_event_send
from webhooks.services import endpoint_secret_roll

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("private_targets")]


@pytest.fixture
def signature_valid() -> Any:
    namespace: dict[str, Any] = {}
    exec(PYTHON_WEBHOOK_SIGNATURE, namespace)  # noqa: S102 (our own documentation)
    return namespace["maintplan_signature_valid"]


@pytest.fixture
def maintplan_event() -> Any:
    namespace: dict[str, Any] = {}
    exec(PYTHON_STANDARD_WEBHOOKS, namespace)  # noqa: S102 (our own documentation)
    return namespace["maintplan_event"]


def test_the_guides_library_check_accepts_a_real_delivery_and_refuses_a_forgery(
    user: Any, receiver: Receiver, maintplan_event: Any
) -> None:
    endpoint, secret = endpoint_for(user, url=receiver.url)
    endpoint_test_event_send(endpoint=endpoint)
    run_worker()
    (delivery,) = receiver.received

    assert maintplan_event(secret, delivery.body, delivery.headers)["type"] == "webhook.test"
    with pytest.raises(WebhookVerificationError):
        maintplan_event(secret, delivery.body + b" ", delivery.headers)


def test_the_guides_check_accepts_a_real_delivery_and_refuses_forgeries(
    user: Any, receiver: Receiver, signature_valid: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    endpoint, secret = endpoint_for(user, url=receiver.url)
    endpoint_test_event_send(endpoint=endpoint)
    run_worker()
    (delivery,) = receiver.received
    header = delivery.headers["Maintplan-Signature"]

    assert signature_valid(secret, delivery.body, header)
    assert not signature_valid("whsec_" + "0" * 32, delivery.body, header)
    assert not signature_valid(secret, delivery.body + b" ", header)
    assert not signature_valid(secret, delivery.body, "t=oops,v1=00")
    assert not signature_valid(secret, delivery.body, "")
    # Replayed ten minutes later: outside the tolerance.
    later = time.time() + 600
    monkeypatch.setattr(time, "time", lambda: later)
    assert not signature_valid(secret, delivery.body, header)


def test_after_a_roll_both_guide_checks_accept_the_old_and_the_new_secret(
    user: Any, receiver: Receiver, signature_valid: Any, maintplan_event: Any
) -> None:
    endpoint, old = endpoint_for(user, url=receiver.url)
    new = endpoint_secret_roll(endpoint=endpoint)
    endpoint_test_event_send(endpoint=endpoint)
    run_worker()
    (delivery,) = receiver.received
    header = delivery.headers["Maintplan-Signature"]

    assert header.count("v1=") == 2
    for secret in (old, new):
        assert signature_valid(secret, delivery.body, header)
        assert maintplan_event(secret, delivery.body, delivery.headers)["type"] == "webhook.test"
    assert not signature_valid("whsec_" + "0" * 32, delivery.body, header)

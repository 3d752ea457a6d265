"""Every delivery verifies with the Standard Webhooks library (`standardwebhooks`), given the
endpoint's secret exactly as shown to its owner; a changed body, id or timestamp, or another
secret, is refused."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from tests.webhooks.conftest import Received, Receiver, run_worker
from tests.webhooks.factories import endpoint_for
from webhooks.events import endpoint_test_event_send
from webhooks.signing import secret_generate, standard_signature

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("private_targets")]


@pytest.fixture
def delivered(user: Any, receiver: Receiver) -> tuple[str, Received]:
    """A real delivery, as the receiver got it, and the secret shown for its endpoint."""
    endpoint, secret = endpoint_for(user, url=receiver.url)
    endpoint_test_event_send(endpoint=endpoint)
    run_worker()
    (delivery,) = receiver.received
    return secret, delivery


def test_the_library_accepts_a_real_delivery_with_the_secret_as_shown(
    delivered: tuple[str, Received],
) -> None:
    secret, delivery = delivered
    event = Webhook(secret).verify(delivery.body, delivery.headers)
    assert event["type"] == "webhook.test"
    assert delivery.headers["webhook-id"] == event["id"] == delivery.headers["Maintplan-Event-Id"]
    maintplan_t = delivery.headers["Maintplan-Signature"].split(",")[0].removeprefix("t=")
    assert delivery.headers["webhook-timestamp"] == maintplan_t


@pytest.mark.parametrize(
    "forgery",
    ["body", "id", "timestamp", "secret"],
)
def test_the_library_refuses_a_changed_body_id_timestamp_or_another_secret(
    delivered: tuple[str, Received], forgery: str
) -> None:
    secret, delivery = delivered
    body, headers = delivery.body, dict(delivery.headers)
    if forgery == "body":
        body = body.replace(b"webhook.test", b"webhook.tset")
    elif forgery == "id":
        headers["webhook-id"] = "evt_" + "0" * 26
    elif forgery == "timestamp":
        headers["webhook-timestamp"] = str(int(headers["webhook-timestamp"]) - 1)
    else:
        secret = secret_generate()
    with pytest.raises(WebhookVerificationError):
        Webhook(secret).verify(body, headers)


def test_any_issued_secret_signs_as_the_library_does() -> None:
    """`whsec_` + 32 base62 characters is valid base64 to the library, whatever is drawn."""
    sent_at = datetime.now(tz=UTC).replace(microsecond=0)
    for _ in range(200):
        secret = secret_generate()
        ours = standard_signature(
            secret=secret, event_id="evt_1", timestamp=int(sent_at.timestamp()), body=b"{}"
        )
        assert ours == Webhook(secret).sign("evt_1", sent_at, "{}")

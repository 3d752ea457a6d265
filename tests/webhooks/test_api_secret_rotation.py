"""Real deliveries around the API's operations: after rotate-secret a delivery carries the new
and the old secret's signatures (both verify with the `standardwebhooks` library and by
Maintplan-Signature) for 24 hours, then only the new one's; the web page's roll does the same;
test sends a webhook.test event; redeliver makes a new attempt of the same event."""

from __future__ import annotations

import hashlib
import hmac
import sys
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from standardwebhooks import Webhook
from standardwebhooks.webhooks import WebhookVerificationError

from tests.webhooks.api_helpers import call, create, organisation_with_plans, service_key
from tests.webhooks.conftest import Received, Receiver, run_worker
from tests.webhooks.factories import endpoint_for
from webhooks.events import endpoint_test_event_send
from webhooks.models import WebhookEndpoint
from webhooks.services import endpoint_secret_roll

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "clients" / "python"))
from maintplan import verify as sdk_verify  # the SDK is not installed into the venv

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("private_targets")]


def _maintplan_signatures(delivery: Received) -> tuple[str, list[str]]:
    parts = delivery.headers["Maintplan-Signature"].split(",")
    return parts[0].removeprefix("t="), [p.removeprefix("v1=") for p in parts[1:]]


def _maintplan_verifies(delivery: Received, secret: str) -> bool:
    timestamp, signatures = _maintplan_signatures(delivery)
    expected = hmac.new(
        secret.encode(), timestamp.encode() + b"." + delivery.body, hashlib.sha256
    ).hexdigest()
    return any(hmac.compare_digest(expected, signature) for signature in signatures)


def _send_test(raw: str, endpoint_id: str, receiver: Receiver) -> Received:
    before = len(receiver.received)
    assert call(raw, "POST", f"/{endpoint_id}/test").status_code == 200
    run_worker()
    assert len(receiver.received) == before + 1
    return receiver.received[-1]


def test_after_a_rotation_both_secrets_verify_for_24_hours_then_only_the_new(
    receiver: Receiver, time_machine: Any
) -> None:
    raw = service_key(organisation_with_plans(1))
    created = create(raw, url=receiver.url)
    old = created["secret"]
    rotated = call(raw, "POST", f"/{created['id']}/rotate-secret").json()["data"]
    new = rotated["secret"]

    delivery = _send_test(raw, created["id"], receiver)
    assert len(delivery.headers["webhook-signature"].split(" ")) == 2
    own = {"Maintplan-Signature": delivery.headers["Maintplan-Signature"]}
    for secret in (new, old):
        assert Webhook(secret).verify(delivery.body, delivery.headers)["type"] == "webhook.test"
        assert _maintplan_verifies(delivery, secret)
        for headers in (delivery.headers, own):  # the Python SDK, both header kinds
            assert sdk_verify(secret, delivery.body, headers).type_ == "webhook.test"

    time_machine.move_to(timezone.now() + timedelta(hours=24, minutes=1))
    later = _send_test(raw, created["id"], receiver)
    assert len(later.headers["webhook-signature"].split(" ")) == 1
    assert Webhook(new).verify(later.body, later.headers)["type"] == "webhook.test"
    with pytest.raises(WebhookVerificationError):
        Webhook(old).verify(later.body, later.headers)
    assert _maintplan_verifies(later, new) and not _maintplan_verifies(later, old)


def test_the_web_pages_roll_keeps_the_old_secret_signing_too(user: Any, receiver: Receiver) -> None:
    endpoint, old = endpoint_for(user, url=receiver.url)
    new = endpoint_secret_roll(endpoint=endpoint)
    endpoint_test_event_send(endpoint=endpoint)
    run_worker()
    (delivery,) = receiver.received
    for secret in (new, old):
        Webhook(secret).verify(delivery.body, delivery.headers)


def test_test_sends_webhook_test_and_redeliver_makes_a_new_attempt(receiver: Receiver) -> None:
    raw = service_key(organisation_with_plans(1))
    created = create(raw, url=receiver.url)
    receiver.statuses = [500]
    first = _send_test(raw, created["id"], receiver)
    assert first.event["type"] == "webhook.test"
    assert first.event["data"]["endpoint_id"] == created["id"]
    (row,) = call(raw, "GET", f"/{created['id']}/deliveries").json()["data"]["deliveries"]
    assert (row["attempts"], row["last_status_code"], row["event_id"]) == (
        1,
        500,
        first.event["id"],
    )

    redelivered = call(raw, "POST", f"/{created['id']}/deliveries/{row['id']}/redeliver")
    assert redelivered.json()["data"]["status"] == "pending"
    run_worker()
    second = receiver.received[-1]
    assert second.event["id"] == first.event["id"] and len(receiver.received) == 2
    (row,) = call(raw, "GET", f"/{created['id']}/deliveries").json()["data"]["deliveries"]
    assert (row["attempts"], row["last_status_code"], row["status"]) == (2, 200, "delivered")
    assert WebhookEndpoint.objects.get(pk=created["id"]).failing_since is None

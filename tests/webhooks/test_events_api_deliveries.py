"""The events API lists what the webhooks delivered: the same ids and the same bodies, byte for
byte, in the order they were sent; a receiver that was down replays after the last id it got."""

from __future__ import annotations

import pytest
from django.test import Client

from accounts.models import User
from apikeys.services import api_access_set, api_key_create
from planning.models import Code, StructureNode
from planning.plans.services.nodes import node_code_assign
from planning.suggestions.sync.run import suggestion_sync
from planning.transfer.imports.plan_document import plan_import_document
from tests.factories import UserFactory
from tests.webhooks.conftest import Receiver, run_worker
from tests.webhooks.test_end_to_end import PLAN_DOCUMENT
from webhooks.services import endpoint_create

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("private_targets", "suggestion_events_only"),
]


@pytest.fixture
def owner(starter_catalog: None) -> User:
    return UserFactory.create()


def test_the_events_api_lists_the_delivered_events_and_replays_after_the_last_one_received(
    owner: User, receiver: Receiver
) -> None:
    api_access_set(user=owner, enabled=True)  # webhooks, like the events API, follow it
    endpoint_create(user=owner, url=receiver.url)
    plan = plan_import_document(owner=owner, document=PLAN_DOCUMENT)
    suggestion_sync(plan=plan)
    run_worker()
    radiators = StructureNode.objects.get(plan=plan, name="Radiators")
    node_code_assign(node=radiators, code=Code.objects.get(code="423.1"))
    suggestion_sync(plan=plan)
    run_worker()
    received = [r for r in receiver.received if r.event["type"] == "suggestions.changed"]
    assert len(received) >= 2
    _key, raw = api_key_create(user=owner, name="poller")

    def events(**params: str) -> tuple[bytes, list[str]]:
        response = Client().get(
            "/api/v1/platform/events", params, headers={"Authorization": f"Bearer {raw}"}
        )
        assert response.status_code == 200
        return response.content, [event["id"] for event in response.json()["data"]["events"]]

    content, ids = events()
    assert ids == [r.headers["Maintplan-Event-Id"] for r in received]
    for delivery in received:
        assert delivery.body in content  # the body that was signed and posted, as it was

    # A receiver that was down after the first event replays from it and misses nothing.
    _content, replayed = events(after=ids[0])
    assert replayed == ids[1:]

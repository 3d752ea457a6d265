"""Webhooks end to end: a plan's changes reach a real receiver on loopback through the outbox
and the job worker, signed, retried, and never to an endpoint that lost access."""

from __future__ import annotations

import hashlib
import hmac
import json
from pathlib import Path
from typing import Any

import pytest
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from accounts.models import User
from organisations.models import Organisation
from organisations.services import member_add, member_remove, organisation_create
from planning.models import Code, Plan, StructureNode, Suggestion
from planning.plans.services.nodes import node_code_assign, node_rename
from planning.suggestions.selectors import suggestions_open
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.suggestions.sync.run import suggestion_sync
from planning.transfer.imports.plan_document import plan_import_document
from tests.factories import PlanFactory, UserFactory
from tests.webhooks.conftest import Receiver, run_retries_now, run_worker
from webhooks.models import DeliveryStatus, WebhookAttempt, WebhookDelivery, WebhookEvent
from webhooks.services import endpoint_create

# The worker closes its database connection after a run: these tests commit for real.
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("private_targets")]

PLAN_DOCUMENT = json.loads((Path(__file__).parents[2] / "docs/examples/plan.json").read_text())


@pytest.fixture
def owner(starter_catalog: None) -> User:
    """A person whose personal organisation (where their imports go) has API access: webhooks
    follow it (tests/webhooks/test_api_access.py)."""
    user = UserFactory.create()
    Organisation.objects.filter(personal_for=user).update(api_access_enabled=True)
    return user


@pytest.fixture
def secret(owner: User, receiver: Receiver) -> str:
    """An endpoint of `owner` for every plan they can see, pointing at the receiver."""
    _endpoint, raw_secret = endpoint_create(user=owner, url=receiver.url)
    return raw_secret


@pytest.fixture
def synced_plan(owner: User, secret: str, receiver: Receiver) -> Plan:
    """The example plan, imported and synced, its first events delivered."""
    plan = plan_import_document(owner=owner, document=PLAN_DOCUMENT)
    suggestion_sync(plan=plan)
    run_worker()
    return plan


def _verified(headers: dict[str, str], body: bytes, secret: str) -> bool:
    fields = dict(part.split("=", 1) for part in headers["Maintplan-Signature"].split(","))
    expected = hmac.new(
        secret.encode(), f"{fields['t']}.".encode() + body, hashlib.sha256
    ).hexdigest()
    return hmac.compare_digest(expected, fields["v1"])


def test_import_and_sync_send_opened_changes_equal_to_the_open_list(
    synced_plan: Plan, receiver: Receiver
) -> None:
    changes = receiver.changes()
    assert changes, "the first sync of the example plan opens suggestions"
    assert {change for change, _suggestion in changes} == {"opened"}
    sent = sorted((s for _change, s in changes), key=lambda s: s["id"])
    open_list = sorted(
        ({**s, "status": "open"} for s in suggestions_open(plan=synced_plan)),
        key=lambda s: s["id"],
    )
    assert sent == open_list
    (event,) = receiver.events()
    assert event["id"].startswith("evt_")
    assert event["data"]["plan_id"] == str(synced_plan.pk)
    assert event["data"]["plan_number"] == synced_plan.number
    assert receiver.received[0].headers["Maintplan-Event-Id"] == event["id"]
    assert receiver.received[0].headers["Content-Type"] == "application/json"


def test_a_fix_sends_resolved(synced_plan: Plan, receiver: Receiver) -> None:
    radiators = StructureNode.objects.get(plan=synced_plan, name="Radiators")
    missing = Suggestion.objects.get(structure_node=radiators, suggestion_type="missing_code")
    receiver.received.clear()

    node_code_assign(node=radiators, code=Code.objects.get(code="423.1"))
    suggestion_sync(plan=synced_plan)
    run_worker()

    assert [(c, s["id"], s["status"]) for c, s in receiver.changes()] == [
        ("resolved", str(missing.pk), "resolved")
    ]


def test_a_dismissal_is_sent_once_and_the_suggestion_stays_silent(
    synced_plan: Plan, receiver: Receiver, owner: User
) -> None:
    radiators = StructureNode.objects.get(plan=synced_plan, name="Radiators")
    missing = Suggestion.objects.get(structure_node=radiators, suggestion_type="missing_code")
    receiver.received.clear()

    suggestions_dismiss(
        plan=synced_plan, suggestion_ids=[missing.pk], user=owner, reason="not_applicable"
    )
    run_worker()
    assert [(c, s["id"], s["status"]) for c, s in receiver.changes()] == [
        ("dismissed", str(missing.pk), "dismissed")
    ]

    receiver.received.clear()
    node_rename(node=radiators, name="Radiators, ground floor")  # the rule runs on it again
    suggestion_sync(plan=synced_plan)
    run_worker()
    assert str(missing.pk) not in {s["id"] for _c, s in receiver.changes()}


def test_the_signature_verifies_with_the_secret_and_not_with_another(
    synced_plan: Plan, receiver: Receiver, secret: str
) -> None:
    (delivery,) = receiver.received
    assert _verified(delivery.headers, delivery.body, secret)
    assert not _verified(delivery.headers, delivery.body, "whsec_" + "x" * 32)
    assert not _verified(delivery.headers, delivery.body.replace(b"open", b"shut"), secret)


def test_a_receiver_failing_twice_gets_the_event_on_attempt_3_with_the_same_id(
    owner: User, secret: str, receiver: Receiver
) -> None:
    receiver.statuses = [500, 500]
    plan = plan_import_document(owner=owner, document=PLAN_DOCUMENT)
    suggestion_sync(plan=plan)

    run_worker()
    assert [r.headers["Maintplan-Event-Id"] for r in receiver.received] == [
        receiver.received[0].headers["Maintplan-Event-Id"]
    ]
    run_worker()  # the retry is due in about a minute: nothing yet
    assert len(receiver.received) == 1
    run_retries_now()
    run_retries_now()

    event_ids = {r.headers["Maintplan-Event-Id"] for r in receiver.received}
    assert len(receiver.received) == 3 and len(event_ids) == 1
    assert receiver.received[0].body == receiver.received[2].body
    (delivery,) = WebhookDelivery.objects.all()
    assert (delivery.status, delivery.attempts) == (DeliveryStatus.DELIVERED, 3)
    log = WebhookAttempt.objects.order_by("number").values_list("number", "status_code")
    assert list(log) == [(1, 500), (2, 500), (3, 200)]


def test_a_rolled_back_change_sends_nothing(
    synced_plan: Plan, receiver: Receiver, owner: User
) -> None:
    radiators = StructureNode.objects.get(plan=synced_plan, name="Radiators")
    missing = Suggestion.objects.get(structure_node=radiators, suggestion_type="missing_code")
    events_before = WebhookEvent.objects.count()
    # The import's own sync, queued when it committed, is due in a few seconds.
    queued_before = list(DBTaskResult.objects.filter(status="READY").values_list("pk", flat=True))
    receiver.received.clear()

    with pytest.raises(RuntimeError), transaction.atomic():
        suggestions_dismiss(
            plan=synced_plan, suggestion_ids=[missing.pk], user=owner, reason="not_applicable"
        )
        raise RuntimeError("the request failed after the dismissal")
    run_worker()

    assert WebhookEvent.objects.count() == events_before
    assert receiver.received == []
    queued = DBTaskResult.objects.filter(status="READY").values_list("pk", flat=True)
    assert list(queued) == queued_before


def test_an_owner_who_lost_access_receives_nothing_further(
    synced_plan: Plan, receiver: Receiver, owner: User
) -> None:
    # The plan is the co-op's; the endpoint's owner is a planner there.
    colleague = UserFactory.create()
    co_op = organisation_create(name="Co-op", owner=colleague)
    Organisation.objects.filter(pk=co_op.pk).update(api_access_enabled=True)
    membership = member_add(organisation=co_op, user=owner, role="planner")
    Plan.objects.filter(pk=synced_plan.pk).update(organisation=co_op)
    radiators = StructureNode.objects.get(plan=synced_plan, name="Radiators")
    missing = Suggestion.objects.get(structure_node=radiators, suggestion_type="missing_code")
    receiver.received.clear()

    # A change queued while the owner could see the plan, then the owner is removed.
    suggestions_dismiss(
        plan=synced_plan, suggestion_ids=[missing.pk], user=colleague, reason="not_applicable"
    )
    member_remove(membership=membership)
    run_worker()
    # And a change after the removal.
    node_rename(node=radiators, name="Radiators, ground floor")
    node_code_assign(node=radiators, code=Code.objects.get(code="423.1"))
    suggestion_sync(plan=synced_plan)
    run_worker()

    assert receiver.received == []
    (skipped,) = WebhookAttempt.objects.filter(delivery__status=DeliveryStatus.SKIPPED)
    assert skipped.error == "the endpoint no longer covers this plan"


def test_the_guard_refuses_a_loopback_receiver_at_delivery_once_private_targets_are_off(
    synced_plan: Plan, receiver: Receiver, owner: User, settings: Any
) -> None:
    radiators = StructureNode.objects.get(plan=synced_plan, name="Radiators")
    missing = Suggestion.objects.get(structure_node=radiators, suggestion_type="missing_code")
    receiver.received.clear()
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False

    suggestions_dismiss(
        plan=synced_plan, suggestion_ids=[missing.pk], user=owner, reason="not_applicable"
    )
    run_worker()

    assert receiver.received == []
    attempt = WebhookAttempt.objects.latest("attempted_at")
    assert attempt.status_code is None
    assert attempt.error == "The URL must start with https://."


def test_an_organisations_endpoint_gets_its_plans_events_and_survives_its_creator(
    synced_plan: Plan, receiver: Receiver, owner: User
) -> None:
    from webhooks.models import WebhookEndpoint
    from webhooks.selectors import endpoint_covers_plan
    from webhooks.services import endpoint_create

    admin = UserFactory.create()
    co_op = organisation_create(name="Co-op", owner=owner)
    Organisation.objects.filter(pk=co_op.pk).update(api_access_enabled=True)
    admin_membership = member_add(organisation=co_op, user=admin, role="admin")
    Plan.objects.filter(pk=synced_plan.pk).update(organisation=co_op)
    elsewhere = PlanFactory.create()
    endpoint, _secret = endpoint_create(user=admin, organisation=co_op, url=receiver.url)
    WebhookEndpoint.objects.exclude(pk=endpoint.pk).delete()  # the fixture's personal one

    member_remove(membership=admin_membership)
    admin.delete()
    radiators = StructureNode.objects.get(plan=synced_plan, name="Radiators")
    receiver.received.clear()
    node_code_assign(node=radiators, code=Code.objects.get(code="423.1"))
    suggestion_sync(plan=synced_plan)
    run_worker()

    assert receiver.events()
    assert {event["data"]["plan_number"] for event in receiver.events()} == {synced_plan.number}
    assert not endpoint_covers_plan(endpoint=endpoint, plan_id=elsewhere.pk)

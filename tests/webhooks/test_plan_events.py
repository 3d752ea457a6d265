"""Plan data events (webhooks.plan_events): each act of the API delivered to a webhook endpoint
and listed by the events API, in order; many changes coalesced to events of at most 100; a raw
SQL change sent with the plan's next write; an adopted version; and nothing before the mark."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from accounts.models import User
from apikeys.models import ApiKey
from apikeys.services import api_access_set, api_key_create
from planning.models import Action, NodeKind, Plan, PlanRole
from planning.plans.services.actions import actions_year_set
from planning.plans.services.nodes import node_rename
from planning.records.adoption import plan_adopt
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)
from tests.webhooks.conftest import Receiver, run_worker
from webhooks.models import WebhookEvent
from webhooks.plan_events import plan_data_events_record
from webhooks.services import endpoint_create

THIS_YEAR = timezone.localdate().year


@pytest.fixture
def owner(db: Any) -> User:
    user = UserFactory.create()
    api_access_set(user=user, enabled=True)
    return user


@pytest.fixture
def plan(owner: User) -> Plan:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=owner, role=PlanRole.EDITOR)
    return plan


def _plan_events(event_type: str | None = None) -> list[dict[str, Any]]:
    events = WebhookEvent.objects.exclude(event_type="suggestions.changed").order_by("created_at")
    if event_type:
        events = events.filter(event_type=event_type)
    return [json.loads(event.body) for event in events]


@pytest.mark.django_db(transaction=True)
@pytest.mark.usefixtures("private_targets")
def test_every_act_is_delivered_and_listed_in_order(
    owner: User, plan: Plan, receiver: Receiver
) -> None:
    endpoint_create(user=owner, url=receiver.url, plans=[plan])
    node = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    _key, raw = api_key_create(user=owner, name="erp", permission=ApiKey.Permission.READ_WRITE)
    auth = {"Authorization": f"Bearer {raw}"}
    base = f"/api/v1/platform/plans/{plan.number}/actions"
    client = Client()
    created = client.post(
        base,
        {"title": "Roof", "kind": "repair", "planned_year": THIS_YEAR + 1, "node_id": str(node.pk)},
        content_type="application/json",
        headers=auth,
    ).json()["data"]
    action = f"{base}/{created['id']}"
    client.patch(action, {"title": "Roof, south"}, content_type="application/json", headers=auth)
    client.post(f"{action}/complete", {}, content_type="application/json", headers=auth)
    client.delete(action, headers=auth)
    run_worker()

    delivered = [r.event for r in receiver.received if r.event["type"] != "suggestions.changed"]
    assert [event["type"] for event in delivered] == [
        "nodes.created",
        "actions.created",
        "actions.updated",
        "actions.completed",
        "actions.updated",
        "actions.deleted",
    ]
    assert all(event["data"]["plan_number"] == plan.number for event in delivered)
    listed = client.get("/api/v1/platform/events", headers=auth).json()["data"]["events"]
    assert [e["id"] for e in listed if e["type"] != "suggestions.changed"] == [
        e["id"] for e in delivered
    ]
    renamed = delivered[2]["data"]["changes"][0]
    assert renamed["fields"] == {"title": {"before": "Roof", "after": "Roof, south"}}
    assert renamed["actor"] == {"kind": "user", "label": owner.email}


@pytest.mark.django_db
def test_many_changes_of_one_write_make_events_of_at_most_100(plan: Plan) -> None:
    node = StructureNodeFactory.create(plan=plan)
    ActionFactory.create_batch(250, plan=plan, node=node, planned_year=THIS_YEAR + 1)
    plan_data_events_record(plan_id=plan.pk)  # the rows made by the factories
    WebhookEvent.objects.all().delete()

    actions_year_set(
        plan=plan, action_ids=list(Action.objects.values_list("pk", flat=True)), year=THIS_YEAR + 4
    )

    events = _plan_events("actions.updated")
    assert sorted(len(e["data"]["changes"]) for e in events) == [50, 100, 100]
    changed = {c["id"] for e in events for c in e["data"]["changes"]}
    assert changed == {str(pk) for pk in Action.objects.values_list("pk", flat=True)}


@pytest.mark.django_db
def test_a_raw_sql_change_is_sent_with_the_plans_next_write(plan: Plan) -> None:
    node = StructureNodeFactory.create(plan=plan, name="Old")
    plan_data_events_record(plan_id=plan.pk)
    WebhookEvent.objects.all().delete()
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE planning_structurenode SET name = %s WHERE name = %s", ["By SQL", "Old"]
        )
    assert not _plan_events()  # nothing said the plan changed yet

    node.refresh_from_db()
    node_rename(node=node, name="By the app")

    [event] = _plan_events("nodes.updated")
    changes = event["data"]["changes"]
    assert [c["fields"]["name"] for c in changes] == [
        {"before": "Old", "after": "By SQL"},
        {"before": "By SQL", "after": "By the app"},
    ]
    assert changes[0]["actor"] == {"kind": "system", "label": ""}


@pytest.mark.django_db
def test_an_adopted_version_is_an_event(plan: Plan, owner: User) -> None:
    version = plan_adopt(plan=plan, name="Board 2026", by=owner)
    [event] = _plan_events("versions.adopted")
    [change] = event["data"]["changes"]
    assert change["id"] == str(version.pk)
    assert change["fields"]["name"] == {"before": None, "after": "Board 2026"}
    assert change["actor"] == {"kind": "user", "label": owner.email}

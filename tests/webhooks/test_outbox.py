"""The outbox: which endpoints get an event for a plan's changes, and how changes are split."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from planning.models import PlanRole, StructureNode, Suggestion
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import (
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)
from tests.webhooks.factories import endpoint_for
from webhooks.events import suggestion_changes_record
from webhooks.models import WebhookDelivery, WebhookEvent
from webhooks.services import endpoint_disable

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("suggestion_events_only")]


@pytest.fixture
def member_plan(user: Any) -> Any:
    """A plan the user views, of an organisation with API access (webhooks follow it)."""
    plan = PlanFactory.create(organisation__api_access_enabled=True)
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    return plan


def test_a_sync_with_no_endpoint_writes_its_event_for_the_events_api_and_sends_nothing(
    member_plan: Any,
) -> None:
    StructureNodeFactory.create(plan=member_plan)
    assert suggestion_sync(plan=member_plan).created == 1
    event = WebhookEvent.objects.get()
    body = json.loads(event.body)
    assert (body["id"], body["type"]) == (event.pk, "suggestions.changed")
    assert [c["change"] for c in body["data"]["changes"]] == ["opened"]
    assert not WebhookDelivery.objects.exists()
    assert not DBTaskResult.objects.filter(task_path="webhooks.tasks.webhook_deliver").exists()


def test_every_100_changes_make_one_event_each_queued_for_every_covering_endpoint(
    user: Any, member_plan: Any
) -> None:
    suggestion_sync(plan=member_plan)  # the first sync (of an empty plan) is behind it
    all_plans, _ = endpoint_for(user)
    this_plan, _ = endpoint_for(user, plans=[member_plan])
    StructureNodeFactory.create_batch(250, plan=member_plan)

    suggestion_sync(plan=member_plan)

    events = list(WebhookEvent.objects.order_by("body"))
    bodies = [json.loads(e.body) for e in events]
    assert {b["type"] for b in bodies} == {"suggestions.changed"}
    assert sorted(len(b["data"]["changes"]) for b in bodies) == [50, 100, 100]
    sent = {c["suggestion"]["id"] for b in bodies for c in b["data"]["changes"]}
    assert sent == {str(pk) for pk in Suggestion.objects.values_list("pk", flat=True)}
    assert len({b["id"] for b in bodies}) == 3
    pairs = set(WebhookDelivery.objects.values_list("event_id", "endpoint_id"))
    assert pairs == {(e.pk, ep.pk) for e in events for ep in (all_plans, this_plan)}
    jobs = DBTaskResult.objects.filter(task_path="webhooks.tasks.webhook_deliver")
    assert jobs.count() == 6


def test_a_first_sync_opening_more_than_one_event_holds_sends_one_summary_instead(
    user: Any, member_plan: Any
) -> None:
    all_plans, _ = endpoint_for(user)
    this_plan, _ = endpoint_for(user, plans=[member_plan])
    StructureNodeFactory.create_batch(150, plan=member_plan)  # a missing code each

    assert suggestion_sync(plan=member_plan).created == 150

    (event,) = WebhookEvent.objects.all()
    body = json.loads(event.body)
    assert (body["id"], body["type"]) == (event.pk, "suggestions.bulk_changed")
    data = body["data"]
    assert (data["plan_id"], data["plan_number"]) == (str(member_plan.pk), member_plan.number)
    assert data["actor"] == {"kind": "system", "id": "", "name": ""}
    assert data["reason"] == "first_sync"
    assert data["counts"] == {
        "opened": 150,
        "updated": 0,
        "resolved": 0,
        "dismissed": 0,
        "reopened": 0,
    }
    assert data["open_count"] == 150
    assert data["open_by_severity"] == {"info": 150, "warning": 0, "critical": 0}
    assert data["open_by_type"]["missing_code"] == 150
    assert sum(data["open_by_type"].values()) == 150
    pairs = set(WebhookDelivery.objects.values_list("event_id", "endpoint_id"))
    assert pairs == {(event.pk, all_plans.pk), (event.pk, this_plan.pk)}
    jobs = DBTaskResult.objects.filter(task_path="webhooks.tasks.webhook_deliver")
    assert jobs.count() == 2


def test_after_the_summary_the_next_syncs_send_each_change(user: Any, member_plan: Any) -> None:
    endpoint_for(user)
    nodes = StructureNodeFactory.create_batch(101, plan=member_plan)
    suggestion_sync(plan=member_plan)
    assert list(WebhookEvent.objects.values_list("event_type", flat=True)) == [
        "suggestions.bulk_changed"
    ]
    WebhookEvent.objects.all().delete()
    code = CodeFactory.create()
    StructureNode.objects.filter(pk=nodes[0].pk).update(code=code)  # its missing code goes

    suggestion_sync(plan=member_plan)
    suggestion_sync(plan=member_plan, full=True)  # a full sync later is no first sync

    (event,) = WebhookEvent.objects.all()
    changes = json.loads(event.body)["data"]["changes"]
    assert [(c["change"], c["suggestion"]["structure_node_id"]) for c in changes] == [
        ("resolved", str(nodes[0].pk))
    ]


def test_endpoints_of_non_members_other_plans_or_disabled_get_nothing(
    user: Any, member_plan: Any
) -> None:
    endpoint_for(UserFactory.create())  # a stranger's endpoint for "every plan"
    receiving, _ = endpoint_for(user)
    other_plan = PlanFactory.create(organisation__api_access_enabled=True)
    PlanMembershipFactory.create(plan=other_plan, user=user)
    endpoint_for(user, plans=[other_plan])
    disabled, _ = endpoint_for(user, plans=[member_plan])
    endpoint_disable(endpoint=disabled)
    StructureNodeFactory.create(plan=member_plan)
    suggestion_sync(plan=member_plan)

    assert list(WebhookDelivery.objects.values_list("endpoint_id", flat=True)) == [receiving.pk]


def test_an_unknown_change_is_a_programming_error(user: Any, member_plan: Any) -> None:
    endpoint_for(user)
    node = StructureNodeFactory.create(plan=member_plan)
    suggestion_sync(plan=member_plan)
    suggestion = Suggestion.objects.get(structure_node=node)
    with pytest.raises(ValueError, match="unknown suggestion change"):
        suggestion_changes_record(plan_id=member_plan.pk, changes=[("deleted", suggestion.pk)])


def test_bulk_dismiss_and_restore_publish_dismissed_then_reopened(
    user: Any, member_plan: Any
) -> None:
    from planning.suggestions.services.dismissal import suggestion_restore, suggestions_dismiss

    endpoint_for(user, plans=[member_plan])
    StructureNodeFactory.create_batch(2, plan=member_plan)
    suggestion_sync(plan=member_plan)
    first, second = Suggestion.objects.order_by("pk")
    WebhookEvent.objects.all().delete()

    suggestions_dismiss(
        plan=member_plan, suggestion_ids=[first.pk, second.pk], user=user, reason="not_applicable"
    )
    suggestion_restore(suggestion=first)

    bodies = [json.loads(e.body) for e in WebhookEvent.objects.order_by("created_at", "pk")]
    changes = [(c["change"], c["suggestion"]["id"]) for b in bodies for c in b["data"]["changes"]]
    assert sorted(changes[:2]) == sorted(
        [("dismissed", str(first.pk)), ("dismissed", str(second.pk))]
    )
    assert changes[2:] == [("reopened", str(first.pk))]


def _changes() -> list[tuple[str, str]]:
    bodies = [json.loads(e.body) for e in WebhookEvent.objects.order_by("created_at", "pk")]
    return [(c["change"], c["suggestion"]["id"]) for b in bodies for c in b["data"]["changes"]]


def test_apply_publishes_resolved_in_its_transaction(user: Any, member_plan: Any) -> None:
    from planning.suggestions.services.apply import suggestion_apply_code

    endpoint_for(user, plans=[member_plan])
    code = CodeFactory.create(name="Zyxwidget unit", keywords="zyxwidget")
    StructureNodeFactory.create(plan=member_plan, name="Zyxwidget")
    suggestion_sync(plan=member_plan)
    (suggestion,) = Suggestion.objects.filter(plan=member_plan)
    WebhookEvent.objects.all().delete()

    suggestion_apply_code(suggestion=suggestion, code_id=str(code.pk))

    assert _changes() == [("resolved", str(suggestion.pk))]
    (event,) = WebhookEvent.objects.all()
    assert json.loads(event.body)["data"]["changes"][0]["suggestion"]["status"] == "resolved"


@pytest.mark.parametrize("write", ["sync", "apply", "dismiss", "restore"])
def test_a_rolled_back_write_publishes_nothing(user: Any, member_plan: Any, write: str) -> None:
    from planning.suggestions.services.apply import suggestion_apply_code
    from planning.suggestions.services.dismissal import suggestion_restore, suggestions_dismiss

    endpoint_for(user, plans=[member_plan])
    code = CodeFactory.create(name="Zyxwidget unit", keywords="zyxwidget")
    StructureNodeFactory.create(plan=member_plan, name="Zyxwidget")
    if write != "sync":
        suggestion_sync(plan=member_plan)
        (suggestion,) = Suggestion.objects.filter(plan=member_plan)
    if write == "restore":
        suggestions_dismiss(
            plan=member_plan, suggestion_ids=[suggestion.pk], user=user, reason="accepted"
        )
    events_before = WebhookEvent.objects.count()
    jobs_before = DBTaskResult.objects.count()

    with pytest.raises(RuntimeError), transaction.atomic():
        if write == "sync":
            assert suggestion_sync(plan=member_plan).created == 1
        elif write == "apply":
            suggestion_apply_code(suggestion=suggestion, code_id=str(code.pk))
        elif write == "dismiss":
            suggestions_dismiss(
                plan=member_plan, suggestion_ids=[suggestion.pk], user=user, reason="accepted"
            )
        else:
            suggestion_restore(suggestion=suggestion)
        assert WebhookEvent.objects.count() == events_before + 1  # written in the transaction
        raise RuntimeError("the request failed after the write")

    assert WebhookEvent.objects.count() == events_before
    assert DBTaskResult.objects.count() == jobs_before

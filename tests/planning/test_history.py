"""The change history (docs/subsystems/history.md "History"): every path that changes a plan's data
leaves an entry with the right actor (a form, a service, an import, the admin, `QuerySet.update()`,
raw SQL), an import is one entry, a plan's history shows nothing of another plan, and the
History tab filters, pages and exports it."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection, transaction
from django.test import Client
from django.urls import reverse

from accounts.actor import Actor
from accounts.actor import acting as history_actor
from planning.core.actor import history_context
from planning.models import (
    Action,
    ActionStatus,
    HistoryEntry,
    NodeKind,
    Plan,
    PlanRole,
    Suggestion,
    SuggestionStatus,
)
from planning.plans.services.actions import action_mark_done, action_update
from planning.plans.services.nodes import node_rename
from planning.plans.services.plans import plan_delete
from planning.records.history import HistoryFilters, entity_history, history_page, plan_history
from planning.suggestions.services.dismissal import suggestion_restore, suggestions_dismiss
from planning.suggestions.sync.run import suggestion_sync
from planning.transfer.imports.json_file import plan_import
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(name="Harbour")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    return plan


@pytest.fixture
def house(plan: Plan) -> Any:
    return StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")


@pytest.fixture
def action(house: Any) -> Action:
    return ActionFactory.create(
        node=house, title="Paint", planned_year=2030, estimated_cost=Decimal("100.00")
    )


def _latest(plan: Plan) -> HistoryEntry:
    return HistoryEntry.objects.filter(plan_id=plan.pk).order_by("-id")[0]


def _value(value: Any) -> str:
    """A recorded value as text (each database writes numbers in JSON its own way)."""
    if isinstance(value, (int, float)):
        return format(Decimal(str(value)).normalize(), "f")
    return str(value)


def test_a_form_records_the_person_and_the_fields_before_and_after(
    client: Client, user: Any, plan: Plan, house: Any
) -> None:
    client.force_login(user)
    url = reverse("planning:node_rename", args=[plan.number, house.pk])
    assert client.post(url, {"rename-name": "Main house"}).status_code == 302
    entry = _latest(plan)
    assert (entry.actor_kind, entry.actor_id, entry.actor_label) == (
        "user",
        str(user.pk),
        user.email,
    )
    assert (entry.entity, entry.entity_uuid, entry.operation) == ("node", house.pk, "update")
    assert entry.changes == {"name": ["House", "Main house"]}
    assert entry.entity_label == "Main house"


def test_a_service_records_its_actor_and_only_the_fields_that_changed(
    plan: Plan, action: Action, user: Any
) -> None:
    with history_actor(Actor.user(user)):
        action_update(
            action=action,
            node=action.node,
            title="Paint",
            kind=action.kind,
            planned_year=2031,
            estimated_cost=Decimal("150.00"),
            interval_years=None,
        )
    entry = _latest(plan)
    assert (entry.actor_kind, entry.actor_label, entry.entity) == ("user", user.email, "action")
    assert {name: [_value(v) for v in pair] for name, pair in entry.changes.items()} == {
        "planned_year": ["2030", "2031"],
        "estimated_cost": ["100", "150"],
    }


def test_a_change_outside_the_app_is_the_systems_update_and_raw_sql_alike(
    plan: Plan, action: Action, user: Any
) -> None:
    with history_actor(Actor.user(user)):
        node_rename(node=action.node, name="Renamed by a person")
    # after the person's write, in the same transaction: no actor is left behind
    Action.objects.filter(pk=action.pk).update(planned_year=2040)
    update = _latest(plan)
    assert (update.actor_kind, update.actor_label) == ("system", "")
    assert update.changes == {"planned_year": [2030, 2040]}
    with connection.cursor() as cursor:
        cursor.execute("UPDATE planning_action SET title = %s WHERE title = %s", ["Raw", "Paint"])
    raw = _latest(plan)
    assert (raw.actor_kind, raw.entity, raw.changes) == (
        "system",
        "action",
        {"title": ["Paint", "Raw"]},
    )


def test_update_inside_the_apps_context_has_its_actor(
    plan: Plan, action: Action, user: Any
) -> None:
    with history_actor(Actor.user(user)), transaction.atomic(), history_context():
        Action.objects.filter(plan=plan).update(status=ActionStatus.CANCELLED)
    entry = _latest(plan)
    assert (entry.actor_label, entry.changes) == (user.email, {"status": ["planned", "cancelled"]})


def test_the_admin_records_the_staff_member(client: Client, plan: Plan, house: Any) -> None:
    staff = UserFactory.create(is_staff=True, is_superuser=True)
    client.force_login(staff)
    url = reverse("admin:planning_project_add")
    response = client.post(url, {"plan": str(plan.pk), "name": "Roofs 2031", "year": "2031"})
    assert response.status_code == 302, response.content.decode()[:2000]
    entry = _latest(plan)
    assert (entry.actor_label, entry.entity, entry.operation) == (staff.email, "project", "create")
    assert entry.changes == {"name": [None, "Roofs 2031"], "year": [None, 2031]}


def test_an_import_is_one_entry_that_stands_for_its_rows(user: Any) -> None:
    document = {
        "name": "Imported",
        "nodes": [
            {"ref": "S", "name": "Site", "kind": "site"},
            {"ref": "B", "parent_ref": "S", "name": "Block", "kind": "building"},
        ],
        "actions": [
            {
                "node_ref": "B",
                "title": f"Check {n}",
                "kind": "inspection",
                "planned_year": 2030,
                "estimated_cost": "10",
            }
            for n in range(3)
        ],
    }
    import json

    with history_actor(Actor.user(user)):
        plan = plan_import(owner=user, content=json.dumps(document).encode(), filename="p.json")
    entries = list(HistoryEntry.objects.filter(plan_id=plan.pk))
    assert len(entries) == 1
    assert entries[0].operation == "import"
    assert entries[0].summary == "Imported 2 nodes and 3 actions"
    assert (entries[0].actor_kind, entries[0].actor_label) == ("import", f"import by {user.email}")
    block = plan.nodes.get(name="Block")
    assert [view.entry.pk for view in entity_history(plan=plan, entity_id=block.pk)] == [
        entries[0].pk
    ]


def test_completions_dismissals_and_restores_are_recorded(
    plan: Plan, action: Action, user: Any
) -> None:
    with history_actor(Actor.user(user)):
        action_mark_done(action=action, by=user, actual_cost=Decimal("120.00"))
    completion = HistoryEntry.objects.get(plan_id=plan.pk, entity="completion")
    assert (completion.entity, completion.subject_uuid, completion.entity_label) == (
        "completion",
        action.pk,
        "Paint",
    )
    StructureNodeFactory.create(plan=plan, name="Boiler")  # no code: a suggestion
    suggestion_sync(plan=plan)
    suggestion = Suggestion.objects.filter(plan=plan, status=SuggestionStatus.OPEN)[0]
    before = HistoryEntry.objects.filter(plan_id=plan.pk).count()
    with history_actor(Actor.user(user)):
        suggestions_dismiss(plan=plan, suggestion_ids=[suggestion.pk], user=user, reason="accepted")
        suggestion.refresh_from_db()
        suggestion_restore(suggestion=suggestion)
    dismissal, restore = HistoryEntry.objects.filter(plan_id=plan.pk).order_by("id")[before:]
    assert dismissal.changes["status"] == ["open", "dismissed"]
    assert restore.changes["status"] == ["dismissed", "open"]
    # the action's own history lists its completion
    assert completion.pk in {v.entry.pk for v in entity_history(plan=plan, entity_id=action.pk)}


def test_a_plans_history_never_shows_another_plans_rows(
    client: Client, user: Any, plan: Plan, action: Action
) -> None:
    other = PlanFactory.create(name="Other")
    other_node = StructureNodeFactory.create(plan=other, name="Secret shed")
    ActionFactory.create(node=other_node, title="Secret work")
    client.force_login(user)
    page = client.get(reverse("planning:plan_history", args=[plan.number])).content.decode()
    assert "Paint" in page and "Secret" not in page
    assert client.get(reverse("planning:plan_history", args=[other.number])).status_code == 404
    by_id = client.get(
        reverse("planning:plan_history", args=[plan.number]), {"entity_id": str(other_node.pk)}
    ).content.decode()
    assert "Secret" not in by_id
    assert not plan_history(plan=plan, filters=HistoryFilters(entity_id=other_node.pk)).exists()


def test_a_deleted_plans_history_goes_with_it(plan: Plan, action: Action) -> None:
    plan_id = plan.pk
    assert HistoryEntry.objects.filter(plan_id=plan_id).exists()
    plan_delete(plan=plan)
    assert not HistoryEntry.objects.filter(plan_id=plan_id).exists()


def test_the_history_tab_filters_pages_and_exports(
    client: Client, user: Any, plan: Plan, house: Any
) -> None:
    other = UserFactory.create(email="colleague@example.com")
    for n in range(7):
        with history_actor(Actor.user(user if n % 2 else other)):
            node_rename(node=house, name=f"House {n}")
    url = reverse("planning:plan_history", args=[plan.number])
    client.force_login(user)

    page = client.get(url, {"person": "colleague"}).content.decode()
    assert page.count('class="history-entry"') == 4
    assert "<ins>House 6</ins>" in page and "<ins>House 5</ins>" not in page
    assert (
        client.get(url, {"entity": "action"}).content.decode().count('class="history-entry"') == 0
    )
    bad = client.get(url, {"date_from": "not a date"})
    assert bad.status_code == 200 and "Enter a valid date." in bad.content.decode()

    entries = plan_history(plan=plan, filters=HistoryFilters())
    first, before = history_page(entries, before=None, size=3)
    second, _ = history_page(entries, before=before, size=3)
    assert [e.pk for e in first + second] == list(entries.values_list("pk", flat=True)[:6])

    response: Any = client.get(
        reverse("planning:plan_history_csv", args=[plan.number]), {"person": "colleague"}
    )
    assert response["Content-Disposition"].startswith(f'attachment; filename="plan-{plan.number}')
    rows = list(csv.reader(io.StringIO(b"".join(response.streaming_content).decode("utf-8-sig"))))
    assert rows[0][:4] == ["When (UTC)", "Who", "Actor kind", "What"]
    assert [row[1] for row in rows[1:]] == ["colleague@example.com"] * 4
    assert rows[1][6:] == ["Name", "House 5", "House 6"]


def test_node_and_action_pages_show_their_history(
    client: Client, user: Any, plan: Plan, action: Action
) -> None:
    client.force_login(user)
    client.post(
        reverse("planning:node_rename", args=[plan.number, action.node_id]),
        {"rename-name": "Big house"},
    )
    node_page = client.get(reverse("planning:node_detail", args=[plan.number, action.node_id]))
    text = node_page.content.decode()
    assert 'id="node-history"' in text and "Big house" in text and user.email in text
    action_page = client.get(reverse("planning:action_edit", args=[plan.number, action.pk]))
    assert 'id="action-history"' in action_page.content.decode()

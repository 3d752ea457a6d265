"""Changing actions and applying suggestions over the API (platform_api.endpoints.action_acts):
each act's success, its field errors, a viewer's key refused, an Idempotency-Key replay, its
history entry with the key's principal and its plan data event in the events API; and the
actions list's `updated_since`."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apikeys.models import ApiKey
from apikeys.services import api_access_set, api_key_create
from planning.models import (
    Action,
    Completion,
    HistoryEntry,
    NodeKind,
    Plan,
    PlanRole,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.services.projects import project_delete
from planning.suggestions.sync.run import suggestion_sync
from tests.envelope import assert_envelope
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db

THIS_YEAR = timezone.localdate().year


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    return plan


@pytest.fixture
def node(plan: Plan) -> Any:
    return StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")


@pytest.fixture
def action(plan: Plan, node: Any) -> Action:
    return ActionFactory.create(
        plan=plan, node=node, title="Paint", planned_year=THIS_YEAR + 2, estimated_cost=100
    )


@pytest.fixture
def raw(user: Any) -> str:
    api_access_set(user=user, enabled=True)
    _api_key, raw = api_key_create(user=user, name="erp", permission=ApiKey.Permission.READ_WRITE)
    return raw


def _call(raw: str, method: str, path: str, body: Any = None, **headers: str) -> Any:
    return getattr(Client(), method)(
        f"/api/v1/platform/plans/{path}",
        "" if body is None else body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {raw}", **headers},
    )


def _events(raw: str, event_type: str) -> list[dict[str, Any]]:
    response = Client().get(
        "/api/v1/platform/events",
        {"type": event_type},
        headers={"Authorization": f"Bearer {raw}"},
    )
    assert response.status_code == 200
    events: list[dict[str, Any]] = response.json()["data"]["events"]
    return events


def _latest_entry(plan: Plan, entity: str) -> HistoryEntry:
    return HistoryEntry.objects.filter(plan_id=plan.pk, entity=entity).latest("id")


def _create_body(node: Any, **fields: Any) -> dict[str, Any]:
    return {
        "title": "Replace roof",
        "kind": "replacement",
        "planned_year": THIS_YEAR + 3,
        "estimated_cost": "12500.00",
        "node_id": str(node.pk),
        **fields,
    }


# --- create ---------------------------------------------------------------------------------


def test_create_adds_the_action_with_history_and_event(
    plan: Plan, node: Any, raw: str, user: Any
) -> None:
    body = _create_body(node, interval_years=30, unknown_field="ignored")
    data = assert_envelope(
        _call(raw, "post", f"{plan.number}/actions", body), 200, "actions.created"
    )["data"]
    action = Action.objects.get(pk=data["id"])
    assert (action.title, action.planned_year, action.estimated_cost, action.interval_years) == (
        "Replace roof",
        THIS_YEAR + 3,
        Decimal("12500.00"),
        30,
    )
    assert data["estimated_cost"] == "12500.00"
    entry = _latest_entry(plan, "action")
    assert (entry.operation, entry.actor_kind, entry.actor_label) == ("create", "user", user.email)
    [event] = _events(raw, "actions.created")
    [change] = event["data"]["changes"]
    assert change["id"] == data["id"]
    assert change["fields"]["title"] == {"before": None, "after": "Replace roof"}
    assert change["actor"] == {"kind": "user", "label": user.email}
    assert event["data"]["plan_number"] == plan.number


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"title": ""}, "title"),
        ({"kind": "paint"}, "kind"),
        ({"planned_year": THIS_YEAR + 500}, "planned_year"),
        ({"interval_years": 0}, "interval_years"),
        ({"estimated_cost": "-1"}, "estimated_cost"),
        ({"status": "done"}, "status"),
        ({"node_id": "00000000-0000-0000-0000-000000000000"}, "node_id"),
        ({"project_id": "00000000-0000-0000-0000-000000000000"}, "project_id"),
    ],
)
def test_create_names_the_field_in_error(
    plan: Plan, node: Any, raw: str, fields: dict[str, Any], field: str
) -> None:
    response = _call(raw, "post", f"{plan.number}/actions", _create_body(node, **fields))
    errors = assert_envelope(response, 400, "validation.failed")["data"]["errors"]
    assert list(errors) == [field]
    assert not Action.objects.filter(plan=plan).exists()


def test_create_refuses_a_viewers_key(plan: Plan, node: Any, raw: str) -> None:
    plan.memberships.update(role=PlanRole.VIEWER)
    response = _call(raw, "post", f"{plan.number}/actions", _create_body(node))
    assert_envelope(response, 403, "auth.insufficient_permission")
    assert not Action.objects.filter(plan=plan).exists()


def test_create_replays_with_its_idempotency_key(plan: Plan, node: Any, raw: str) -> None:
    first = _call(
        raw, "post", f"{plan.number}/actions", _create_body(node), **{"Idempotency-Key": "c1"}
    )
    again = _call(
        raw, "post", f"{plan.number}/actions", _create_body(node), **{"Idempotency-Key": "c1"}
    )
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["data"] == first.json()["data"]
    assert Action.objects.filter(plan=plan).count() == 1
    other = _call(
        raw,
        "post",
        f"{plan.number}/actions",
        _create_body(node, title="Other"),
        **{"Idempotency-Key": "c1"},
    )
    assert_envelope(other, 409, "idempotency.mismatch")
    assert len(_events(raw, "actions.created")) == 1


# --- update ---------------------------------------------------------------------------------


def test_patch_changes_only_the_fields_sent(plan: Plan, action: Action, raw: str) -> None:
    project = ProjectFactory.create(plan=plan, name="Roofs", year=THIS_YEAR + 2)
    body = {"estimated_cost": "250.50", "project_id": str(project.pk), "colour": "red"}
    data = assert_envelope(
        _call(raw, "patch", f"{plan.number}/actions/{action.pk}", body), 200, "actions.updated"
    )["data"]
    assert (data["title"], data["estimated_cost"], data["project_id"]) == (
        "Paint",
        "250.50",
        str(project.pk),
    )
    entry = _latest_entry(plan, "action")
    assert entry.operation == "update"
    assert set(entry.changes) == {"estimated_cost", "project_id"}
    [event] = _events(raw, "actions.updated")
    [change] = event["data"]["changes"]
    assert change["id"] == str(action.pk)
    assert change["fields"]["project_id"] == {"before": None, "after": str(project.pk)}
    assert set(change["fields"]) == {"estimated_cost", "project_id"}


def test_patch_cancels_and_reopens_by_status(plan: Plan, action: Action, raw: str) -> None:
    path = f"{plan.number}/actions/{action.pk}"
    assert _call(raw, "patch", path, {"status": "cancelled"}).json()["data"]["status"] == (
        "cancelled"
    )
    assert _call(raw, "patch", path, {"status": "planned"}).json()["data"]["status"] == "planned"


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"title": "x" * 201}, "title"),
        ({"kind": 3}, "kind"),
        ({"planned_year": "soon"}, "planned_year"),
        ({"interval_years": 500}, "interval_years"),
        ({"estimated_cost": "1e20"}, "estimated_cost"),
        ({"status": "gone"}, "status"),
        ({"node_id": "not-a-uuid"}, "node_id"),
        ({"project_id": "00000000-0000-0000-0000-000000000000"}, "project_id"),
    ],
)
def test_patch_names_the_field_in_error(
    plan: Plan, action: Action, raw: str, body: dict[str, Any], field: str
) -> None:
    response = _call(raw, "patch", f"{plan.number}/actions/{action.pk}", body)
    errors = assert_envelope(response, 400, "validation.failed")["data"]["errors"]
    assert list(errors) == [field]
    action.refresh_from_db()
    assert (action.title, action.estimated_cost) == ("Paint", Decimal(100))


def test_patch_refuses_a_viewers_key_and_an_unknown_action(
    plan: Plan, action: Action, raw: str
) -> None:
    missing = _call(raw, "patch", f"{plan.number}/actions/{plan.pk}", {"title": "New"})
    assert_envelope(missing, 404, "actions.not_found")
    plan.memberships.update(role=PlanRole.VIEWER)
    response = _call(raw, "patch", f"{plan.number}/actions/{action.pk}", {"title": "New"})
    assert_envelope(response, 403, "auth.insufficient_permission")
    action.refresh_from_db()
    assert action.title == "Paint"


def test_patch_replays_with_its_idempotency_key(plan: Plan, action: Action, raw: str) -> None:
    path = f"{plan.number}/actions/{action.pk}"
    _call(raw, "patch", path, {"title": "Once"}, **{"Idempotency-Key": "p1"})
    Action.objects.filter(pk=action.pk).update(title="Changed since")
    again = _call(raw, "patch", path, {"title": "Once"}, **{"Idempotency-Key": "p1"})
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["data"]["title"] == "Once"
    action.refresh_from_db()
    assert action.title == "Changed since"  # the replay changed nothing


# --- complete -------------------------------------------------------------------------------


def test_complete_records_the_work(plan: Plan, action: Action, raw: str, user: Any) -> None:
    body = {"completed_on": str(timezone.localdate()), "actual_cost": "95.00"}
    data = assert_envelope(
        _call(raw, "post", f"{plan.number}/actions/{action.pk}/complete", body),
        200,
        "actions.completed",
    )["data"]
    assert data["status"] == "done"
    completion = Completion.objects.get(action=action)
    assert (completion.actual_cost, completion.by) == (Decimal("95.00"), user)
    entry = _latest_entry(plan, "completion")
    assert (entry.operation, entry.actor_label) == ("create", user.email)
    [event] = _events(raw, "actions.completed")
    [change] = event["data"]["changes"]
    assert change["id"] == str(action.pk)
    assert change["fields"]["actual_cost"]["after"] in ("95.00", "95", 95, 95.0)
    [updated] = _events(raw, "actions.updated")
    assert updated["data"]["changes"][0]["fields"]["status"] == {
        "before": "planned",
        "after": "done",
    }


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"completed_on": "yesterday"}, "completed_on"),
        ({"completed_on": str(timezone.localdate() + datetime.timedelta(days=30))}, "completed_on"),
        ({"actual_cost": "-5"}, "actual_cost"),
    ],
)
def test_complete_names_the_field_in_error(
    plan: Plan, action: Action, raw: str, body: dict[str, Any], field: str
) -> None:
    response = _call(raw, "post", f"{plan.number}/actions/{action.pk}/complete", body)
    errors = assert_envelope(response, 400, "validation.failed")["data"]["errors"]
    assert field in errors
    assert not Completion.objects.exists()


def test_complete_twice_is_a_state_conflict(plan: Plan, action: Action, raw: str) -> None:
    path = f"{plan.number}/actions/{action.pk}/complete"
    assert _call(raw, "post", path, {}).status_code == 200
    assert_envelope(_call(raw, "post", path, {}), 409, "actions.state_conflict")


def test_complete_refuses_a_viewers_key(plan: Plan, action: Action, raw: str) -> None:
    plan.memberships.update(role=PlanRole.VIEWER)
    response = _call(raw, "post", f"{plan.number}/actions/{action.pk}/complete", {})
    assert_envelope(response, 403, "auth.insufficient_permission")
    assert not Completion.objects.exists()


def test_complete_replays_with_its_idempotency_key(plan: Plan, action: Action, raw: str) -> None:
    path = f"{plan.number}/actions/{action.pk}/complete"
    first = _call(raw, "post", path, {}, **{"Idempotency-Key": "k-1"})
    again = _call(raw, "post", path, {}, **{"Idempotency-Key": "k-1"})
    assert (first.status_code, again["Idempotent-Replayed"]) == (200, "true")
    assert Completion.objects.filter(action=action).count() == 1


# --- delete ---------------------------------------------------------------------------------


def test_delete_removes_the_action(plan: Plan, action: Action, raw: str, user: Any) -> None:
    response = _call(raw, "delete", f"{plan.number}/actions/{action.pk}")
    assert assert_envelope(response, 200, "actions.deleted")["data"] == {"id": str(action.pk)}
    assert not Action.objects.filter(pk=action.pk).exists()
    entry = _latest_entry(plan, "action")
    assert (entry.operation, entry.actor_label) == ("delete", user.email)
    [event] = _events(raw, "actions.deleted")
    [change] = event["data"]["changes"]
    assert change["id"] == str(action.pk)
    assert change["fields"]["title"] == {"before": "Paint", "after": None}


def test_delete_refuses_a_viewers_key(plan: Plan, action: Action, raw: str) -> None:
    plan.memberships.update(role=PlanRole.VIEWER)
    response = _call(raw, "delete", f"{plan.number}/actions/{action.pk}")
    assert_envelope(response, 403, "auth.insufficient_permission")
    assert Action.objects.filter(pk=action.pk).exists()


def test_delete_replays_with_its_idempotency_key(plan: Plan, action: Action, raw: str) -> None:
    path = f"{plan.number}/actions/{action.pk}"
    _call(raw, "delete", path, **{"Idempotency-Key": "d1"})
    again = _call(raw, "delete", path, **{"Idempotency-Key": "d1"})
    assert again.status_code == 200
    assert again["Idempotent-Replayed"] == "true"
    assert_envelope(_call(raw, "delete", path), 404, "actions.not_found")


# --- apply ----------------------------------------------------------------------------------


@pytest.fixture
def missing_code(plan: Plan, node: Any) -> Suggestion:
    code = CodeFactory.create()
    StructureNodeFactory.create(plan=plan, parent=node, kind=NodeKind.COMPONENT, name="Roof")
    suggestion_sync(plan=plan)
    suggestion = Suggestion.objects.filter(
        plan=plan, suggestion_type=SuggestionType.MISSING_CODE, status=SuggestionStatus.OPEN
    ).first()
    assert suggestion is not None
    suggestion.recommended_action_json = {
        "action": "assign_code",
        "prefill_code_ids": [str(code.pk)],
    }
    suggestion.save(update_fields=["recommended_action_json"])
    return suggestion


def _apply_path(plan: Plan, suggestion: Suggestion) -> str:
    return f"{plan.number}/suggestions/{suggestion.pk}/apply"


def test_apply_assigns_the_chosen_code(
    plan: Plan, missing_code: Suggestion, raw: str, user: Any
) -> None:
    code_id = missing_code.recommended_action_json["prefill_code_ids"][0]
    response = _call(raw, "post", _apply_path(plan, missing_code), {"code_id": code_id})
    assert assert_envelope(response, 200, "suggestions.applied")["data"]["status"] == "resolved"
    node = missing_code.structure_node
    node.refresh_from_db()
    assert str(node.code_id) == code_id
    entry = _latest_entry(plan, "node")
    assert (entry.operation, entry.actor_label) == ("update", user.email)
    [event] = _events(raw, "nodes.updated")
    assert event["data"]["changes"][0]["fields"]["code_id"]["after"] == code_id


def test_apply_names_the_code_id_in_error(plan: Plan, missing_code: Suggestion, raw: str) -> None:
    for body in ({}, {"code_id": str(plan.pk)}, {"code_id": "x"}):
        response = _call(raw, "post", _apply_path(plan, missing_code), body)
        assert "code_id" in assert_envelope(response, 400, "validation.failed")["data"]["errors"]
    missing_code.refresh_from_db()
    assert missing_code.status == SuggestionStatus.OPEN


def test_apply_refuses_a_viewers_key(plan: Plan, missing_code: Suggestion, raw: str) -> None:
    plan.memberships.update(role=PlanRole.VIEWER)
    code_id = missing_code.recommended_action_json["prefill_code_ids"][0]
    response = _call(raw, "post", _apply_path(plan, missing_code), {"code_id": code_id})
    assert_envelope(response, 403, "auth.insufficient_permission")


def test_apply_replays_and_then_conflicts(plan: Plan, missing_code: Suggestion, raw: str) -> None:
    code_id = missing_code.recommended_action_json["prefill_code_ids"][0]
    path = _apply_path(plan, missing_code)
    _call(raw, "post", path, {"code_id": code_id}, **{"Idempotency-Key": "a1"})
    again = _call(raw, "post", path, {"code_id": code_id}, **{"Idempotency-Key": "a1"})
    assert again["Idempotent-Replayed"] == "true"
    assert_envelope(
        _call(raw, "post", path, {"code_id": code_id}), 409, "suggestions.state_conflict"
    )


# --- updated_since --------------------------------------------------------------------------


def test_updated_since_lists_the_actions_changed_at_or_after_it(
    plan: Plan, node: Any, raw: str
) -> None:
    old = ActionFactory.create(plan=plan, node=node, title="Old")
    recent = ActionFactory.create(plan=plan, node=node, title="Recent")
    Action.objects.filter(pk=old.pk).update(updated_at=timezone.now() - datetime.timedelta(days=2))
    since = (timezone.now() - datetime.timedelta(days=1)).isoformat()

    def listed(value: str) -> Any:
        return Client().get(
            f"/api/v1/platform/plans/{plan.number}/actions",
            {"updated_since": value},
            headers={"Authorization": f"Bearer {raw}"},
        )

    ids = [a["id"] for a in listed(since).json()["data"]["actions"]]
    assert ids == [str(recent.pk)]
    _call(raw, "patch", f"{plan.number}/actions/{old.pk}", {"title": "Old, changed"})
    both = {a["id"] for a in listed(since).json()["data"]["actions"]}
    assert both == {str(recent.pk), str(old.pk)}
    future = (timezone.now() + datetime.timedelta(hours=1)).isoformat()
    assert listed(future).json()["data"]["actions"] == []
    errors = assert_envelope(listed("2026-01-01T00:00:00"), 400, "validation.query")
    assert "updated_since" in errors["data"]["errors"]


def test_an_action_whose_project_was_deleted_is_listed_as_changed(
    plan: Plan, node: Any, raw: str
) -> None:
    project = ProjectFactory.create(plan=plan, name="Roofs")
    action = ActionFactory.create(plan=plan, node=node, project=project)
    Action.objects.filter(pk=action.pk).update(
        updated_at=timezone.now() - datetime.timedelta(days=2)
    )
    since = (timezone.now() - datetime.timedelta(days=1)).isoformat()

    project_delete(project=project)

    listed = (
        Client()
        .get(
            f"/api/v1/platform/plans/{plan.number}/actions",
            {"updated_since": since},
            headers={"Authorization": f"Bearer {raw}"},
        )
        .json()["data"]["actions"]
    )
    assert [(row["id"], row["project_id"]) for row in listed] == [(str(action.pk), None)]

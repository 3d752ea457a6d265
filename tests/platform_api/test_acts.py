"""Acting on suggestions over the API (platform_api.endpoints.acts): dismiss and restore with a
key that may act, 403 for a read key, Idempotency-Key replay, mismatch and expiry, concurrent
requests making one act, and the act in the plan's history with the key's principal."""

from __future__ import annotations

import threading
from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.utils import timezone

from apikeys.models import ApiKey, IdempotentRequest
from apikeys.services import api_access_set, api_key_create
from planning.models import HistoryEntry, NodeKind, Plan, PlanRole, Suggestion, SuggestionStatus
from planning.suggestions.sync.run import suggestion_sync
from tests.envelope import assert_envelope
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    StructureNodeFactory.create_batch(2, plan=plan, parent=house)  # two missing codes
    suggestion_sync(plan=plan)
    return plan


def _key(user: Any, permission: str) -> str:
    api_access_set(user=user, enabled=True)
    _api_key, raw = api_key_create(user=user, name=permission, permission=permission)
    return raw


def _post(raw: str, plan: Plan, suggestion: Suggestion, act: str, body: Any, **headers: str) -> Any:
    return Client().post(
        f"/api/v1/platform/plans/{plan.number}/suggestions/{suggestion.pk}/{act}",
        body,
        content_type="application/json",
        headers={"Authorization": f"Bearer {raw}", **headers},
    )


def _open(plan: Plan) -> Suggestion:
    return Suggestion.objects.filter(plan=plan, status=SuggestionStatus.OPEN).order_by("pk")[0]


def test_a_key_that_may_act_dismisses_and_restores(plan: Plan, user: Any) -> None:
    raw = _key(user, ApiKey.Permission.READ_WRITE)
    suggestion = _open(plan)
    body = {"reason": "accepted", "comment": "Known, budgeted elsewhere"}
    data = assert_envelope(
        _post(raw, plan, suggestion, "dismiss", body), 200, "suggestions.dismissed"
    )["data"]
    assert (data["id"], data["status"]) == (str(suggestion.pk), "dismissed")
    suggestion.refresh_from_db()
    assert (suggestion.dismiss_reason, suggestion.dismissed_by) == ("accepted", user)
    entry = HistoryEntry.objects.filter(plan_id=plan.pk, entity="suggestion").latest("id")
    assert (entry.actor_kind, entry.actor_label) == ("user", user.email)

    again = _post(raw, plan, suggestion, "dismiss", body)
    assert_envelope(again, 409, "suggestions.state_conflict")
    restored = _post(raw, plan, suggestion, "restore", {})
    assert assert_envelope(restored, 200, "suggestions.restored")["data"]["status"] == "open"


def test_a_key_stops_acting_when_its_holder_becomes_a_viewer(plan: Plan, user: Any) -> None:
    """A key acts with at most its holder's rights, read on each request: the key's own
    permission (read_write) does not outlive the person's edit rights on the plan."""
    raw = _key(user, ApiKey.Permission.READ_WRITE)
    suggestion = _open(plan)
    plan.memberships.filter(user=user).update(role=PlanRole.VIEWER)

    response = _post(raw, plan, suggestion, "dismiss", {"reason": "accepted"})

    body = assert_envelope(response, 403, "auth.insufficient_permission")
    assert "view this plan but not change it" in body["message"]
    suggestion.refresh_from_db()
    assert suggestion.status == SuggestionStatus.OPEN


def test_a_read_key_may_not_act(plan: Plan, user: Any) -> None:
    raw = _key(user, ApiKey.Permission.READ)
    suggestion = _open(plan)
    response = _post(raw, plan, suggestion, "dismiss", {"reason": "accepted"})
    assert_envelope(response, 403, "auth.insufficient_permission")
    suggestion.refresh_from_db()
    assert suggestion.status == SuggestionStatus.OPEN
    session = Client().post(
        "/api/v1/auth/session/api-key",
        {},
        content_type="application/json",
        headers={"Authorization": f"Bearer {raw}"},
    )
    assert session.json()["data"]["api_key"]["permission"] == "read"


@pytest.mark.parametrize(
    ("body", "field"),
    [({"reason": "because"}, "reason"), ({}, "reason"), ({"reason": 3, "x": 1}, "reason")],
)
def test_a_bad_body_is_400_with_its_field(plan: Plan, user: Any, body: Any, field: str) -> None:
    raw = _key(user, ApiKey.Permission.READ_WRITE)
    response = _post(raw, plan, _open(plan), "dismiss", body)
    assert field in assert_envelope(response, 400, "validation.failed")["data"]["errors"]


def test_a_field_the_request_does_not_know_is_ignored(plan: Plan, user: Any) -> None:
    raw = _key(user, ApiKey.Permission.READ_WRITE)
    suggestion = _open(plan)
    body = {"reason": "accepted", "reason_code": "X1", "source": {"system": "erp"}}
    response = _post(raw, plan, suggestion, "dismiss", body)
    assert assert_envelope(response, 200, "suggestions.dismissed")["data"]["status"] == "dismissed"
    restored = _post(raw, plan, suggestion, "restore", {"note": "back"})
    assert assert_envelope(restored, 200, "suggestions.restored")["data"]["status"] == "open"


def test_an_unknown_suggestion_is_404(plan: Plan, user: Any) -> None:
    raw = _key(user, ApiKey.Permission.READ_WRITE)
    other = PlanFactory.create()
    StructureNodeFactory.create(plan=other)
    suggestion_sync(plan=other)
    foreign = Suggestion.objects.filter(plan=other).first()
    assert foreign is not None
    response = _post(raw, plan, foreign, "dismiss", {"reason": "accepted"})
    assert_envelope(response, 404, "suggestions.not_found")


def test_idempotency_replays_refuses_a_mismatch_and_expires(plan: Plan, user: Any) -> None:
    raw = _key(user, ApiKey.Permission.READ_WRITE)
    suggestion = _open(plan)
    body = {"reason": "accepted"}
    first = _post(raw, plan, suggestion, "dismiss", body, **{"Idempotency-Key": "erp-1"})
    assert_envelope(first, 200, "suggestions.dismissed")
    replay = _post(raw, plan, suggestion, "dismiss", body, **{"Idempotency-Key": "erp-1"})
    assert_envelope(replay, 200, "suggestions.dismissed")
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json()["data"] == first.json()["data"]
    other = _post(
        raw,
        plan,
        suggestion,
        "dismiss",
        {"reason": "false_positive"},
        **{"Idempotency-Key": "erp-1"},
    )
    assert_envelope(other, 409, "idempotency.mismatch")
    # After 24 hours the key is free again: the act runs (and finds nothing to dismiss).
    IdempotentRequest.objects.update(created_at=timezone.now() - timedelta(hours=25))
    late = _post(raw, plan, suggestion, "dismiss", body, **{"Idempotency-Key": "erp-1"})
    assert_envelope(late, 409, "suggestions.state_conflict")


@pytest.mark.django_db(transaction=True)
def test_two_concurrent_requests_with_one_key_make_one_act(user: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("needs PostgreSQL (run `make test-postgres`): SQLite runs one writer")
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    StructureNodeFactory.create(plan=plan)
    suggestion_sync(plan=plan)
    raw = _key(user, ApiKey.Permission.READ_WRITE)
    suggestion = _open(plan)
    answers: list[Any] = []

    def send() -> None:
        try:
            answers.append(
                _post(
                    raw,
                    plan,
                    suggestion,
                    "dismiss",
                    {"reason": "accepted"},
                    **{"Idempotency-Key": "k"},
                )
            )
        finally:
            connection.close()

    threads = [threading.Thread(target=send) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert [a.status_code for a in answers] == [200, 200]
    assert sorted(a.get("Idempotent-Replayed", "") for a in answers) == ["", "true"]
    assert HistoryEntry.objects.filter(plan_id=plan.pk, entity="suggestion").count() == 1

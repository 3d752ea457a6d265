"""GET /api/v1/platform/plans/{planNumber}/suggestions (spec 2.2, 2.3, 4.1)."""

from __future__ import annotations

import re
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from rest_framework.renderers import JSONRenderer

from apikeys.services import api_access_set, api_key_create, api_key_revoke
from planning.models import ActionKind, NodeKind, Plan, PlanRole, Suggestion
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.suggestions.sync.run import suggestion_sync
from tests.envelope import ENVELOPE_FIELDS, assert_envelope
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

SUGGESTION_FIELDS = {
    "id",
    "suggestion_type",
    "severity",
    "title",
    "body",
    "structure_node_id",
    "recommended_action_json",
    "created_at",
}
ISO_UTC = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$")


def url(number: Any) -> str:
    return f"/api/v1/platform/plans/{number}/suggestions"


@pytest.fixture
def plan(api_user: Any) -> Plan:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.VIEWER)
    return plan


def get(client: Client, path: str, key: str | None) -> Any:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return client.get(path, headers=headers)


def populated(plan: Plan) -> dict[str, Any]:
    """A critical cost deviation, a warning missing code, an info missing code, a grouping."""
    code = CodeFactory.create(unit_cost=Decimal("100"), service_life_years=None)
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    coded = StructureNodeFactory.create(
        plan=plan, parent=building, code=code, quantity=Decimal("1")
    )
    deviating = ActionFactory.create(
        node=coded, kind=ActionKind.REPLACEMENT, estimated_cost=Decimal("500.00")
    )
    uncoded = StructureNodeFactory.create(plan=plan, parent=building, name="Boiler")
    other = ActionFactory.create(node=uncoded)
    idle = StructureNodeFactory.create(plan=plan, parent=building, name="Fence")
    return {
        "building": building,
        "coded": coded,
        "deviating": deviating,
        "uncoded": uncoded,
        "other": other,
        "idle": idle,
    }


def test_lists_open_suggestions_in_the_envelope(client: Client, raw_key: str, plan: Plan) -> None:
    populated(plan)
    response = get(client, url(plan.number), raw_key)
    body = response.json()
    assert response.status_code == 200
    assert set(body) == ENVELOPE_FIELDS
    assert body["success"] is True
    assert body["traceId"] == response["X-Request-ID"]
    data = body["data"]
    assert set(data) == {"plan_id", "plan_number", "open_count", "suggestions"}
    assert data["plan_id"] == str(plan.pk)
    assert data["plan_number"] == plan.number
    assert data["open_count"] == len(data["suggestions"]) == 4


def test_each_suggestion_has_exactly_the_spec_fields_and_types(
    client: Client, raw_key: str, plan: Plan
) -> None:
    items = populated(plan)
    suggestions = get(client, url(plan.number), raw_key).json()["data"]["suggestions"]
    stored = {str(s.id): s for s in Suggestion.objects.filter(plan=plan)}
    for suggestion in suggestions:
        assert set(suggestion) == SUGGESTION_FIELDS
        assert str(uuid.UUID(suggestion["id"])) == suggestion["id"]
        assert str(uuid.UUID(suggestion["structure_node_id"])) == suggestion["structure_node_id"]
        assert ISO_UTC.match(suggestion["created_at"]), suggestion["created_at"]
        assert isinstance(suggestion["recommended_action_json"], dict)
        assert isinstance(suggestion["title"], str) and suggestion["title"]
        assert isinstance(suggestion["body"], str) and suggestion["body"]
        assert suggestion["id"] in stored
    deviation = next(s for s in suggestions if s["suggestion_type"] == "deviation")
    assert deviation["severity"] == "critical"
    assert deviation["structure_node_id"] == str(items["coded"].pk)
    assert deviation["recommended_action_json"] == {
        "action": "review_action",
        "action_ids": [str(items["deviating"].pk)],
        "filter": {"structure_node_id": str(items["coded"].pk), "year": 2030},
        "reference": {"expected_cost": "100.00", "actual": "500.00", "deviation": "4.0000"},
    }
    grouping = next(s for s in suggestions if s["suggestion_type"] == "project_grouping")
    assert grouping["recommended_action_json"]["group_item_ids"] == sorted(
        [str(items["deviating"].pk), str(items["other"].pk)]
    )
    assert grouping["recommended_action_json"]["total_cost"] == "1500.00"


def test_the_body_is_byte_for_byte_what_drfs_json_renderer_writes(
    client: Client, raw_key: str, plan: Plan
) -> None:
    items = populated(plan)
    items["uncoded"].name = "Kessel \u2013 Nord\u2028Süd \U0001f525"
    items["uncoded"].save()

    response = get(client, url(plan.number), raw_key)

    assert "\u2028" in response.json()["data"]["suggestions"][1]["title"]
    assert response.content == JSONRenderer().render(response.json())


def test_suggestions_are_ordered_by_severity_created_at_id(
    client: Client, raw_key: str, plan: Plan
) -> None:
    populated(plan)
    for _ in range(10):  # same created_at as each other: the id decides their order
        StructureNodeFactory.create(plan=plan)
    suggestion_sync(plan=plan)
    later = StructureNodeFactory.create(plan=plan, name="Later")  # created by the request's sync
    suggestions = get(client, url(plan.number), raw_key).json()["data"]["suggestions"]
    assert [s["severity"] for s in suggestions] == ["critical", "warning"] + ["info"] * 13
    infos = suggestions[2:]
    keys = [(s["created_at"], s["id"]) for s in infos]
    assert keys == sorted(keys)
    assert infos[-1]["structure_node_id"] == str(later.pk)


def test_only_open_suggestions_are_listed(
    client: Client, raw_key: str, plan: Plan, api_user: Any
) -> None:
    items = populated(plan)
    suggestion_sync(plan=plan)
    dismissed = Suggestion.objects.get(plan=plan, fingerprint=f"missing_code:{items['idle'].pk}")
    suggestions_dismiss(
        plan=plan, suggestion_ids=[dismissed.pk], user=api_user, reason="false_positive"
    )
    items["uncoded"].code = CodeFactory.create()
    items["uncoded"].save()  # its missing_code gets resolved by the request's sync

    data = get(client, url(plan.number), raw_key).json()["data"]

    ids = {s["id"] for s in data["suggestions"]}
    assert str(dismissed.pk) not in ids
    assert data["open_count"] == 2
    assert {s["suggestion_type"] for s in data["suggestions"]} == {"deviation", "project_grouping"}


def test_request_runs_the_sync_first(client: Client, raw_key: str, plan: Plan) -> None:
    node = StructureNodeFactory.create(plan=plan)
    assert not Suggestion.objects.exists()
    data = get(client, url(plan.number), raw_key).json()["data"]
    stored = Suggestion.objects.get(plan=plan)
    assert [s["id"] for s in data["suggestions"]] == [str(stored.pk)]
    assert stored.structure_node_id == node.pk


def test_plan_without_suggestions_lists_none(client: Client, raw_key: str, plan: Plan) -> None:
    data = get(client, url(plan.number), raw_key).json()["data"]
    assert data == {
        "plan_id": str(plan.pk),
        "plan_number": plan.number,
        "open_count": 0,
        "suggestions": [],
    }


@pytest.mark.parametrize(
    "number",
    ["0", "-1", "abc", "1.5", "1e3", "99999999999", "2147483648", "%201", "+1", "01", "0x1"],
)
def test_plan_number_that_is_not_a_valid_integer_is_a_400(
    client: Client, raw_key: str, number: str
) -> None:
    assert_envelope(get(client, url(number), raw_key), 400, "validation.plan_number")


def test_largest_plan_number_is_valid_but_not_found(client: Client, raw_key: str) -> None:
    assert_envelope(get(client, url(2147483647), raw_key), 404, "plans.not_found")


def test_missing_key_gets_401_before_the_plan_number_is_checked(client: Client) -> None:
    response = get(client, url("abc"), None)
    assert_envelope(response, 401, "auth.missing_api_key")
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_invalid_key_is_401(client: Client, plan: Plan) -> None:
    assert_envelope(get(client, url(plan.number), "mpk_nonsense"), 401, "auth.invalid_api_key")


def test_revoked_key_is_401(client: Client, api_user: Any, plan: Plan) -> None:
    api_key, raw = api_key_create(user=api_user, name="old")
    api_key_revoke(api_key=api_key)
    assert_envelope(get(client, url(plan.number), raw), 401, "auth.api_key_revoked")


def test_account_without_api_access_is_403(
    client: Client, raw_key: str, api_user: Any, plan: Plan
) -> None:
    api_access_set(user=api_user, enabled=False)
    assert_envelope(get(client, url(plan.number), raw_key), 403, "auth.api_access_disabled")
    assert not Suggestion.objects.exists()


def test_missing_plan_is_404(client: Client, raw_key: str) -> None:
    assert_envelope(get(client, url(424242), raw_key), 404, "plans.not_found")


def test_another_users_plan_is_404_with_the_same_body_as_a_missing_one(
    client: Client, raw_key: str
) -> None:
    foreign = PlanFactory.create()
    PlanMembershipFactory.create(plan=foreign, user=UserFactory.create())
    StructureNodeFactory.create(plan=foreign)
    hidden = assert_envelope(get(client, url(foreign.number), raw_key), 404, "plans.not_found")
    missing = assert_envelope(
        get(client, url(foreign.number + 1000), raw_key), 404, "plans.not_found"
    )
    hidden.pop("traceId")
    missing.pop("traceId")
    assert hidden == missing
    assert not Suggestion.objects.filter(plan=foreign).exists()


def test_post_is_405(client: Client, raw_key: str, plan: Plan) -> None:
    response = client.post(
        url(plan.number),
        "{}",
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Bearer {raw_key}",
    )
    assert_envelope(response, 405, "routing.method_not_allowed")

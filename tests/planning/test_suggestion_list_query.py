"""Bad list parameters of GET /api/v1/platform/plans/{planNumber}/suggestions: 400
`validation.query` with `data.errors` per parameter, before the sync writes anything."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.test import Client

from planning.models import Plan, PlanRole, Suggestion
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def plan(api_user: Any) -> Plan:
    """A plan whose three uncoded components each have a missing-code suggestion."""
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.VIEWER)
    StructureNodeFactory.create_batch(3, plan=plan)
    return plan


def get(client: Client, key: str | None, plan: Plan | int, params: Any = None) -> Any:
    number = plan if isinstance(plan, int) else plan.number
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return client.get(f"/api/v1/platform/plans/{number}/suggestions", params or {}, headers=headers)


def query_errors(response: Any) -> dict[str, list[str]]:
    """The `data.errors` of a 400 `validation.query`, after checking the envelope."""
    body = response.json()
    assert response.status_code == 400, body
    assert body["success"] is False
    assert body["messageKey"] == "validation.query"
    assert body["traceId"] == response["X-Request-ID"]
    errors: dict[str, list[str]] = body["data"]["errors"]
    assert errors
    for messages in errors.values():
        assert messages and all(isinstance(m, str) and m for m in messages)
    return errors


def first_cursor(client: Client, key: str, plan: Plan, params: Any = None) -> str:
    data = get(client, key, plan, {"limit": 1, **(params or {})}).json()["data"]
    cursor: str = data["next_cursor"]
    assert cursor
    return cursor


@pytest.mark.parametrize(
    ("params", "parameter"),
    [
        ({"severity": "urgent"}, "severity"),
        ({"severity": "Critical"}, "severity"),
        ({"severity": ""}, "severity"),
        ({"severity": "critical,"}, "severity"),
        ({"severity": "critical, warning"}, "severity"),
        ({"suggestion_type": "missing"}, "suggestion_type"),
        ({"suggestion_type": ["deviation", "grouping"]}, "suggestion_type"),
        ({"structure_node_id": "not-a-uuid"}, "structure_node_id"),
        ({"structure_node_id": ""}, "structure_node_id"),
        ({"limit": "0"}, "limit"),
        ({"limit": "1001"}, "limit"),
        ({"limit": "-1"}, "limit"),
        ({"limit": "1.5"}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"limit": ""}, "limit"),
        ({"limit": " 5"}, "limit"),
        ({"limit": ["5", "6"]}, "limit"),
        ({"limit": "5", "cursor": ""}, "cursor"),
        ({"limit": "5", "cursor": "abc"}, "cursor"),
    ],
)
def test_a_bad_parameter_value_is_a_400_naming_the_parameter(
    client: Client, raw_key: str, plan: Plan, params: dict[str, Any], parameter: str
) -> None:
    errors = query_errors(get(client, raw_key, plan, params))

    assert set(errors) == {parameter}


def test_every_bad_parameter_is_reported_at_once(client: Client, raw_key: str, plan: Plan) -> None:
    response = get(
        client,
        raw_key,
        plan,
        {"severity": "urgent,info,high", "suggestion_type": "x", "limit": "0", "cursor": "abc"},
    )

    errors = query_errors(response)

    assert set(errors) == {"severity", "suggestion_type", "limit", "cursor"}
    assert len(errors["severity"]) == 2  # one message per unknown value
    assert "'urgent'" in errors["severity"][0]


@pytest.mark.parametrize("other", ["another plan's node", "no node at all"])
def test_a_node_the_plan_does_not_have_lists_nothing(
    client: Client, raw_key: str, plan: Plan, other: str
) -> None:
    """A well-formed id is a valid filter (the schema allows any UUID): it selects nothing."""
    node_id = StructureNodeFactory.create().pk if other.startswith("another") else uuid.uuid4()

    response = get(client, raw_key, plan, {"structure_node_id": str(node_id)})

    assert response.status_code == 200
    data = response.json()["data"]
    assert (data["open_count"], data["suggestions"]) == (0, [])


def test_a_tampered_cursor_is_a_400(client: Client, raw_key: str, plan: Plan) -> None:
    cursor = first_cursor(client, raw_key, plan)
    tampered = cursor[:5] + ("A" if cursor[5] != "A" else "B") + cursor[6:]

    errors = query_errors(get(client, raw_key, plan, {"limit": 1, "cursor": tampered}))

    assert set(errors) == {"cursor"}


def test_a_cursor_with_other_filters_is_a_400(client: Client, raw_key: str, plan: Plan) -> None:
    cursor = first_cursor(client, raw_key, plan, {"severity": "info"})

    errors = query_errors(
        get(client, raw_key, plan, {"limit": 1, "cursor": cursor, "severity": "info,warning"})
    )

    assert set(errors) == {"cursor"}
    assert "other filters" in errors["cursor"][0]


def test_a_cursor_without_its_filters_is_a_400(client: Client, raw_key: str, plan: Plan) -> None:
    cursor = first_cursor(client, raw_key, plan, {"suggestion_type": "missing_code"})

    errors = query_errors(get(client, raw_key, plan, {"limit": 1, "cursor": cursor}))

    assert set(errors) == {"cursor"}


def test_a_cursor_with_the_same_filters_spelled_differently_is_accepted(
    client: Client, raw_key: str, plan: Plan
) -> None:
    cursor = first_cursor(client, raw_key, plan, {"severity": "warning,info"})

    response = get(
        client, raw_key, plan, {"limit": 1, "cursor": cursor, "severity": ["info", "warning"]}
    )

    assert response.status_code == 200
    assert len(response.json()["data"]["suggestions"]) == 1


def test_a_cursor_of_another_plan_is_a_400(
    client: Client, raw_key: str, plan: Plan, api_user: Any
) -> None:
    other = PlanFactory.create()
    PlanMembershipFactory.create(plan=other, user=api_user)
    StructureNodeFactory.create_batch(2, plan=other)
    cursor = first_cursor(client, raw_key, other)

    errors = query_errors(get(client, raw_key, plan, {"limit": 1, "cursor": cursor}))

    assert set(errors) == {"cursor"}


def test_a_cursor_without_limit_is_a_400(client: Client, raw_key: str, plan: Plan) -> None:
    cursor = first_cursor(client, raw_key, plan)

    errors = query_errors(get(client, raw_key, plan, {"cursor": cursor}))

    assert set(errors) == {"limit"}


def test_the_next_page_may_use_another_limit(client: Client, raw_key: str, plan: Plan) -> None:
    cursor = first_cursor(client, raw_key, plan)

    data = get(client, raw_key, plan, {"limit": 5, "cursor": cursor}).json()["data"]

    assert len(data["suggestions"]) == 2
    assert data["next_cursor"] is None


def test_a_bad_query_writes_nothing(client: Client, raw_key: str, plan: Plan) -> None:
    query_errors(get(client, raw_key, plan, {"limit": "0"}))
    query_errors(get(client, raw_key, plan, {"severity": "urgent"}))

    plan.refresh_from_db()
    assert not Suggestion.objects.filter(plan=plan).exists()
    assert plan.data_version == 0
    assert plan.last_synced_at is None


def test_a_bad_query_without_a_key_is_a_401(client: Client, plan: Plan) -> None:
    response = get(client, None, plan, {"limit": "0"})

    assert response.status_code == 401
    assert response.json()["messageKey"] == "auth.missing_api_key"


def test_a_bad_query_on_a_missing_plan_is_a_400(client: Client, raw_key: str) -> None:
    errors = query_errors(get(client, raw_key, 424242, {"severity": "urgent"}))

    assert set(errors) == {"severity"}


def test_a_node_filter_on_a_plan_one_cannot_see_is_a_404(client: Client, raw_key: str) -> None:
    foreign = PlanFactory.create()
    PlanMembershipFactory.create(plan=foreign, user=UserFactory.create())
    node = StructureNodeFactory.create(plan=foreign)

    response = get(client, raw_key, foreign, {"structure_node_id": str(node.pk)})

    assert response.status_code == 404
    assert response.json()["messageKey"] == "plans.not_found"

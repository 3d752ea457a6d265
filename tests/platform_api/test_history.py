"""The plan's record over the API (platform_api.endpoints.history): the history oldest first
with its filters and pages, the adopted versions and a version's actions, ETag and 304, the
errors."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from accounts.actor import Actor, acting
from apikeys.services import api_access_set, api_key_create
from planning.models import HistoryEntry, NodeKind, Plan, PlanRole
from planning.plans.services.nodes import node_rename
from planning.records.adoption import plan_adopt
from tests.envelope import assert_envelope
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


def _data(response: Any, status: int = 200, key: str = "ok") -> Any:
    return assert_envelope(response, status, key)["data"]


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(name="Harbour")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    for n in range(5):
        ActionFactory.create(node=house, title=f"Work {n}", estimated_cost=Decimal("10.50"))
    return plan


@pytest.fixture
def api(user: Any) -> Any:
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="erp")
    client = Client()

    def get(path: str, **params: Any) -> Any:
        headers = {"Authorization": f"Bearer {raw}", **params.pop("headers", {})}
        return client.get(f"/api/v1/platform/plans/{path}", params, headers=headers)

    return get


def test_the_history_reads_oldest_first_in_pages_that_never_repeat(
    api: Any, plan: Plan, user: Any
) -> None:
    with acting(Actor.user(user)):
        node_rename(node=plan.nodes.get(name="House"), name="Main house")
    all_ids = list(
        HistoryEntry.objects.filter(plan_id=plan.pk).order_by("id").values_list("id", flat=True)
    )
    assert len(all_ids) == 9  # the plan, its owner's grant, the node, five actions, the rename
    seen: list[int] = []
    response = api(f"{plan.number}/history", limit=3)
    while True:
        data = _data(response)
        seen += [entry["id"] for entry in data["entries"]]
        if data["next_cursor"] is None:
            break
        response = api(f"{plan.number}/history", limit=3, cursor=data["next_cursor"])
    assert seen == all_ids
    last = api(f"{plan.number}/history", entity="node").json()["data"]["entries"][-1]
    assert last["operation"] == "update"
    assert last["actor"] == {"kind": "user", "id": str(user.pk), "name": user.email}
    assert last["changes"] == {"name": ["House", "Main house"]}


def test_since_filters_and_an_unchanged_history_is_304(api: Any, plan: Plan) -> None:
    first = api(f"{plan.number}/history")
    etag = first["ETag"]
    assert api(f"{plan.number}/history", headers={"If-None-Match": etag}).status_code == 304
    later = HistoryEntry.objects.filter(plan_id=plan.pk).order_by("-id")[0]
    since = later.at.isoformat()
    data = _data(api(f"{plan.number}/history", since=since))
    assert [e["id"] for e in data["entries"]][-1] == later.pk
    node_rename(node=plan.nodes.get(name="House"), name="Changed")
    assert api(f"{plan.number}/history", headers={"If-None-Match": etag}).status_code == 200


@pytest.mark.parametrize(
    ("since", "everything"),
    [
        ("0100-06-12T18:18:51-17:59", True),  # PostgreSQL refuses a -17:59 offset: sent as UTC
        ("0001-01-01T00:00:00+14:00", True),  # before what UTC can hold: before everything
        ("9999-12-31T23:59:59-12:00", False),  # after what UTC can hold: after everything
    ],
)
def test_since_at_the_ends_of_the_calendar_and_offsets_answers(
    api: Any, plan: Plan, since: str, everything: bool
) -> None:
    entries = _data(api(f"{plan.number}/history", since=since))["entries"]
    assert len(entries) == (
        HistoryEntry.objects.filter(plan_id=plan.pk).count() if everything else 0
    )


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"since": "yesterday"}, "since"),
        ({"since": "2026-01-01T00:00:00"}, "since"),  # no time zone
        ({"entity": "budget"}, "entity"),
        ({"limit": "0"}, "limit"),
        ({"cursor": "forged"}, "cursor"),
    ],
)
def test_bad_parameters_are_400_with_the_field(
    api: Any, plan: Plan, params: dict[str, str], field: str
) -> None:
    data = _data(api(f"{plan.number}/history", **params), 400, "validation.query")
    assert set(data["errors"]) == {field}


def test_a_cursor_of_other_filters_is_refused(api: Any, plan: Plan) -> None:
    cursor = api(f"{plan.number}/history", limit=1).json()["data"]["next_cursor"]
    data = _data(
        api(f"{plan.number}/history", limit=1, cursor=cursor, entity="action"),
        400,
        "validation.query",
    )
    assert "cursor" in data["errors"]


def test_versions_and_a_versions_actions(api: Any, plan: Plan) -> None:
    first = plan_adopt(plan=plan, name="Board 2025")
    plan.actions.update(estimated_cost=Decimal("99"))
    second = plan_adopt(plan=plan, name="Board 2026")
    data = _data(api(f"{plan.number}/versions"))
    assert [(v["number"], v["name"]) for v in data["versions"]] == [
        (2, "Board 2026"),
        (1, "Board 2025"),
    ]
    assert data["versions"][1]["total_cost"] == "52.50"

    costs: list[str] = []
    response = api(f"{plan.number}/versions/{first.pk}/actions", limit=2)
    while True:
        page = _data(response)
        costs += [action["estimated_cost"] for action in page["actions"]]
        if page["next_cursor"] is None:
            break
        response = api(
            f"{plan.number}/versions/{first.pk}/actions", limit=2, cursor=page["next_cursor"]
        )
    assert costs == ["10.50"] * 5  # as adopted, whatever the plan holds now
    etag = response["ETag"]
    again = api(
        f"{plan.number}/versions/{first.pk}/actions",
        limit=2,
        cursor=response.wsgi_request.GET["cursor"],
        headers={"If-None-Match": etag},
    )
    assert again.status_code == 304
    assert second.pk != first.pk


def test_the_versions_come_in_pages_newest_first_and_a_new_one_never_inside_a_walk(
    api: Any, plan: Plan
) -> None:
    for year in (2024, 2025, 2026):
        plan_adopt(plan=plan, name=f"Board {year}")
    first = _data(api(f"{plan.number}/versions", limit=2))
    assert [v["name"] for v in first["versions"]] == ["Board 2026", "Board 2025"]
    plan_adopt(plan=plan, name="Board 2027")  # during the walk
    rest = _data(api(f"{plan.number}/versions", limit=2, cursor=first["next_cursor"]))
    assert ([v["name"] for v in rest["versions"]], rest["next_cursor"]) == (["Board 2024"], None)
    everything = _data(api(f"{plan.number}/versions"))
    assert (len(everything["versions"]), everything["next_cursor"]) == (4, None)
    refused = _data(
        api(f"{plan.number}/versions", cursor=first["next_cursor"] + "x"), 400, "validation.query"
    )
    assert set(refused["errors"]) == {"cursor"}


def test_a_version_of_another_plan_or_no_version_is_404(api: Any, plan: Plan, user: Any) -> None:
    other = PlanFactory.create()
    foreign = plan_adopt(plan=other, name="Theirs")
    for version_id in (str(foreign.pk), "not-a-uuid"):
        assert_envelope(
            api(f"{plan.number}/versions/{version_id}/actions"), 404, "versions.not_found"
        )
    assert_envelope(api(f"{other.number}/versions"), 404, "plans.not_found")

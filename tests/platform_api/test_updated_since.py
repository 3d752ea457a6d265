"""The nodes and projects lists' `updated_since` (platform_api.endpoints.records): the rows
created or changed at or after the time, with the other filters and the paging; a bad time
is 400 `validation.query` (the actions list's is in test_action_acts.py)."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apikeys.services import api_access_set, api_key_create
from planning.models import NodeKind, Plan, PlanRole, Project, StructureNode
from planning.plans.services.nodes import node_rename
from planning.plans.services.projects import project_update
from tests.envelope import assert_envelope
from tests.factories import (
    PlanFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db

SINCE_MESSAGE = "An ISO 8601 time with a time zone, e.g. 2026-01-01T00:00:00Z."


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    return plan


@pytest.fixture
def raw(user: Any) -> str:
    api_access_set(user=user, enabled=True)
    return api_key_create(user=user, name="erp")[1]


def _list(raw: str, plan: Plan, what: str, **params: Any) -> Any:
    return Client().get(
        f"/api/v1/platform/plans/{plan.number}/{what}",
        params,
        headers={"Authorization": f"Bearer {raw}"},
    )


def _ids(raw: str, plan: Plan, what: str, **params: Any) -> list[str]:
    answer = _list(raw, plan, what, **params)
    assert answer.status_code == 200, answer.content
    return [row["id"] for row in answer.json()["data"][what]]


def _two_days_ago(model: type[StructureNode] | type[Project], *rows: Any) -> str:
    """Makes `rows` two days old and returns a time one day ago, as an ISO 8601 text."""
    now = timezone.now()
    model.objects.filter(pk__in=[row.pk for row in rows]).update(
        updated_at=now - datetime.timedelta(days=2)
    )
    return (now - datetime.timedelta(days=1)).isoformat()


def test_the_nodes_changed_at_or_after_the_time_are_listed(plan: Plan, raw: str) -> None:
    old = StructureNodeFactory.create(plan=plan, name="Old")
    recent = StructureNodeFactory.create(plan=plan, name="Recent")
    since = _two_days_ago(StructureNode, old)

    assert _ids(raw, plan, "nodes", updated_since=since) == [str(recent.pk)]
    node_rename(node=old, name="Old, renamed")
    assert set(_ids(raw, plan, "nodes", updated_since=since)) == {str(old.pk), str(recent.pk)}
    future = (timezone.now() + datetime.timedelta(hours=1)).isoformat()
    assert _ids(raw, plan, "nodes", updated_since=future) == []


def test_the_projects_changed_at_or_after_the_time_are_listed(plan: Plan, raw: str) -> None:
    old = ProjectFactory.create(plan=plan, name="Old")
    recent = ProjectFactory.create(plan=plan, name="Recent")
    since = _two_days_ago(Project, old)

    assert _ids(raw, plan, "projects", updated_since=since) == [str(recent.pk)]
    project_update(project=old, name="Old, renamed", year=old.year)
    assert set(_ids(raw, plan, "projects", updated_since=since)) == {str(old.pk), str(recent.pk)}
    assert len(_ids(raw, plan, "projects")) == 2


BAD_TIMES = [
    "2026-01-01T00:00:00",  # no time zone
    "yesterday",
    "2026-13-01T00:00:00Z",
    "",
    "\uff12\uff10\uff12\uff16-01-01T00:00:00Z",  # full-width digits
]


@pytest.mark.parametrize("what", ["nodes", "projects"])
@pytest.mark.parametrize("value", BAD_TIMES)
def test_a_bad_time_is_a_query_error_naming_the_field(
    plan: Plan, raw: str, what: str, value: str
) -> None:
    answer = assert_envelope(_list(raw, plan, what, updated_since=value), 400, "validation.query")

    assert answer["data"]["errors"] == {"updated_since": [SINCE_MESSAGE]}


def test_an_offset_and_a_lowercase_z_are_read_as_the_same_time(plan: Plan, raw: str) -> None:
    node = StructureNodeFactory.create(plan=plan)
    StructureNode.objects.filter(pk=node.pk).update(
        updated_at=datetime.datetime(2026, 5, 4, 9, 30, tzinfo=datetime.UTC)
    )

    assert _ids(raw, plan, "nodes", updated_since="2026-05-04T11:30:00+02:00") == [str(node.pk)]
    assert _ids(raw, plan, "nodes", updated_since="2026-05-04t09:30:00.000001z") == []


def test_updated_since_narrows_the_other_filters_of_the_nodes(plan: Plan, raw: str) -> None:
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Site")
    building = StructureNodeFactory.create(
        plan=plan, parent=site, kind=NodeKind.BUILDING, name="House"
    )
    roof = StructureNodeFactory.create(plan=plan, parent=building, name="Roof")
    wall = StructureNodeFactory.create(plan=plan, parent=building, name="Wall")
    other = StructureNodeFactory.create(plan=plan, name="Elsewhere")
    since = _two_days_ago(StructureNode, site, building, roof, wall, other)
    node_rename(node=roof, name="Roof, new")
    node_rename(node=other, name="Elsewhere, new")
    node_rename(node=site, name="Site, new")

    assert _ids(raw, plan, "nodes", updated_since=since, under=str(building.pk)) == [str(roof.pk)]
    assert _ids(raw, plan, "nodes", updated_since=since, parent_id=str(building.pk)) == [
        str(roof.pk)
    ]
    assert _ids(raw, plan, "nodes", updated_since=since, kind=NodeKind.SITE) == [str(site.pk)]
    assert set(_ids(raw, plan, "nodes", updated_since=since, kind=NodeKind.COMPONENT)) == {
        str(roof.pk),
        str(other.pk),
    }


@pytest.mark.parametrize("what", ["nodes", "projects"])
def test_a_walk_with_updated_since_pages_through_the_changed_rows_only(
    plan: Plan, raw: str, what: str
) -> None:
    factory = StructureNodeFactory if what == "nodes" else ProjectFactory
    model = StructureNode if what == "nodes" else Project
    old = [factory.create(plan=plan) for _ in range(2)]
    since = _two_days_ago(model, *old)
    changed = {str(factory.create(plan=plan).pk) for _ in range(3)}

    seen: list[str] = []
    params: dict[str, Any] = {"updated_since": since, "limit": 2}
    while True:
        page = _list(raw, plan, what, **params).json()["data"]
        seen += [row["id"] for row in page[what]]
        if page["next_cursor"] is None:
            break
        params["cursor"] = page["next_cursor"]

    assert len(seen) == 3
    assert set(seen) == changed
    # A cursor belongs to its filters: the same cursor with another time is refused.
    first = _list(raw, plan, what, updated_since=since, limit=2).json()["data"]["next_cursor"]
    answer = assert_envelope(
        _list(raw, plan, what, updated_since=timezone.now().isoformat(), limit=2, cursor=first),
        400,
        "validation.query",
    )
    assert "cursor" in answer["data"]["errors"]


@pytest.mark.parametrize("what", ["nodes", "projects"])
def test_a_list_s_etag_depends_on_updated_since(plan: Plan, raw: str, what: str) -> None:
    (StructureNodeFactory if what == "nodes" else ProjectFactory).create(plan=plan)
    whole = _list(raw, plan, what)
    since = _list(raw, plan, what, updated_since=timezone.now().isoformat())

    assert since.json()["data"][what] == []
    assert whole["ETag"] != since["ETag"]
    assert (
        Client()
        .get(
            f"/api/v1/platform/plans/{plan.number}/{what}",
            headers={"Authorization": f"Bearer {raw}", "If-None-Match": whole["ETag"]},
        )
        .status_code
        == 304
    )

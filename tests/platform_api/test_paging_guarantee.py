"""The paging guarantee (docs/subsystems/integrator-api.md "Paging"): while a client walks a
list page by page and the plan changes between its requests (severities up and down,
suggestions resolved and new ones found, rows edited, added and deleted), a row that stays in
the answer for the whole walk comes exactly once, and no row comes twice. Random changes, a few
seeds each. Every cache is emptied between two pages (a restart, or the next request served by
another process): a walk needs nothing but its cursor and the database."""

from __future__ import annotations

import random
import time
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client

from apikeys.services import api_access_set, api_key_create
from planning.models import Action, ActionKind, Code, NodeKind, Plan, PlanRole, StructureNode
from planning.suggestions import walk
from planning.suggestions.walk import WALK_SECONDS
from tests.envelope import assert_envelope
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def setup(user: Any) -> tuple[Plan, Any]:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="walker")
    client = Client()

    def get(path: str, **params: Any) -> Any:
        response = client.get(
            f"/api/v1/platform/plans/{plan.number}/{path}",
            params,
            headers={"Authorization": f"Bearer {raw}"},
        )
        return assert_envelope(response, 200, "ok")["data"]

    get.key = raw  # type: ignore[attr-defined]
    return plan, get


def _open_ids(get: Any) -> set[str]:
    return {s["id"] for s in get("suggestions")["suggestions"]}


@pytest.mark.parametrize("seed", range(4))
def test_a_suggestion_walk_survives_any_change_between_pages(
    setup: tuple[Plan, Any], seed: int
) -> None:
    plan, get = setup
    rng = random.Random(seed)
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    nodes = [
        StructureNodeFactory.create(plan=plan, parent=building, name=f"Part {n}") for n in range(24)
    ]
    for node in nodes[::3]:  # a live action makes a node's missing code a warning
        ActionFactory.create(node=node, kind=ActionKind.INSPECTION)
    code: Code = CodeFactory.create()
    before = _open_ids(get)

    seen: list[str] = []
    data = get("suggestions", limit=4)
    while True:
        seen += [s["id"] for s in data["suggestions"]]
        if data["next_cursor"] is None:
            break
        for _ in range(3):  # the plan changes between two pages
            node = rng.choice(nodes)
            change = rng.choice(["severity up", "severity down", "resolve", "new", "delete"])
            if change == "severity up":
                ActionFactory.create(node=node, kind=ActionKind.INSPECTION)
            elif change == "severity down":
                Action.objects.filter(node=node).delete()
            elif change == "resolve":
                StructureNode.objects.filter(pk=node.pk).update(code=code)
            elif change == "new":
                nodes.append(StructureNodeFactory.create(plan=plan, parent=building))
            else:
                StructureNode.objects.filter(pk=node.pk).delete()
                nodes.remove(node)
        for cache in caches.all():
            cache.clear()
        data = get("suggestions", limit=4, cursor=data["next_cursor"])
    after = _open_ids(get)
    # What left or joined: compare the open lists before and after, and every node touched
    # by a resolve or delete (it may have left and come back).
    touched = before ^ after
    stayed = (before & after) - touched
    assert len(seen) == len(set(seen)), "a suggestion came twice"
    assert stayed <= set(seen), "a suggestion that stayed open was skipped"
    # One that joined during the walk may come (at most once, as every row): when its place in
    # the order is past the walk's position.


@pytest.mark.parametrize("seed", range(3))
def test_an_action_walk_survives_any_change_between_pages(
    setup: tuple[Plan, Any], seed: int
) -> None:
    plan, get = setup
    rng = random.Random(seed)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    actions = [ActionFactory.create(node=house, planned_year=2030 + n % 5) for n in range(30)]
    deleted: set[str] = set()
    added: set[str] = set()

    seen: list[str] = []
    data = get("actions", limit=4)
    while True:
        seen += [a["id"] for a in data["actions"]]
        if data["next_cursor"] is None:
            break
        for _ in range(3):
            change = rng.choice(["year", "cost", "status", "new", "delete"])
            action = rng.choice(actions)
            if change == "year":
                Action.objects.filter(pk=action.pk).update(planned_year=rng.randint(2026, 2060))
            elif change == "cost":
                Action.objects.filter(pk=action.pk).update(
                    estimated_cost=Decimal(rng.randint(1, 9))
                )
            elif change == "status":
                Action.objects.filter(pk=action.pk).update(status="done")
            elif change == "new":
                new = ActionFactory.create(node=house)
                actions.append(new)
                added.add(str(new.pk))
            elif str(action.pk) not in deleted:
                deleted.add(str(action.pk))
                Action.objects.filter(pk=action.pk).delete()
        data = get("actions", limit=4, cursor=data["next_cursor"])
    stayed = {str(a.pk) for a in actions} - deleted - added
    assert len(seen) == len(set(seen)), "an action came twice"
    assert stayed <= set(seen), "an action that stayed was skipped"


def test_a_walk_older_than_an_hour_is_410(
    setup: tuple[Plan, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    plan, get = setup
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING)
    StructureNodeFactory.create_batch(5, plan=plan, parent=building)
    cursor = get("suggestions", limit=2)["next_cursor"]
    assert get("suggestions", limit=2, cursor=cursor)["suggestions"]  # within the hour: a page

    an_hour_later = time.time() + WALK_SECONDS + 1
    monkeypatch.setattr(walk, "_seconds", lambda: an_hour_later)
    response = Client().get(
        f"/api/v1/platform/plans/{plan.number}/suggestions",
        {"limit": 2, "cursor": cursor},
        headers={"Authorization": f"Bearer {get.key}"},
    )
    assert_envelope(response, 410, "pagination.cursor_expired")

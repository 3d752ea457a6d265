"""The paging guarantee (docs/subsystems/integrator-api.md "Paging"): while a client walks a
list page by page and the plan changes between its requests (severities up and down,
suggestions resolved and new ones found, rows edited, added and deleted), a row that stays in
the answer for the whole walk comes exactly once, and no row comes twice. Random changes, a few
seeds each. Every cache is emptied between two pages (a restart, or the next request served by
another process): a walk needs nothing but its cursor and the database."""

from __future__ import annotations

import random
import time
from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import caches
from django.test import Client
from django.utils import timezone

from apikeys.services import api_access_set, api_key_create
from planning.models import (
    SEVERITY_RANKS,
    Action,
    ActionKind,
    Code,
    NodeKind,
    Plan,
    PlanRole,
    Severity,
    StructureNode,
    Suggestion,
    SuggestionMove,
)
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


def _walk_setup(plan: Plan) -> dict[str, StructureNode]:
    """Three components with a live action (their missing code is a warning) and three
    without (info), so the list is the three warnings, then the four infos (the building's
    own missing code is one)."""
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    nodes = {}
    for name in ["w1", "w2", "w3", "i1", "i2", "i3"]:
        nodes[name] = StructureNodeFactory.create(plan=plan, parent=building, name=name)
        if name.startswith("w"):
            ActionFactory.create(node=nodes[name], kind=ActionKind.INSPECTION)
    return nodes


def _node_of(plan: Plan, suggestion: dict[str, Any]) -> StructureNode:
    return StructureNode.objects.get(plan=plan, pk=suggestion["structure_node_id"])


def test_a_suggestion_moved_ahead_of_the_walk_and_one_moved_behind_it_each_come_once(
    setup: tuple[Plan, Any],
) -> None:
    plan, get = setup
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    early = StructureNodeFactory.create(plan=plan, parent=building, name="early")
    get("suggestions")  # its missing code (info) is found first: the earliest created_at
    for name in ["w1", "w2", "w3", "i1", "i2"]:
        node = StructureNodeFactory.create(plan=plan, parent=building, name=name)
        if name.startswith("w"):
            ActionFactory.create(node=node, kind=ActionKind.INSPECTION)
    everything = get("suggestions")["suggestions"]
    assert [s["severity"] for s in everything] == ["warning"] * 3 + ["info"] * 4
    earliest = {s["structure_node_id"]: s for s in everything}[str(early.pk)]

    first = get("suggestions", limit=2)
    assert [s["id"] for s in first["suggestions"]] == [s["id"] for s in everything[:2]]
    # A served warning drops to info (today: behind the walk's position), and the earliest
    # info, not served yet, rises to warning (today: first of all, ahead of the position).
    Action.objects.filter(node=_node_of(plan, everything[0])).delete()
    ActionFactory.create(node=early, kind=ActionKind.INSPECTION)
    today = [s["id"] for s in get("suggestions")["suggestions"]]
    assert today[0] == earliest["id"]
    assert today.index(everything[0]["id"]) > today.index(everything[2]["id"])

    seen = [s["id"] for s in first["suggestions"]]
    data = first
    while data["next_cursor"] is not None:
        data = get("suggestions", limit=2, cursor=data["next_cursor"])
        seen += [s["id"] for s in data["suggestions"]]
    assert sorted(seen) == sorted(s["id"] for s in everything)
    assert len(seen) == len(set(seen))
    assert SuggestionMove.objects.filter(plan=plan).count() == 2


def test_a_suggestion_that_appears_during_a_walk_comes_once_when_its_place_is_ahead(
    setup: tuple[Plan, Any],
) -> None:
    plan, get = setup
    nodes = _walk_setup(plan)
    first = get("suggestions", limit=4)  # three warnings and the first info
    behind = StructureNodeFactory.create(plan=plan, parent=nodes["w1"].parent, name="new w")
    ActionFactory.create(node=behind, kind=ActionKind.INSPECTION)  # a warning: behind the walk
    ahead = StructureNodeFactory.create(plan=plan, parent=nodes["w1"].parent, name="new i")
    rest = get("suggestions", limit=4, cursor=first["next_cursor"])["suggestions"]
    on_nodes = {s["structure_node_id"] for s in rest}
    assert str(ahead.pk) in on_nodes
    assert str(behind.pk) not in on_nodes
    assert len(first["suggestions"]) + len(rest) == 8  # the seven, and the one ahead


def test_a_walk_whose_plan_was_reordered_wholesale_is_410(
    setup: tuple[Plan, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    plan, get = setup
    _walk_setup(plan)
    monkeypatch.setattr(walk, "MOVES_MAX", 1)
    cursor = get("suggestions", limit=2)["next_cursor"]
    for node in StructureNode.objects.filter(plan=plan, name__in=["i1", "i2"]):
        ActionFactory.create(node=node, kind=ActionKind.INSPECTION)  # two moves
    response = Client().get(
        f"/api/v1/platform/plans/{plan.number}/suggestions",
        {"limit": 2, "cursor": cursor},
        headers={"Authorization": f"Bearer {get.key}"},
    )
    assert_envelope(response, 410, "pagination.cursor_expired")
    assert get("suggestions", limit=2)["next_cursor"]  # a new walk starts


def test_moves_no_walk_needs_are_forgotten_when_the_sync_records_new_ones(
    setup: tuple[Plan, Any],
) -> None:
    plan, get = setup
    nodes = _walk_setup(plan)
    get("suggestions")
    ActionFactory.create(node=nodes["i1"], kind=ActionKind.INSPECTION)
    get("suggestions")
    SuggestionMove.objects.filter(plan=plan).update(
        created_at=timezone.now() - walk.MOVES_KEPT - timedelta(seconds=1)
    )
    ActionFactory.create(node=nodes["i2"], kind=ActionKind.INSPECTION)
    get("suggestions")
    assert list(SuggestionMove.objects.filter(plan=plan).values_list("rank_before", flat=True)) == [
        SEVERITY_RANKS["info"]
    ]


def test_the_ranks_of_the_moves_are_the_ranks_the_list_orders_by() -> None:
    plan = PlanFactory.create()
    node = StructureNodeFactory.create(plan=plan)
    for severity in Severity.values:
        suggestion = Suggestion.objects.create(
            plan=plan,
            structure_node=node,
            suggestion_type="missing_code",
            severity=severity,
            title="t",
            body="b",
            fingerprint=severity,
        )
        suggestion.refresh_from_db()
        assert suggestion.severity_rank == SEVERITY_RANKS[severity]


def test_a_pages_open_count_follows_every_change_of_the_list(setup: tuple[Plan, Any]) -> None:
    plan, get = setup
    nodes = _walk_setup(plan)
    first = get("suggestions", limit=2)
    assert first["open_count"] == 7
    StructureNodeFactory.create(plan=plan, parent=nodes["w1"].parent)  # one more missing code
    assert get("suggestions", limit=2, cursor=first["next_cursor"])["open_count"] == 8
    assert get("suggestions", limit=2, severity="warning")["open_count"] == 3
    StructureNode.objects.filter(pk=nodes["w1"].pk).delete()
    assert get("suggestions", limit=2)["open_count"] == 7
    assert get("suggestions", limit=2, severity="warning")["open_count"] == 2

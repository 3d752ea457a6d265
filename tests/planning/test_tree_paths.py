"""The stored building and path of every node (planning.tree) equal what the parent pointers
say, after any sequence of creates, moves, kind changes and deletes through the services, and
after changes made outside them (raw SQL, `QuerySet.update()`) once a sync has run. Runs on
SQLite in `make test` and on PostgreSQL."""

from __future__ import annotations

import contextlib
import csv
import io
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import connection
from django.test import Client
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planning.models import NodeKind, Plan, PlanRole, StructureNode
from planning.plans.services.nodes import node_create, node_delete, node_details_update, node_move
from planning.suggestions.sync.run import suggestion_sync
from planning.tree.paths import DEPTH_MAX, tree_repair
from planning.tree.selectors import node_subtree_ids
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)
from tests.planning.test_action_planning import _grid, planning_url
from tests.planning.workbooks import exported_sheet

pytestmark = pytest.mark.django_db


def walked(plan: Plan) -> dict[uuid.UUID, tuple[str, uuid.UUID | None]]:
    """Each node's (path, building) computed by walking its parent pointers."""
    rows = {
        node_id: (parent_id, kind)
        for node_id, parent_id, kind in StructureNode.objects.filter(plan=plan).values_list(
            "id", "parent_id", "kind"
        )
    }
    expected: dict[uuid.UUID, tuple[str, uuid.UUID | None]] = {}
    for node_id in rows:
        ancestors: list[uuid.UUID] = []
        current = rows[node_id][0]
        while current is not None:
            ancestors.append(current)
            current = rows[current][0]
        chain = [node_id, *ancestors]
        building = next((n for n in chain if rows[n][1] == NodeKind.BUILDING), None)
        expected[node_id] = ("".join(f"{a.hex}/" for a in reversed(ancestors)), building)
    return expected


def stored(plan: Plan) -> dict[uuid.UUID, tuple[str, uuid.UUID | None]]:
    return {
        node_id: (path, building_id)
        for node_id, path, building_id in StructureNode.objects.filter(plan=plan).values_list(
            "id", "path", "building_id"
        )
    }


RAW_MOVE = f"UPDATE {StructureNode._meta.db_table} SET parent_id = %s WHERE id = %s"  # noqa: S608


def _raw(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


def _db_id(value: Any) -> Any:
    return StructureNode._meta.get_field("id").get_db_prep_value(value, connection)


def _is_below(parents: dict[Any, Any], node_id: Any, ancestor_id: Any) -> bool:
    current = node_id
    while current is not None:
        if current == ancestor_id:
            return True
        current = parents.get(current)
    return False


index = st.integers(min_value=0, max_value=30)
kind = st.sampled_from(NodeKind.values)
step = st.one_of(
    st.tuples(st.just("create"), index, kind),
    st.tuples(st.just("create_root"), index, kind),
    st.tuples(st.just("move"), index, index),
    st.tuples(st.just("move_to_root"), index, st.none()),
    st.tuples(st.just("kind"), index, kind),
    st.tuples(st.just("delete"), index, st.none()),
    st.tuples(st.just("raw_move"), index, st.none() | index),
    st.tuples(st.just("update_kind"), index, kind),
    st.tuples(st.just("sync"), st.just(0), st.none()),
)


class TreeEditor:
    def __init__(self, plan: Plan) -> None:
        self.plan = plan
        self.stale = False  # a change outside the services has not been synced yet

    def nodes(self) -> list[StructureNode]:
        return list(StructureNode.objects.filter(plan=self.plan).order_by("name", "id"))

    def apply(self, action: str, position: int, value: Any) -> None:
        nodes = self.nodes()
        node = nodes[position % len(nodes)] if nodes else None
        if action in ("create", "create_root"):
            node_create(
                plan=self.plan,
                name=f"N {uuid.uuid4().hex[:6]}",
                kind=value,
                parent=node if action == "create" else None,
            )
        elif node is None:
            return
        elif action in ("move", "move_to_root"):
            parent = None if value is None else nodes[value % len(nodes)]
            with contextlib.suppress(ValidationError):  # under itself: refused
                node_move(node=node, parent=parent)
        elif action == "kind":
            node_details_update(node=node, kind=value, quantity=None, unit="", install_year=None)
        elif action == "delete":
            node_delete(node=node)
        elif action == "raw_move":
            parent = None if value is None else nodes[value % len(nodes)]
            parents = {n.pk: n.parent_id for n in nodes}
            if parent is None or not _is_below(parents, parent.pk, node.pk):
                _raw(RAW_MOVE, [_db_id(parent.pk) if parent else None, _db_id(node.pk)])
                self.stale = True
        elif action == "update_kind":
            StructureNode.objects.filter(pk=node.pk).update(kind=value)
            self.stale = True

    def sync(self) -> None:
        suggestion_sync(plan=self.plan)
        self.stale = False


def _start(synced: bool) -> TreeEditor:
    plan = PlanFactory.create()
    site = node_create(plan=plan, name="Site", kind=NodeKind.SITE)
    house = node_create(plan=plan, name="House", kind=NodeKind.BUILDING, parent=site)
    node_create(plan=plan, name="Boiler", kind=NodeKind.COMPONENT, parent=house)
    editor = TreeEditor(plan)
    if synced:  # a synced plan's changes leave change rows; a never-synced plan's do not
        editor.sync()
    return editor


@settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(synced=st.booleans(), steps=st.lists(step, max_size=12))
def test_stored_building_and_path_follow_the_parent_pointers(
    synced: bool, steps: list[tuple[Any, ...]]
) -> None:
    editor = _start(synced)
    for action, position, value in steps:
        if action == "sync":
            editor.sync()
        else:
            editor.apply(action, position, value)
        if not editor.stale:
            assert stored(editor.plan) == walked(editor.plan)
    editor.sync()

    assert stored(editor.plan) == walked(editor.plan)


@pytest.mark.usefixtures("suggestion_events_only")  # the move's own queries, not its events'
def test_a_move_carries_the_subtree_in_a_fixed_number_of_queries(
    django_assert_max_num_queries: Any,
) -> None:
    plan = PlanFactory.create()
    counts = []
    for size in (2, 40):
        site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE)
        other = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, parent=site)
        house = StructureNodeFactory.create(plan=plan, kind=NodeKind.SYSTEM, parent=site)
        parent = house
        for _ in range(size):
            parent = StructureNodeFactory.create(plan=plan, parent=parent, kind=NodeKind.SYSTEM)
        with django_assert_max_num_queries(20) as captured:
            node_move(node=house, parent=other)
        counts.append(len(captured.captured_queries))

    assert counts[0] == counts[1]
    assert stored(plan) == walked(plan)
    deepest = StructureNode.objects.get(pk=parent.pk)
    assert deepest.building_id == other.pk


def test_a_kind_change_to_and_from_building_re_anchors_the_subtree() -> None:
    site = StructureNodeFactory.create(kind=NodeKind.SITE)
    wing = StructureNodeFactory.create(plan=site.plan, parent=site, kind=NodeKind.SYSTEM)
    annex = StructureNodeFactory.create(plan=site.plan, parent=wing, kind=NodeKind.BUILDING)
    roof = StructureNodeFactory.create(plan=site.plan, parent=wing)
    door = StructureNodeFactory.create(plan=site.plan, parent=annex)

    node_details_update(
        node=wing, kind=NodeKind.BUILDING, quantity=None, unit="", install_year=None
    )
    buildings = dict(StructureNode.objects.values_list("id", "building_id"))
    assert (buildings[wing.pk], buildings[roof.pk], buildings[door.pk]) == (
        wing.pk,
        wing.pk,
        annex.pk,
    )

    node_details_update(node=wing, kind=NodeKind.SYSTEM, quantity=None, unit="", install_year=None)
    assert stored(site.plan) == walked(site.plan)
    assert StructureNode.objects.get(pk=roof.pk).building_id is None


def test_a_raw_sql_move_is_repaired_by_the_next_sync() -> None:
    editor = _start(synced=True)
    house = StructureNode.objects.get(plan=editor.plan, name="House")
    editor.apply("raw_move", 0, None)  # whatever moved, the paths now disagree
    _raw(RAW_MOVE, [None, _db_id(house.pk)])
    assert stored(editor.plan) != walked(editor.plan)

    editor.sync()

    assert stored(editor.plan) == walked(editor.plan)
    assert tree_repair(plan_id=editor.plan.pk) == 0  # nothing left to repair


def test_subtree_ids_come_from_the_paths() -> None:
    site = StructureNodeFactory.create(kind=NodeKind.SITE)
    house = StructureNodeFactory.create(plan=site.plan, parent=site, kind=NodeKind.BUILDING)
    roof = StructureNodeFactory.create(plan=site.plan, parent=house)
    StructureNodeFactory.create(plan=site.plan, parent=site)

    assert node_subtree_ids(plan=site.plan, node_id=house.pk) == {house.pk, roof.pk}
    assert len(node_subtree_ids(plan=site.plan, node_id=site.pk)) == 4
    assert node_subtree_ids(plan=site.plan, node_id=uuid.uuid4()) == set()


def test_a_structure_deeper_than_the_limit_is_refused() -> None:
    plan = PlanFactory.create()
    parent = None
    for _ in range(DEPTH_MAX + 1):
        parent = node_create(plan=plan, name="Level", kind="system", parent=parent)
    other = node_create(plan=plan, name="Other", kind="system")
    node_create(plan=plan, name="Leaf", kind="component", parent=other)

    with pytest.raises(ValidationError, match="levels deep"):
        node_create(plan=plan, name="Too deep", kind="component", parent=parent)
    with pytest.raises(ValidationError, match="levels deep"):
        node_move(node=other, parent=parent)


# --- buildings with the same name ------------------------------------------------------------


@pytest.fixture
def twin_houses(user: Any) -> dict[str, Any]:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    north = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="North")
    south = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="South")
    for site, cost in ((north, "100.00"), (south, "250.00")):
        house = StructureNodeFactory.create(
            plan=plan, parent=site, kind=NodeKind.BUILDING, name="House"
        )
        roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
        ActionFactory.create(node=roof, planned_year=2031, estimated_cost=Decimal(cost))
    return {"plan": plan}


def test_two_buildings_with_one_name_stay_two_rows_on_the_budget_page(
    client: Client, user: Any, twin_houses: dict[str, Any]
) -> None:
    client.force_login(user)

    html = client.get(planning_url(twin_houses["plan"]), {"year_from": 2030}).content.decode()

    grid = _grid(html)  # name, total, 2030, 2031, ...
    assert grid["House (North)"][1:4] == ["100", "", "100"]  # whole euros (GridUnit)
    assert grid["House (South)"][1:4] == ["250", "", "250"]


def test_two_buildings_with_one_name_stay_two_rows_in_both_budget_exports(
    client: Client, user: Any, twin_houses: dict[str, Any]
) -> None:
    client.force_login(user)
    number = twin_houses["plan"].number
    year = {"year_from": 2031, "year_to": 2031}

    csv_rows = list(
        csv.reader(
            io.StringIO(
                client.get(reverse("planning:export_budget", args=[number, "csv"]), year)
                .getvalue()
                .decode("utf-8-sig")
            )
        )
    )
    today = exported_sheet(
        client.get(reverse("planning:export_budget", args=[number, "xlsx"]), year).getvalue(),
        "Today's prices",
    )

    total = "Total 2031 (EUR, today's prices)"
    assert [[row[0], *row[7:9]] for row in csv_rows] == [
        ["Building", "2031", total],
        ["House (North)", "100.00", "100.00"],
        ["House (South)", "250.00", "250.00"],
        ["Total", "350.00", "350.00"],
    ]
    # the workbook names each building's site too, and sums the sites below the table
    assert [[*row[:2], *row[8:10]] for row in today.table] == [
        ["Site", "Building", 2031, total],
        ["North", "House (North)", 100, 100],
        ["South", "House (South)", 250, 250],
    ]
    assert [[*row[:2], *row[8:10]] for row in today.below[1:]] == [
        ["North", "Subtotal, 1 building", 100, 100],
        ["South", "Subtotal, 1 building", 250, 250],
        ["Total", None, 350, 350],
    ]


def test_the_actions_export_names_each_building_by_its_label(
    client: Client, user: Any, twin_houses: dict[str, Any]
) -> None:
    client.force_login(user)
    number = twin_houses["plan"].number

    response = client.get(reverse("planning:export_actions", args=[number, "csv"]))

    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    assert sorted(row[:2] for row in rows[1:]) == [
        ["North / House / Roof", "House (North)"],
        ["South / House / Roof", "House (South)"],
    ]


def test_twins_with_the_same_ancestors_are_told_apart_by_their_ids(
    client: Client, user: Any
) -> None:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    houses = [
        StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
        for _ in range(2)
    ]
    for house in houses:
        ActionFactory.create(node=house, planned_year=2031)
    client.force_login(user)

    response = client.get(reverse("planning:export_budget", args=[plan.number, "csv"]))

    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    assert sorted(row[0] for row in rows[1:-1]) == sorted(
        f"House ({house.pk.hex[:8]})" for house in houses
    )

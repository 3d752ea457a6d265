"""Every write of the app moves a node's or a project's `updated_at` (what the API lists'
`updated_since` read, docs/subsystems/integrator-api.md "Incremental reads"): the node services,
a survey, a move or a new kind for the whole subtree whose path or building changes, a tree
repair, an import; a project's own edits. A raw SQL change does not, as for actions."""

from __future__ import annotations

import datetime
import json
from collections.abc import Callable
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.utils import timezone

from planning.models import NodeKind, Plan, Project, StructureNode
from planning.plans.services.nodes import (
    node_building_update,
    node_code_assign,
    node_code_clear,
    node_condition_update,
    node_details_update,
    node_move,
    node_rename,
)
from planning.plans.services.projects import project_actions_add, project_update
from planning.plans.services.surveys import survey_record
from planning.transfer.imports.json_file import plan_import
from planning.tree.paths import tree_repair
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    ProjectFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db

LONG_AGO = timezone.now() - datetime.timedelta(days=30)


def _aged(model: type[StructureNode] | type[Project], *rows: Any) -> None:
    model.objects.filter(pk__in=[row.pk for row in rows]).update(updated_at=LONG_AGO)


def _changed(model: type[StructureNode] | type[Project], *rows: Any) -> set[str]:
    """Which of `rows` were written since they were aged, by name."""
    return set(
        model.objects.filter(pk__in=[row.pk for row in rows], updated_at__gt=LONG_AGO).values_list(
            "name", flat=True
        )
    )


@pytest.fixture
def plan() -> Plan:
    return PlanFactory.create()


@pytest.fixture
def building(plan: Plan) -> StructureNode:
    return StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")


@pytest.fixture
def roof(plan: Plan, building: StructureNode) -> StructureNode:
    return StructureNodeFactory.create(plan=plan, parent=building, name="Roof")


NODE_WRITES: dict[str, Callable[[StructureNode, StructureNode], Any]] = {
    "rename": lambda node, _building: node_rename(node=node, name="Roof, renamed"),
    "details": lambda node, _building: node_details_update(
        node=node, kind=node.kind, quantity=Decimal(3), unit="m2", install_year=2001
    ),
    "condition": lambda node, _building: node_condition_update(
        node=node, condition_grade=2, condition_assessed_on=timezone.localdate()
    ),
    "survey": lambda node, _building: survey_record(
        node=node,
        grade=3,
        consequence=1,
        note="",
        assessed_on=timezone.localdate(),
        by=None,
    ),
    "code assign": lambda node, _building: node_code_assign(node=node, code=CodeFactory.create()),
    "code clear": lambda node, _building: node_code_clear(node=node),
    "move to the top": lambda node, _building: node_move(node=node, parent=None),
}


@pytest.mark.parametrize("write", NODE_WRITES.values(), ids=NODE_WRITES.keys())
def test_each_node_service_moves_the_node_s_updated_at(
    building: StructureNode, roof: StructureNode, write: Callable[..., Any]
) -> None:
    _aged(StructureNode, building, roof)

    write(roof, building)

    assert _changed(StructureNode, building, roof) == {roof.name}


def test_a_building_s_data_moves_its_updated_at(building: StructureNode) -> None:
    _aged(StructureNode, building)

    node_building_update(
        node=building, address="Main St 1", gross_floor_area_m2=Decimal(100), year_built=1990
    )

    assert _changed(StructureNode, building) == {"House"}


def test_a_move_changes_every_node_of_the_moved_subtree_and_no_other(plan: Plan) -> None:
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Site")
    other_site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Other site")
    house = StructureNodeFactory.create(
        plan=plan, parent=site, kind=NodeKind.BUILDING, name="House"
    )
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    tile = StructureNodeFactory.create(plan=plan, parent=roof, name="Tile")
    shed = StructureNodeFactory.create(plan=plan, parent=site, name="Shed")
    everything = (site, other_site, house, roof, tile, shed)
    _aged(StructureNode, *everything)

    node_move(node=house, parent=other_site)

    # Their paths changed: the API shows each of them otherwise.
    assert _changed(StructureNode, *everything) == {"House", "Roof", "Tile"}


def test_a_new_kind_changes_the_nodes_whose_building_changes(plan: Plan) -> None:
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Site")
    wing = StructureNodeFactory.create(plan=plan, parent=site, kind=NodeKind.SYSTEM, name="Wing")
    boiler = StructureNodeFactory.create(plan=plan, parent=wing, name="Boiler")
    shed = StructureNodeFactory.create(plan=plan, parent=site, name="Shed")
    _aged(StructureNode, site, wing, boiler, shed)

    node_details_update(
        node=wing, kind=NodeKind.BUILDING, quantity=None, unit="", install_year=None
    )

    assert _changed(StructureNode, site, wing, boiler, shed) == {"Wing", "Boiler"}
    assert StructureNode.objects.get(pk=boiler.pk).building_id == wing.pk


def test_a_raw_sql_move_leaves_updated_at_and_the_tree_repair_moves_the_rows_it_writes(
    plan: Plan,
) -> None:
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Site")
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    _aged(StructureNode, site, house, roof)
    parent = StructureNode._meta.get_field("parent").get_db_prep_value(site.pk, connection)
    node = StructureNode._meta.get_field("id").get_db_prep_value(house.pk, connection)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE planning_structurenode SET parent_id = %s WHERE id = %s", [parent, node]
        )
    assert _changed(StructureNode, site, house, roof) == set()

    tree_repair(plan_id=plan.pk)

    assert _changed(StructureNode, site, house, roof) == {"House", "Roof"}


def test_an_import_s_nodes_carry_the_time_of_the_import(user: Any) -> None:
    started = timezone.now()
    document = {
        "name": "Imported",
        "nodes": [
            {"ref": "S", "parent_ref": None, "name": "Site", "kind": "site"},
            {"ref": "B", "parent_ref": "S", "name": "House", "kind": "building"},
        ],
        "actions": [],
    }

    plan = plan_import(owner=user, content=json.dumps(document).encode(), filename="plan.json")

    times = list(StructureNode.objects.filter(plan=plan).values_list("updated_at", flat=True))
    assert len(times) == 2
    assert all(started <= at <= timezone.now() for at in times)


def test_a_project_s_edit_moves_its_updated_at_and_its_actions_moving_in_do_not(
    plan: Plan, roof: StructureNode
) -> None:
    project = ProjectFactory.create(plan=plan, name="Roofs")
    other = ProjectFactory.create(plan=plan, name="Walls")
    action = ActionFactory.create(plan=plan, node=roof)
    _aged(Project, project, other)

    project_actions_add(project=project, action_ids=[action.pk])
    assert _changed(Project, project, other) == set()  # the action is the changed row

    project_update(project=project, name="Roofs 2030", year=2030)
    assert _changed(Project, project, other) == {"Roofs 2030"}

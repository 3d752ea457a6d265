"""Migration 0041 on the data of before it: existing nodes and projects take the migration's
time as their `updated_at`, and the triggers that SQLite set aside for the tables' rebuild are
back (a rename after it is in the history and the change log).

It moves the schema with Django's MigrationExecutor, so it runs outside a transaction and leaves
the database at the latest migration whatever happens (as test_migration_organisations.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from planning.models import HistoryEntry, PlanChange, Project, StructureNode
from planning.plans.services.nodes import node_rename
from planning.plans.services.projects import project_update

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(targets: list[tuple[str, str]]) -> Apps:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before() -> Iterator[Apps]:
    try:
        yield _migrate([("planning", "0040_action_updated_since")])
    finally:
        _migrate(list(MigrationExecutor(connection).loader.graph.leaf_nodes()))


def test_existing_rows_take_the_migration_s_time_and_the_triggers_come_back(
    before: Apps,
) -> None:
    organisation = before.get_model("organisations", "Organisation").objects.create(
        name="Before", slug="before"
    )
    plan = before.get_model("planning", "Plan").objects.create(
        number=951,
        name="Before",
        organisation=organisation,
        currency="EUR",
        last_synced_at=timezone.now(),  # the change log marks synced plans only
    )
    node_id = (
        before.get_model("planning", "StructureNode")
        .objects.create(plan=plan, name="Roof", kind="component")
        .pk
    )
    project_id = (
        before.get_model("planning", "Project")
        .objects.create(plan=plan, name="Roofs", year=2030)
        .pk
    )
    started = timezone.now()

    _migrate([("planning", "0041_node_project_updated_since")])

    node = StructureNode.objects.get(pk=node_id)
    project = Project.objects.get(pk=project_id)
    assert started <= node.updated_at <= timezone.now()
    assert started <= project.updated_at <= timezone.now()
    node_rename(node=node, name="Roof, renamed")
    project_update(project=project, name="Roofs, renamed", year=2031)
    assert set(
        HistoryEntry.objects.filter(plan_id=plan.pk, operation="update").values_list(
            "entity", flat=True
        )
    ) == {"node", "project"}
    assert PlanChange.objects.filter(plan_id=plan.pk, node_id=node_id).exists()

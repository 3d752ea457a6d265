# StructureNode.path and .building (planning.tree), filled for existing rows, and the node
# change trigger of migration 0006 recording a node's stored building and path before a change
# (PlanChange.old_building_id, .old_path), which the sync reads instead of the old tree.
#
# Order: the node triggers go first and come back last, so neither the fill (one statement for
# every node) nor a reversal (SQLite rebuilds a table to drop a foreign key, which would take
# its triggers with it) writes a change row or loses a trigger. Rows pending from before keep
# null old fields; the rules changed with this migration (planning.suggestions.rules), so every
# plan's next sync is a full one and never reads them.
#
# On SQLite, Django adds a NOT NULL column by rebuilding the table; a plain ADD COLUMN with a
# constant default does the job (as in 0009), on both databases (the default stays: a raw
# INSERT that names no path still succeeds, and the next sync repairs its fields).

import importlib

import django.db.models.deletion
from django.db import migrations, models

m0006 = importlib.import_module("planning.migrations.0006_plan_change")

NODE_OLD = (
    f"INSERT INTO {m0006.CHANGE} "
    "(plan_id, node_id, old_parent_id, old_kind, old_building_id, old_path, catalog) "
    "SELECT OLD.plan_id, OLD.id, OLD.parent_id, OLD.kind, OLD.building_id, OLD.path, {false} "
    f"{m0006.SYNCED.format(row='OLD')};"
)
OLD_NODE_TRIGGERS = {
    "postgresql": m0006.POSTGRESQL[:1],
    "sqlite": [s for s in m0006.SQLITE if "ON planning_structurenode" in s],
}
NEW_NODE_TRIGGERS = {
    vendor: [statement.replace(m0006.NODE_OLD, NODE_OLD) for statement in statements]
    for vendor, statements in OLD_NODE_TRIGGERS.items()
}
# The update and delete triggers now write the stored fields (one function on PostgreSQL).
assert [sum(NODE_OLD in s for s in NEW_NODE_TRIGGERS[v]) for v in ("postgresql", "sqlite")] == [
    1,
    2,
]
NODE_TRIGGERS_DROP = {
    "postgresql": m0006.POSTGRESQL_DROP[:1],
    "sqlite": [s for s in m0006.SQLITE_DROP if "planning_node_" in s],
}

# Every node's path and building from the parent pointers, roots down (the same SQL on both
# databases: SQLite keeps a UUID as 32 hex digits, PostgreSQL's text of it loses its dashes).
FILL = """
WITH RECURSIVE walk(id, path, building_id) AS (
    SELECT id, CAST('' AS TEXT), CASE WHEN kind = 'building' THEN id END
    FROM planning_structurenode WHERE parent_id IS NULL
    UNION ALL
    SELECT c.id, walk.path || REPLACE(CAST(walk.id AS TEXT), '-', '') || '/',
        CASE WHEN c.kind = 'building' THEN c.id ELSE walk.building_id END
    FROM planning_structurenode c JOIN walk ON c.parent_id = walk.id
)
UPDATE planning_structurenode SET path = walk.path, building_id = walk.building_id FROM walk
WHERE planning_structurenode.id = walk.id
"""


def _path_field():
    return models.TextField(blank=True, db_default="", default="", editable=False)


def path_add(apps, schema_editor):
    schema_editor.execute(
        "ALTER TABLE planning_structurenode ADD COLUMN path text NOT NULL DEFAULT ''"
    )


def path_remove(apps, schema_editor):
    schema_editor.execute("ALTER TABLE planning_structurenode DROP COLUMN path")


def fill(apps, schema_editor):
    schema_editor.execute(FILL, params=None)


class Migration(migrations.Migration):

    dependencies = [
        ("planning", "0009_plan_currency"),
    ]

    operations = [
        migrations.RunPython(
            m0006._run(NODE_TRIGGERS_DROP), m0006._run(OLD_NODE_TRIGGERS), elidable=False
        ),
        migrations.AddField(
            model_name="structurenode",
            name="building",
            field=models.ForeignKey(
                blank=True,
                editable=False,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="+",
                to="planning.structurenode",
            ),
        ),
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddField(model_name="structurenode", name="path", field=_path_field()),
            ],
            database_operations=[migrations.RunPython(path_add, path_remove)],
        ),
        migrations.AddIndex(
            model_name="structurenode",
            index=models.Index(
                fields=["path"], name="structure_node_path", opclasses=["text_pattern_ops"]
            ),
        ),
        migrations.AddField(
            model_name="planchange",
            name="old_building_id",
            field=models.UUIDField(null=True),
        ),
        migrations.AddField(
            model_name="planchange",
            name="old_path",
            field=models.TextField(null=True),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.RunPython(
            m0006._run(NEW_NODE_TRIGGERS), m0006._run(NODE_TRIGGERS_DROP), elidable=False
        ),
    ]

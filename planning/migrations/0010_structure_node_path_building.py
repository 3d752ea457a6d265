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

import django.db.models.deletion
from django.db import migrations, models

from planning.db.change_log_triggers import node_change, node_change_drop
from planning.db.statements import executing
from planning.db.tracked import EVERY_COLUMN, ChangeLog

# The node's entry of the tracked table (planning.db.tracked) before and after: its update and
# delete triggers now keep its stored building and path too.
NODE_BEFORE = ChangeLog(nodes=EVERY_COLUMN, old=("parent_id", "kind"))
NODE = ChangeLog(nodes=EVERY_COLUMN, old=("parent_id", "kind", "building_id", "path"))

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
            executing(node_change_drop()), executing(node_change(NODE_BEFORE)), elidable=False
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
            executing(node_change(NODE)), executing(node_change_drop()), elidable=False
        ),
    ]

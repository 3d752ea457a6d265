# When a node or a project last changed, for the nodes and projects lists' `updated_since`
# (docs/subsystems/integrator-api.md "Incremental reads"), with an index on (plan, updated_at)
# as the actions' (0040). Existing rows take the time of the migration: a client asking from
# before it gets them all, which it has not read incrementally yet anyway.
#
# A NOT NULL column makes SQLite rebuild planning_structurenode and planning_project, which
# their triggers (history, change log) forbid: they are set aside around the change and made
# again from their own SQL as in 0039 (planning.db.rebuild). The column is no tracked column
# (planning.db.tracked): the history and change log triggers stay as they are.

from django.db import migrations, models

from planning.db.rebuild import triggers_restore, triggers_set_aside


class Migration(migrations.Migration):
    dependencies = [("planning", "0040_action_updated_since")]

    operations = [
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
        migrations.AddField(
            model_name="project",
            name="updated_at",
            field=models.DateTimeField(auto_now=True),
        ),
        migrations.AddField(
            model_name="structurenode",
            name="updated_at",
            field=models.DateTimeField(auto_now=True),
        ),
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
        migrations.AddIndex(
            model_name="project",
            index=models.Index(fields=["plan", "updated_at"], name="project_plan_updated"),
        ),
        migrations.AddIndex(
            model_name="structurenode",
            index=models.Index(fields=["plan", "updated_at"], name="structure_node_plan_updated"),
        ),
    ]

# Plan.suggestions_version becomes Plan.data_version: it is raised by every change of the
# plan's data as well as of its suggestions (planning.core.writes). A column rename: SQLite renames
# it in place (ALTER TABLE ... RENAME COLUMN), so the change triggers of migration 0006 stay.

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("planning", "0010_structure_node_path_building"),
    ]

    operations = [
        migrations.RenameField(
            model_name="plan", old_name="suggestions_version", new_name="data_version"
        ),
    ]

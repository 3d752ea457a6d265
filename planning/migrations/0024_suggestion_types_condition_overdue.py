# Rules 4 and 5 (docs/subsystems/suggestion-rules.md "Suggestion rules"): the suggestion types condition and overdue.
# Changing the type's check constraint rebuilds planning_suggestion on SQLite, which would drop
# its history trigger (0021), so the triggers are set aside around it as in 0015.

from django.db import migrations, models

from planning.db.rebuild import triggers_restore, triggers_set_aside

TYPES = ["missing_code", "deviation", "project_grouping", "condition", "overdue"]


class Migration(migrations.Migration):
    dependencies = [("planning", "0023_natural_collation")]

    operations = [
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
        migrations.RemoveConstraint(model_name="suggestion", name="suggestion_type_valid"),
        migrations.AlterField(
            model_name="suggestion",
            name="suggestion_type",
            field=models.CharField(
                choices=[
                    ("missing_code", "Missing code"),
                    ("deviation", "Deviation"),
                    ("project_grouping", "Project grouping"),
                    ("condition", "Condition"),
                    ("overdue", "Overdue"),
                ],
                max_length=20,
            ),
        ),
        migrations.AddConstraint(
            model_name="suggestion",
            constraint=models.CheckConstraint(
                condition=models.Q(("suggestion_type__in", TYPES)),
                name="suggestion_type_valid",
            ),
        ),
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
    ]

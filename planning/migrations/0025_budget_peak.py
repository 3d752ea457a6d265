# Rule 6 (docs/subsystems/suggestion-rules.md "Suggestion rules"): the suggestion type budget_peak, and the annual
# budget the stored budget peaks were derived under. Changing the type's check constraint
# rebuilds planning_suggestion on SQLite, which would drop its history trigger (0021), so the
# triggers are set aside around it as in 0015.

from django.db import migrations, models

from planning.db.rebuild import triggers_restore, triggers_set_aside

TYPES = ["missing_code", "deviation", "project_grouping", "condition", "overdue", "budget_peak"]


class Migration(migrations.Migration):
    dependencies = [("planning", "0024_suggestion_types_condition_overdue")]

    operations = [
        migrations.AddField(
            model_name="plan",
            name="suggestions_budget",
            field=models.DecimalField(
                blank=True, decimal_places=2, editable=False, max_digits=14, null=True
            ),
        ),
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
                    ("budget_peak", "Budget peak"),
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

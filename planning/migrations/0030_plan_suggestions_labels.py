# The building labels the stored suggestions' texts name (docs/subsystems/suggestion-rules.md "Suggestion rules"):
# a sync re-derives the suggestions of a building whose label has changed. Nullable, so SQLite
# adds the column in place instead of rebuilding planning_plan.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("planning", "0029_plan_markups")]

    operations = [
        migrations.AddField(
            model_name="plan",
            name="suggestions_labels",
            field=models.JSONField(blank=True, editable=False, null=True),
        ),
    ]

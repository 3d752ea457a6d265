# Completion.estimated_cost: the action's estimate when the work was done (docs/subsystems/follow-up.md
# "Follow-up"). Completions made before get their action's estimate as it is now, the best
# record there is. A nullable column: SQLite adds it without rebuilding the table.

from django.core import validators
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def estimates_fill(apps, schema_editor):
    completion = apps.get_model("planning", "Completion")
    action = apps.get_model("planning", "Action")
    completion.objects.filter(estimated_cost__isnull=True).update(
        estimated_cost=Subquery(
            action.objects.filter(pk=OuterRef("action_id")).values("estimated_cost")[:1]
        )
    )


class Migration(migrations.Migration):
    dependencies = [
        ("planning", "0019_plan_report"),
    ]

    operations = [
        migrations.AddField(
            model_name="completion",
            name="estimated_cost",
            field=models.DecimalField(
                blank=True,
                decimal_places=2,
                max_digits=14,
                null=True,
                validators=[validators.MinValueValidator(0, message="Cannot be negative.")],
            ),
        ),
        migrations.RunPython(estimates_fill, migrations.RunPython.noop, elidable=True),
    ]

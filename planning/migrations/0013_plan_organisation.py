# Plan.organisation, nullable until 0014 fills it. Adding the column is an ALTER TABLE on both
# databases, but removing it again (a reversal) rebuilds planning_plan on SQLite, so the change
# triggers are set aside around it as in 0015.

import importlib

import django.db.models.deletion
from django.db import migrations, models

m0015 = importlib.import_module("planning.migrations.0015_plan_organisation_required")


class Migration(migrations.Migration):
    dependencies = [
        ("organisations", "0001_organisations"),
        ("planning", "0012_plan_import_lease"),
    ]

    operations = [
        migrations.RunPython(m0015.triggers_set_aside, m0015.triggers_restore, elidable=False),
        migrations.AddField(
            model_name="plan",
            name="organisation",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="plans",
                to="organisations.organisation",
            ),
        ),
        migrations.RunPython(m0015.triggers_restore, m0015.triggers_set_aside, elidable=False),
    ]

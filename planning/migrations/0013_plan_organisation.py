# Plan.organisation, nullable until 0014 fills it. Adding the column is an ALTER TABLE on both
# databases, but removing it again (a reversal) rebuilds planning_plan on SQLite, so the change
# triggers are set aside around it as in 0015.

import django.db.models.deletion
from django.db import migrations, models

from planning.db.rebuild import triggers_restore, triggers_set_aside


class Migration(migrations.Migration):
    dependencies = [
        ("organisations", "0001_organisations"),
        ("planning", "0012_plan_import_lease"),
    ]

    operations = [
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
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
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
    ]

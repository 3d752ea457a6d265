# Plan.organisation becomes required, once 0014 has filled it.
#
# SQLite makes a column NOT NULL by rebuilding the table (create, copy, drop, rename), and a
# rebuild of planning_plan fails while the change triggers of 0006/0010 name it. So on SQLite
# every trigger is set aside in a temporary table, dropped, and created again from its own SQL
# after the rebuild, in either direction (planning.db.rebuild). PostgreSQL alters the column in
# place.

import django.db.models.deletion
from django.db import migrations, models

from planning.db.rebuild import triggers_restore, triggers_set_aside


class Migration(migrations.Migration):
    dependencies = [
        ("organisations", "0001_organisations"),
        ("planning", "0014_plans_into_organisations"),
    ]

    operations = [
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
        migrations.AlterField(
            model_name="plan",
            name="organisation",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.PROTECT,
                related_name="plans",
                to="organisations.organisation",
            ),
        ),
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
    ]

# A plan's markups as an ordered list of named percentages (docs/design.md "Money" >
# "Markups"). The column is added with ALTER TABLE on SQLite too (nullable, no default), so no
# table is rebuilt and no trigger is lost. The plan's history triggers record it from now on:
# they are made again from 0021's generator with the column added.

import copy
import importlib

import planning.models.plans
from django.db import migrations, models

m0021 = importlib.import_module("planning.migrations.0021_history")

PLAN = copy.deepcopy(m0021.ENTITIES["plan"])
BEFORE = copy.deepcopy(PLAN)
PLAN["columns"].append("markups")


def _postgresql(spec):
    arguments = ", ".join(f"'{value}'" for value in ("plan", *spec["columns"]))
    return [
        "DROP TRIGGER planning_history_plan ON planning_plan;",
        f"CREATE TRIGGER planning_history_plan AFTER {' OR '.join(spec['events'])} "
        "ON planning_plan FOR EACH ROW "
        f"EXECUTE FUNCTION planning_history_record({arguments});",
    ]


def _sqlite(spec):
    statements = []
    for event in spec["events"]:
        statements.append(f"DROP TRIGGER planning_history_plan_{event.lower()};")
        statements.append(m0021._sqlite_trigger("plan", spec, event))
    return statements


def _triggers(spec):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        make = {"postgresql": _postgresql, "sqlite": _sqlite}[vendor]
        for statement in make(spec):
            schema_editor.execute(statement, params=None)

    return run


class Migration(migrations.Migration):
    dependencies = [("planning", "0028_version_planned_cost")]

    operations = [
        migrations.AddField(
            model_name="plan",
            name="markups",
            field=models.JSONField(
                blank=True,
                help_text="Named percentages.",
                null=True,
                validators=[planning.models.plans.markups_validate],
            ),
        ),
        migrations.RunPython(_triggers(PLAN), _triggers(BEFORE)),
    ]

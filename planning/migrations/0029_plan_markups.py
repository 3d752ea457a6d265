# A plan's markups as an ordered list of named percentages (docs/subsystems/money.md
# "Markups"). The column is added with ALTER TABLE on SQLite too (nullable, no default), so no
# table is rebuilt and no trigger is lost. The plan's history triggers record it from now on:
# they are made again with the column added.

import planning.models.plans
from django.db import migrations, models

from planning.db.history_triggers import history_trigger, history_trigger_drop
from planning.db.statements import executing
from planning.db.tracked import History, Tracked


def _plan(columns: tuple[str, ...]) -> Tracked:
    """The plan's entry of the tracked table (planning.db.tracked) as it was here."""
    return Tracked(
        "plan",
        "planning_plan",
        history=History(
            columns=columns,
            plan="R.id",
            entity_uuid="R.id",
            label="R.name",
            events=("INSERT", "UPDATE"),
        ),
    )


COLUMNS_BEFORE = (
    "name",
    "description",
    "organisation_id",
    "currency",
    "price_base_year",
    "index_rate_percent",
    "overhead_percent",
    "vat_percent",
    "annual_budget",
)
BEFORE = _plan(COLUMNS_BEFORE)
PLAN = _plan((*COLUMNS_BEFORE, "markups"))


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
        migrations.RunPython(
            executing(history_trigger_drop(BEFORE) + history_trigger(PLAN)),
            executing(history_trigger_drop(PLAN) + history_trigger(BEFORE)),
        ),
    ]

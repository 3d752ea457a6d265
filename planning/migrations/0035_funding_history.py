# The history of a plan's fund and funding scenarios (docs/subsystems/funding.md "History"):
# two more entities for the history triggers. PostgreSQL's one history function gains a branch
# for each, so every history trigger is made again: dropped as the table was after 0029 and
# made from that table with the two entries added.

import importlib

from django.db import migrations, models

from planning.db.history_triggers import history_triggers, history_triggers_drop
from planning.db.statements import executing
from planning.db.tracked import History, Tracked

_HISTORY = importlib.import_module("planning.migrations.0021_history").HISTORY
_PLAN = importlib.import_module("planning.migrations.0029_plan_markups").PLAN
# The table as 0029 left it: 0021's with the plan's markups.
BEFORE = tuple(_PLAN if entry.entity == "plan" else entry for entry in _HISTORY)
AFTER = (
    *BEFORE,
    Tracked(
        "fund",
        "planning_fund",
        history=History(
            columns=(
                "opening_balance",
                "start_year",
                "interest_percent",
                "contribution",
                "contribution_increase_percent",
                "horizon_years",
                "threshold_amount",
                "threshold_percent",
            ),
            plan="R.plan_id",
            entity_uuid="R.id",
            label="'Fund'",
        ),
    ),
    Tracked(
        "scenario",
        "planning_fundingscenario",
        history=History(
            columns=(
                "name",
                "opening_balance",
                "start_year",
                "interest_percent",
                "contribution",
                "contribution_increase_percent",
                "goal",
                "goal_threshold",
                "horizon_years",
                "index_rate_percent",
                "annual_budget",
            ),
            plan="R.plan_id",
            entity_uuid="R.id",
            label="R.name",
        ),
    ),
)


class Migration(migrations.Migration):
    dependencies = [("planning", "0034_funding")]

    operations = [
        migrations.AlterField(
            model_name="historyentry",
            name="entity",
            field=models.CharField(
                choices=[
                    ("plan", "Plan"),
                    ("node", "Node"),
                    ("action", "Action"),
                    ("project", "Project"),
                    ("grant", "Guest"),
                    ("completion", "Completion"),
                    ("suggestion", "Suggestion"),
                    ("fund", "Fund"),
                    ("scenario", "Funding scenario"),
                ],
                max_length=12,
            ),
        ),
        migrations.RunPython(
            executing(history_triggers_drop(BEFORE) + history_triggers(AFTER)),
            executing(history_triggers_drop(AFTER) + history_triggers(BEFORE)),
        ),
    ]

# A building's replacement value, which the facility condition index divides by
# (docs/subsystems/portfolio.md "Facility condition index"). The check constraint makes SQLite
# rebuild planning_structurenode: its triggers are set aside around it as in 0018; then the
# node's history trigger is made again with the column, so its changes are recorded.

import django.core.validators
from decimal import Decimal
from django.db import migrations, models

from planning.db.history_triggers import history_trigger, history_trigger_drop
from planning.db.rebuild import triggers_restore, triggers_set_aside
from planning.db.statements import executing
from planning.db.tracked import History, Tracked


def _node(columns: tuple[str, ...]) -> Tracked:
    """The node's history entry of the tracked table (planning.db.tracked) as it was here."""
    return Tracked(
        "node",
        "planning_structurenode",
        history=History(columns=columns, plan="R.plan_id", entity_uuid="R.id", label="R.name"),
    )


COLUMNS_BEFORE = (
    "parent_id",
    "name",
    "kind",
    "code_id",
    "quantity",
    "unit",
    "install_year",
    "ref",
    "address",
    "gross_floor_area_m2",
    "year_built",
    "condition_grade",
    "condition_assessed_on",
    "condition_consequence",  # 0036
)
BEFORE = _node(COLUMNS_BEFORE)
NODE = _node((*COLUMNS_BEFORE, "replacement_value"))


class Migration(migrations.Migration):
    dependencies = [("planning", "0038_history_entity_choices")]

    operations = [
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
        migrations.AddField(
            model_name="structurenode",
            name="replacement_value",
            field=models.DecimalField(
                blank=True,
                decimal_places=2,
                max_digits=14,
                null=True,
                validators=[
                    django.core.validators.MinValueValidator(
                        Decimal("0.01"), message="Enter a replacement value above 0."
                    )
                ],
                verbose_name="replacement value",
            ),
        ),
        migrations.AddConstraint(
            model_name="structurenode",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("replacement_value__isnull", True),
                    ("replacement_value__gt", 0),
                    _connector="OR",
                ),
                name="structure_node_replacement_value_positive",
            ),
        ),
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
        migrations.RunPython(
            executing(history_trigger_drop(BEFORE) + history_trigger(NODE)),
            executing(history_trigger_drop(NODE) + history_trigger(BEFORE)),
        ),
    ]

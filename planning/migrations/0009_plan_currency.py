# Plan.currency. On SQLite, Django adds a NOT NULL column by rebuilding the table, which the
# change triggers of migration 0006 (they name planning_plan) forbid; a plain ADD COLUMN with
# a constant default does the same job there. PostgreSQL takes Django's own operation.

import django.core.validators
from django.conf import settings
from django.db import migrations, models

import planning.models


def _field():
    return models.CharField(
        default=planning.models.plan_currency_default,
        help_text="ISO 4217 code, e.g. EUR, USD, CHF.",
        max_length=3,
        validators=[
            django.core.validators.RegexValidator(
                "^[A-Z]{3}\\Z", message="Enter a 3-letter currency code such as EUR or USD."
            )
        ],
    )


def add_column(apps, schema_editor):
    plan = apps.get_model("planning", "Plan")
    if schema_editor.connection.vendor == "sqlite":
        currency = settings.PLAN_DEFAULT_CURRENCY  # three letters, checked by the settings
        schema_editor.execute(
            f"ALTER TABLE planning_plan ADD COLUMN currency varchar(3) NOT NULL "
            f"DEFAULT '{currency}'"
        )
        return
    field = _field()
    field.set_attributes_from_name("currency")
    schema_editor.add_field(plan, field)


def drop_column(apps, schema_editor):
    schema_editor.execute("ALTER TABLE planning_plan DROP COLUMN currency")


class Migration(migrations.Migration):

    dependencies = [
        ("planning", "0008_plan_import"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AddField(model_name="plan", name="currency", field=_field()),
            ],
            database_operations=[migrations.RunPython(add_column, drop_column)],
        ),
    ]

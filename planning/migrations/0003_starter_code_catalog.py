"""The starter code catalog: about 40 common building components.

The rows live in `planning.catalog.starter` (data only, no models): the figures (unit cost in EUR per
unit, service life in years) are Maintplan's own default reference values, rounded estimates for
planning, not taken from any published price list or standard. They are marked
`is_default=True` and are meant to be adjusted in the admin.

The migration only adds codes that are missing, so an operator's edits survive a re-run, and
its reverse removes only default codes no structure node uses.
"""

from decimal import Decimal

from django.db import migrations

from planning.catalog.starter import STARTER_CATALOG


def add_starter_catalog(apps, schema_editor):
    code_model = apps.get_model("planning", "Code")
    for code, name, unit, unit_cost, service_life_years, keywords in STARTER_CATALOG:
        code_model.objects.get_or_create(
            code=code,
            defaults={
                "name": name,
                "unit": unit,
                "unit_cost": Decimal(unit_cost),
                "service_life_years": service_life_years,
                "keywords": keywords,
                "is_default": True,
            },
        )


def remove_unused_starter_catalog(apps, schema_editor):
    code_model = apps.get_model("planning", "Code")
    code_model.objects.filter(
        code__in=[row[0] for row in STARTER_CATALOG], is_default=True, nodes__isnull=True
    ).delete()


class Migration(migrations.Migration):
    dependencies = [("planning", "0002_plan_number_counter_row")]

    operations = [migrations.RunPython(add_starter_catalog, remove_unused_starter_catalog)]

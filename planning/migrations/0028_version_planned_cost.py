# A version's planned cost becomes the plan list's figure at adoption (docs/subsystems/versions.md "Versions"):
# today's prices, every live occurrence of the ten years from the adoption's year, from the
# version's snapshot. Versions adopted before counted every planned action once, whatever its
# year; their figure is recomputed from the snapshot they keep.

from django.db import migrations


def recompute(apps, schema_editor):
    from planning.figures.totals import planned_total, ten_years

    PlanVersion = apps.get_model("planning", "PlanVersion")
    VersionAction = apps.get_model("planning", "VersionAction")
    for version in PlanVersion.objects.all().iterator():
        year_from, year_to = ten_years(version.created_at.year)
        version.total_cost = planned_total(
            actions=VersionAction.objects.filter(version_id=version.pk),
            year_from=year_from,
            year_to=year_to,
        )
        version.save(update_fields=["total_cost"])


class Migration(migrations.Migration):
    dependencies = [("planning", "0027_catalog_currency")]

    operations = [migrations.RunPython(recompute, migrations.RunPython.noop)]

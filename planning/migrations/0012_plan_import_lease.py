# The lease of jobs.leases on PlanImport (its liveness was a heartbeat in the cache). An import
# running while this migrates gets a lease that has already run out: the next `resume_jobs`
# (or its page) runs it again, which makes exactly one plan whatever the old run does.

from django.conf import settings
from django.db import migrations, models
from django.db.models import F


def running_imports_lease(apps, schema_editor):
    plan_import = apps.get_model("planning", "PlanImport")
    plan_import.objects.filter(
        status__in=["checking", "syncing"], started_at__isnull=False
    ).update(lease_expires_at=F("started_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("planning", "0011_plan_data_version"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="planimport",
            name="lease_expires_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="planimport",
            index=models.Index(
                condition=models.Q(("lease_expires_at__isnull", False)),
                fields=["lease_expires_at"],
                name="planning_planimport_lease",
            ),
        ),
        migrations.RunPython(running_imports_lease, migrations.RunPython.noop),
    ]

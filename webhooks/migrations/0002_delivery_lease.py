# The lease of jobs.leases on WebhookDelivery: an attempt in progress held the delivery through
# `next_attempt_at`, now through `lease_expires_at`. An attempt claimed but not recorded when
# this migrates keeps its deadline, so `resume_jobs` still records it as lost and retries.

from django.db import migrations, models
from django.db.models import Exists, F, OuterRef


def claimed_attempts_lease(apps, schema_editor):
    delivery = apps.get_model("webhooks", "WebhookDelivery")
    attempt = apps.get_model("webhooks", "WebhookAttempt")
    recorded = attempt.objects.filter(delivery=OuterRef("pk"), number=OuterRef("attempts"))
    delivery.objects.filter(
        status="pending", attempts__gte=1, next_attempt_at__isnull=False
    ).filter(~Exists(recorded)).update(lease_expires_at=F("next_attempt_at"))


class Migration(migrations.Migration):
    dependencies = [
        ("webhooks", "0001_initial"),
    ]

    operations = [
        migrations.AddField(
            model_name="webhookdelivery",
            name="lease_expires_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.AddIndex(
            model_name="webhookdelivery",
            index=models.Index(
                condition=models.Q(("lease_expires_at__isnull", False)),
                fields=["lease_expires_at"],
                name="webhooks_webhookdelivery_lease",
            ),
        ),
        migrations.RunPython(claimed_attempts_lease, migrations.RunPython.noop),
    ]

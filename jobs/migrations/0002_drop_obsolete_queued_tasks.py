"""Jobs queued by the code before the jobs app (a daily key job, the 5-minute resume chain)
name tasks that no longer exist: a worker would log each as failed. The tick of the jobs app
does both now (`manage.py resume_jobs` starts it), so the queued ones are dropped."""

from django.db import migrations

OBSOLETE = ("integrations.tasks.api_key_notices", "webhooks.tasks.stale_jobs_resume")


def drop(apps, schema_editor):
    DBTaskResult = apps.get_model("django_tasks_database", "DBTaskResult")
    DBTaskResult.objects.filter(task_path__in=OBSOLETE, status="READY").delete()


class Migration(migrations.Migration):
    dependencies = [
        ("jobs", "0001_initial"),
        ("django_tasks_database", "0021_conditional_partial_index_ordering"),
    ]

    operations = [migrations.RunPython(drop, migrations.RunPython.noop)]

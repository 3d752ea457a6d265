"""Background jobs of the integrations app (run by `manage.py db_worker`)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone
from django_tasks import task

from accounts.services import security_events_purge
from integrations.services import api_key_expiry_notices_send

DAY = timedelta(days=1)


@task()
def api_key_notices() -> None:
    """The daily key job (expiry reminders, expiry log lines, the security log's retention),
    which enqueues its own next run a day later: enqueue it once (`manage.py shell -c "from
    integrations.tasks import api_key_notices; api_key_notices.enqueue()"`) and the worker
    keeps it going. Running it more often, or from cron (`manage.py api_key_notices`) as
    well, sends nothing twice."""
    now = timezone.now()
    api_key_expiry_notices_send(now=now)
    security_events_purge(now=now)
    api_key_notices.using(run_after=now + DAY).enqueue()

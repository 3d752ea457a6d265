"""Background jobs of the integrations app (run by `manage.py db_worker`)."""

from __future__ import annotations

from datetime import datetime, timedelta

from django.core.cache import cache
from django.utils import timezone
from django_tasks import task

from accounts.services import security_events_purge
from integrations.services import api_key_expiry_notices_send

DAY = timedelta(days=1)


@task()
def api_key_notices() -> None:
    """The daily key job (expiry reminders, expiry log lines, the security log's retention),
    which enqueues its next run a day later, so one `manage.py api_key_notices --enqueue` keeps
    it going on the worker. Runs of one day enqueue one next run between them (a cache marker
    per day), so starting it twice does not double it; and running it more often, or from cron
    as well, sends nothing twice."""
    now = timezone.now()
    api_key_expiry_notices_send(now=now)
    security_events_purge(now=now)
    api_key_notices_schedule(after=now + DAY)


def api_key_notices_schedule(*, after: datetime) -> bool:
    """Enqueues the job to run at `after`, unless a run for that day is already enqueued."""
    if not cache.add(f"api_key_notices:{after:%Y-%m-%d}", 1, timeout=int(2 * DAY.total_seconds())):
        return False
    api_key_notices.using(run_after=after).enqueue()
    return True

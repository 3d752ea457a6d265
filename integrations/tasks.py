"""Background work of the integrations app, run by the worker's tick (jobs.registry)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from accounts.services import security_events_purge
from integrations.services import api_key_expiry_notices_send
from webhooks.services import events_expire

API_KEY_NOTICES_EVERY = timedelta(days=1)


def api_key_notices() -> None:
    """The daily key job: expiry reminders, expiry log lines, the security log's retention,
    and the events' (the events API and the webhook delivery log keep 30 days). A periodic job
    of the worker (registered in IntegrationsConfig.ready()); running it more often, or from
    cron as well, sends nothing twice."""
    now = timezone.now()
    api_key_expiry_notices_send(now=now)
    security_events_purge(now=now)
    events_expire(now=now)

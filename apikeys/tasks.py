"""Background work of the apikeys app, run by the worker's tick (jobs.registry)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from apikeys.services import api_key_expiry_notices_send

API_KEY_NOTICES_EVERY = timedelta(days=1)


def api_key_notices() -> None:
    """The daily key job: expiry reminders and expiry log lines. A periodic job of the worker
    (registered in ApiKeysConfig.ready()); running it more often, or from cron as well, sends
    nothing twice. The security log's retention is accounts' own periodic job
    (accounts.tasks.security_log_retention), the events' webhooks' own
    (webhooks.services.events_retention)."""
    api_key_expiry_notices_send(now=timezone.now())

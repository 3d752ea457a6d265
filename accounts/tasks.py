"""Background work of the accounts app, run by the worker's tick (jobs.registry)."""

from __future__ import annotations

from datetime import timedelta

from django.utils import timezone

from accounts.services import security_events_purge

SECURITY_LOG_RETENTION_EVERY = timedelta(days=1)


def security_log_retention() -> None:
    """The security log's retention: deletes the lines older than SECURITY_LOG_DAYS. A periodic
    job of the worker (registered in AccountsConfig.ready()); running it more often deletes
    nothing twice."""
    security_events_purge(now=timezone.now())

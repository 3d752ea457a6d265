from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from accounts.services import security_events_purge
from apikeys.services import api_key_expiry_notices_send


class Command(BaseCommand):
    help = (
        "The daily key job, which the worker runs on its own once a day (a periodic job of "
        "jobs.registry); run it from cron too if you like: emails owners 7 days and 1 day "
        "before a key expires (once each, however often it runs), logs expired keys in their "
        "owners' security logs, and deletes security-log lines older than SECURITY_LOG_DAYS "
        "(which the worker does in accounts' own daily job)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        now = timezone.now()
        counts = api_key_expiry_notices_send(now=now)
        purged = security_events_purge(now=now)
        self.stdout.write(
            f"{counts['reminders']} reminder(s) sent, {counts['expired']} expiry(ies) logged, "
            f"{purged} old security-log line(s) deleted."
        )

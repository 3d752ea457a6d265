from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from accounts.services import security_events_purge
from integrations.services import api_key_expiry_notices_send
from integrations.tasks import api_key_notices_schedule


class Command(BaseCommand):
    help = (
        "The daily key job (run it from cron, or let the worker run the api_key_notices task): "
        "emails owners 7 days and 1 day before a key expires (once each, however often it "
        "runs), logs expired keys in their owners' security logs, and deletes security-log "
        "lines older than SECURITY_LOG_DAYS. With --enqueue it only hands the job to the worker, "
        "which then runs it daily."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--enqueue",
            action="store_true",
            help="Enqueue the job for the worker now (it re-enqueues itself a day later).",
        )

    def handle(self, *args: Any, enqueue: bool, **options: Any) -> None:
        now = timezone.now()
        if enqueue:
            queued = api_key_notices_schedule(after=now)
            self.stdout.write("Enqueued." if queued else "Already enqueued for today.")
            return
        counts = api_key_expiry_notices_send(now=now)
        purged = security_events_purge(now=now)
        self.stdout.write(
            f"{counts['reminders']} reminder(s) sent, {counts['expired']} expiry(ies) logged, "
            f"{purged} old security-log line(s) deleted."
        )

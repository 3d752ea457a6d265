from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from webhooks.tasks import webhook_deliveries_resume


class Command(BaseCommand):
    help = (
        "Takes up the webhook deliveries whose attempt is overdue by ATTEMPT_LEASE (their "
        "worker was killed mid-attempt): the lost attempt is recorded as failed and the next "
        "one queued. Run it when a worker starts."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = webhook_deliveries_resume()
        if count:
            self.stdout.write(f"{count} webhook deliver{'y' if count == 1 else 'ies'} taken up.")

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand
from django.utils import timezone

from planning.tasks import plan_imports_resume
from webhooks.tasks import (
    ATTEMPT_LEASE,
    stale_jobs_resume_schedule,
    webhook_deliveries_resume,
)


class Command(BaseCommand):
    help = (
        "Takes up the work of killed workers (web imports that stopped reporting progress, "
        "webhook deliveries whose attempt is overdue) and keeps doing so every few minutes on "
        "the worker. Run it when a worker starts (the Procfile's worker line does)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        imports, deliveries = plan_imports_resume(), webhook_deliveries_resume()
        stale_jobs_resume_schedule(after=timezone.now() + ATTEMPT_LEASE)
        if imports or deliveries:
            self.stdout.write(f"Taken up: {imports} import(s), {deliveries} webhook delivery(ies).")

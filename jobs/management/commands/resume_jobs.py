from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from jobs.registry import jobs_resume
from jobs.tasks import jobs_tick_start


class Command(BaseCommand):
    help = (
        "Takes up the work of killed workers (every kind the apps register: web imports, "
        "webhook deliveries) and starts the worker's tick, which does it again every few "
        "minutes and runs the periodic jobs. Run it when a worker starts (the Procfile's "
        "worker line does)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        taken = jobs_resume()
        jobs_tick_start()
        if any(taken.values()):
            counts = ", ".join(f"{label} {count}" for label, count in taken.items())
            self.stdout.write(f"Taken up: {counts}.")

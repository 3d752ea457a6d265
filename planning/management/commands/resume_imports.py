from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from planning.tasks import plan_imports_resume


class Command(BaseCommand):
    help = (
        "Runs again every web import whose job stopped reporting progress for "
        "IMPORT_STALE_SECONDS (its worker was killed). Run it when a worker starts; an "
        "import's own page does the same while someone watches it."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        count = plan_imports_resume()
        if count:
            self.stdout.write(f"{count} import(s) enqueued again.")

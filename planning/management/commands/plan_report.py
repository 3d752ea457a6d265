from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from planning.figures.prices import NOMINAL, TODAY
from planning.models import Plan
from planning.reports.pdf import report_pdf
from planning.suggestions.sync.run import suggestion_sync


class Command(BaseCommand):
    help = (
        "Writes the board report of plan NUMBER to OUT.pdf "
        '(docs/subsystems/board-report.md "Board report") and '
        "prints its size, page count and the time taken."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("number", type=int, help="The plan's number.")
        parser.add_argument("out", help="The PDF file to write.")
        parser.add_argument(
            "--prices",
            choices=(TODAY, NOMINAL),
            default=TODAY,
            help="today's prices (default) or nominal (indexed, with the plan's markups).",
        )

    def handle(self, *args: Any, number: int, out: str, prices: str, **options: Any) -> None:
        plan = Plan.objects.select_related("organisation").filter(number=number).first()
        if plan is None:
            raise CommandError(f"There is no plan #{number}.")
        started = time.perf_counter()
        suggestion_sync(plan=plan)  # the critical suggestions as the planning page shows them
        pdf = report_pdf(plan=plan, prices=prices)
        try:
            Path(out).write_bytes(pdf)
        except OSError as error:
            raise CommandError(f"Cannot write {out}: {error.strerror or error}") from None
        seconds = time.perf_counter() - started
        self.stdout.write(f"Wrote {out}: {len(pdf):,} bytes in {seconds:.1f} s.")

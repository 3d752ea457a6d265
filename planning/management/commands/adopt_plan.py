from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management import plain_text
from planning.models import Plan
from planning.records.adoption import plan_adopt


def _date(value: str) -> datetime.date:
    try:
        return datetime.date.fromisoformat(value)
    except ValueError:
        raise CommandError(f"--date {value!r} is no date; write it YYYY-MM-DD.") from None


class Command(BaseCommand):
    help = (
        'Adopts plan NUMBER as it stands (docs/subsystems/versions.md "Versions") and prints the '
        "new "
        "version's id alone."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("number", type=int, help="The plan's number.")
        parser.add_argument("--name", type=plain_text, required=True, help="The version's name.")
        parser.add_argument(
            "--date", type=_date, default=None, help="The decision date (default: today)."
        )
        parser.add_argument("--note", type=plain_text, default="", help="A note.")

    def handle(
        self,
        *args: Any,
        number: int,
        name: str,
        date: datetime.date | None,
        note: str,
        **options: Any,
    ) -> None:
        plan = Plan.objects.filter(number=number).first()
        if plan is None:
            raise CommandError(f"There is no plan #{number}.")
        try:
            version = plan_adopt(plan=plan, name=name, decided_on=date, note=note)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(str(version.pk))

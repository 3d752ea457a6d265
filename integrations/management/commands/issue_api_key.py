from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.management import command_user, plain_text, positive_int
from integrations.selectors import api_access_granted
from integrations.services import api_key_create
from planning.selectors import plans_visible


class Command(BaseCommand):
    help = (
        "Creates an API key for an account and prints the raw key alone on stdout (it is not "
        "stored anywhere and cannot be shown again)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email", type=plain_text, help="Email address of the key's owner.")
        parser.add_argument("--name", type=plain_text, required=True, help="Name of the key.")
        parser.add_argument(
            "--expires-days",
            type=positive_int,
            default=None,
            metavar="N",
            help="Expire the key N days (>= 1) from now; default: no expiry.",
        )
        parser.add_argument(
            "--plan",
            type=positive_int,
            nargs="+",
            action="extend",
            default=None,
            metavar="NUMBER",
            dest="plan_numbers",
            help="Limit the key to these plans (numbers of plans the owner is a member of); "
            "default: every plan the owner can see.",
        )

    def handle(
        self,
        *args: Any,
        email: str,
        name: str,
        expires_days: int | None,
        plan_numbers: list[int] | None,
        **options: Any,
    ) -> None:
        user = command_user(email)
        plans = None
        if plan_numbers is not None:
            plans = list(plans_visible(user=user).filter(number__in=plan_numbers))
            missing = sorted(set(plan_numbers) - {plan.number for plan in plans})
            if missing:
                shown = ", ".join(f"#{number}" for number in missing)
                raise CommandError(f"{user.email} is not a member of plan(s) {shown}.")
        if not name.strip():
            raise CommandError("--name must not be empty.")
        expires_at = timezone.now() + timedelta(days=expires_days) if expires_days else None
        try:
            _api_key, raw_key = api_key_create(
                user=user, name=name, expires_at=expires_at, plans=plans
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        if not api_access_granted(user=user):
            self.stderr.write(
                f"Note: API access is not enabled for {user.email}; the key is refused until "
                f"it is (manage.py grant_api_access {user.email})."
            )
        self.stdout.write(raw_key)

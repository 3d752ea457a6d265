"""`manage.py add_webhook EMAIL URL [--plan NUMBER ...]`: an endpoint for a user; prints the
signing secret alone on stdout (so `SECRET=$(manage.py add_webhook ...)` works)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.models import User
from webhooks.selectors import plans_visible
from webhooks.services import endpoint_create


class Command(BaseCommand):
    help = "Adds a webhook endpoint for a user and prints its signing secret (shown only once)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email", help="the endpoint's owner")
        parser.add_argument("url", help="where events are POSTed (https)")
        parser.add_argument(
            "--plan",
            dest="plans",
            type=int,
            action="append",
            metavar="NUMBER",
            help="limit the endpoint to this plan (repeat for several); default: every plan",
        )
        parser.add_argument("--description", default="")

    def handle(self, *args: Any, **options: Any) -> None:
        user = User.objects.filter(email__iexact=options["email"]).first()
        if user is None:
            raise CommandError(f"No user with the email {options['email']}.")
        plans = None
        if options["plans"]:
            numbers = set(options["plans"])
            plans = list(plans_visible(user=user).filter(number__in=numbers))
            missing = numbers - {plan.number for plan in plans}
            if missing:
                raise CommandError(
                    f"{user.email} is not a member of plan(s) "
                    f"{', '.join(str(n) for n in sorted(missing))}."
                )
        try:
            _endpoint, secret = endpoint_create(
                user=user, url=options["url"], description=options["description"], plans=plans
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(secret)

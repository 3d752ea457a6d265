"""`manage.py add_webhook EMAIL URL [--plan NUMBER ...]` (a person's endpoint) or
`manage.py add_webhook --org SLUG URL [--plan NUMBER ...]` (an organisation's); prints the
signing secret alone on stdout (so `SECRET=$(manage.py add_webhook ...)` works)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management import command_user
from organisations.management import command_organisation
from planning.models import Plan
from webhooks.selectors import plans_visible
from webhooks.services import endpoint_create


class Command(BaseCommand):
    help = (
        "Adds a webhook endpoint for a user (or, with --org, for an organisation's plans) and "
        "prints its signing secret (shown only once)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("target", nargs="+", help="EMAIL URL, or URL with --org")
        parser.add_argument("--org", default=None, metavar="SLUG", help="the organisation")
        parser.add_argument(
            "--plan",
            dest="plans",
            type=int,
            action="append",
            metavar="NUMBER",
            help="limit the endpoint to this plan (repeat for several); default: every plan",
        )
        parser.add_argument("--description", default="")

    def handle(self, *args: Any, target: list[str], org: str | None, **options: Any) -> None:
        if org is not None:
            if len(target) != 1:
                raise CommandError("With --org, give the URL alone.")
            organisation, user, url = command_organisation(org), None, target[0]
            allowed = Plan.objects.filter(organisation=organisation)
            whose = f"the organisation {organisation.slug}"
        else:
            if len(target) != 2:
                raise CommandError("Give the owner's EMAIL and the URL (or --org SLUG URL).")
            organisation, user, url = None, command_user(target[0]), target[1]
            allowed = plans_visible(user=user)
            whose = user.email
        plans = None
        if options["plans"]:
            numbers = set(options["plans"])
            plans = list(allowed.filter(number__in=numbers))
            missing = numbers - {plan.number for plan in plans}
            if missing:
                raise CommandError(
                    f"{whose} cannot see plan(s) {', '.join(str(n) for n in sorted(missing))}."
                )
        try:
            _endpoint, secret = endpoint_create(
                user=user,
                organisation=organisation,
                url=url,
                description=options["description"],
                plans=plans,
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(secret)

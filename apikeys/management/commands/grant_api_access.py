from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management import command_user, plain_text
from apikeys.services import api_access_set, organisation_api_access_set
from organisations.management import command_organisation


class Command(BaseCommand):
    help = (
        "Enables API access for an account (staff's per-account override) or, with --org, for "
        "an organisation's plans; --revoke withdraws it."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "email", type=plain_text, nargs="?", default=None, help="Email address of the account."
        )
        parser.add_argument(
            "--org", type=plain_text, default=None, metavar="SLUG", help="The organisation."
        )
        parser.add_argument(
            "--revoke", action="store_true", help="Withdraw API access instead of granting it."
        )

    def handle(
        self, *args: Any, email: str | None, org: str | None, revoke: bool, **options: Any
    ) -> None:
        if (email is None) == (org is None):
            raise CommandError("Give either an account's email or --org SLUG.")
        verb = "withdrawn from" if revoke else "enabled for"
        if org is not None:
            organisation = command_organisation(org)
            organisation_api_access_set(organisation=organisation, enabled=not revoke, by=None)
            self.stdout.write(f"API access {verb} {organisation.slug}.")
            return
        assert email is not None
        user = command_user(email)
        api_access_set(user=user, enabled=not revoke)
        self.stdout.write(f"API access {verb} {user.email}.")

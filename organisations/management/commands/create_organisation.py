from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management import command_user, plain_text
from organisations.services import organisation_create


class Command(BaseCommand):
    help = "Creates an organisation with its first owner and prints its slug alone on stdout."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("name", type=plain_text, help="The organisation's name.")
        parser.add_argument(
            "--owner", type=plain_text, required=True, help="Email of its first owner."
        )

    def handle(self, *args: Any, name: str, owner: str, **options: Any) -> None:
        user = command_user(owner)
        try:
            organisation = organisation_create(name=name, owner=user)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(organisation.slug)

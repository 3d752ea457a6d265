from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management import command_user, plain_text
from organisations.management import ROLE_CHOICES, command_organisation
from organisations.services import member_add


class Command(BaseCommand):
    help = (
        "Makes an existing account a member of an organisation with a role (a member already: "
        "sets the role)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", type=plain_text, help="The organisation's slug.")
        parser.add_argument("email", type=plain_text, help="Email of the account.")
        parser.add_argument("--role", choices=ROLE_CHOICES, required=True)

    def handle(self, *args: Any, slug: str, email: str, role: str, **options: Any) -> None:
        organisation = command_organisation(slug)
        user = command_user(email)
        try:
            membership = member_add(organisation=organisation, user=user, role=role)
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(f"{user.email} is {membership.role} of {organisation.slug}.")

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.core.mail import get_connection
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management import plain_text
from organisations.invitations import invitation_create, invitation_link
from organisations.management import ROLE_CHOICES, command_organisation


class Command(BaseCommand):
    help = (
        "Invites an email address to an organisation with a role, emails the link, and prints "
        "the link alone on stdout (it works once, for 7 days)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", type=plain_text, help="The organisation's slug.")
        parser.add_argument("email", type=plain_text, help="The address to invite.")
        parser.add_argument("--role", choices=ROLE_CHOICES, required=True)

    def handle(self, *args: Any, slug: str, email: str, role: str, **options: Any) -> None:
        organisation = command_organisation(slug)
        try:
            _invitation, token = invitation_create(
                organisation=organisation,
                email=email,
                role=role,
                invited_by=None,
                # A console backend (development) prints the email: to stderr, not stdout.
                connection=get_connection(stream=self.stderr._out),
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(invitation_link(token))

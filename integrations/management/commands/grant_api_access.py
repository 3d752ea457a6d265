from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from accounts.management import command_user, plain_text
from integrations.services import api_access_set


class Command(BaseCommand):
    help = "Enables API access for an account (or withdraws it with --revoke)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("email", type=plain_text, help="Email address of the account.")
        parser.add_argument(
            "--revoke", action="store_true", help="Withdraw API access instead of granting it."
        )

    def handle(self, *args: Any, email: str, revoke: bool, **options: Any) -> None:
        user = command_user(email)
        api_access_set(user=user, enabled=not revoke)
        verb = "withdrawn from" if revoke else "enabled for"
        self.stdout.write(f"API access {verb} {user.email}.")

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import timezone

from accounts.management import command_user, plain_text, positive_int
from apikeys.holders import KeyHolder
from apikeys.models import ApiKey
from apikeys.selectors import api_access_granted, api_key_access_granted
from apikeys.services import api_key_create
from organisations.management import command_organisation


class Command(BaseCommand):
    help = (
        "Creates an API key for an account (or, with --org, a service account of an "
        "organisation) and prints the raw key alone on stdout (it is not "
        "stored anywhere and cannot be shown again)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "email",
            type=plain_text,
            nargs="?",
            default=None,
            help="Email address of the key's owner (not with --org).",
        )
        parser.add_argument(
            "--org",
            type=plain_text,
            default=None,
            metavar="SLUG",
            help="Make a service account of this organisation instead of a person's key.",
        )
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
        parser.add_argument(
            "--permission",
            choices=ApiKey.Permission.values,
            default=ApiKey.Permission.READ,
            help="read (default): every read route; read_write: also dismiss and restore "
            "suggestions.",
        )

    def handle(
        self,
        *args: Any,
        email: str | None,
        org: str | None,
        name: str,
        expires_days: int | None,
        plan_numbers: list[int] | None,
        permission: str,
        **options: Any,
    ) -> None:
        if (email is None) == (org is None):
            raise CommandError("Give either an account's email or --org SLUG.")
        user = command_user(email) if email is not None else None
        organisation = command_organisation(org) if org is not None else None
        holder = KeyHolder(user=user, organisation=organisation)
        plans = None
        if plan_numbers is not None:
            plans = list(holder.plans().filter(number__in=plan_numbers))
            missing = sorted(set(plan_numbers) - {plan.number for plan in plans})
            if missing:
                shown = ", ".join(f"#{number}" for number in missing)
                if user is not None:
                    raise CommandError(f"{user.email} is not a member of plan(s) {shown}.")
                raise CommandError(f"Plan(s) {shown} are not plans of the organisation {org}.")
        if not name.strip():
            raise CommandError("--name must not be empty.")
        expires_at = timezone.now() + timedelta(days=expires_days) if expires_days else None
        try:
            _api_key, raw_key = api_key_create(
                user=user,
                organisation=organisation,
                name=name,
                expires_at=expires_at,
                plans=plans,
                permission=permission,
            )
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        if organisation is not None and not api_key_access_granted(api_key=_api_key):
            self.stderr.write(
                f"Note: API access is not enabled for {organisation.slug}; the key is refused "
                f"until it is (manage.py grant_api_access --org {organisation.slug})."
            )
        if user is not None and not api_access_granted(user=user):
            self.stderr.write(
                f"Note: API access is not enabled for {user.email}; the key is refused until "
                f"it is (manage.py grant_api_access {user.email})."
            )
        self.stdout.write(raw_key)

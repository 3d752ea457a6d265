from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management import plain_text
from organisations.selectors import organisation_by_slug
from planning.catalog.services import catalog_import
from planning.transfer.imports.problems import ImportRejected


class Command(BaseCommand):
    help = (
        "Imports a catalog CSV into an organisation's catalog "
        '(docs/subsystems/code-catalog.md "Code catalog"), '
        "all or nothing: columns code (required), name, unit, unit_cost, service_life_years, "
        "interval_years, keywords. A starter code's row sets the organisation's figures for it; "
        "any other code becomes (or updates) one of its own. Importing again updates. A bad "
        "file is refused with every problem on stderr, and nothing is written. --currency says "
        "what the file's unit costs are in, and makes it the catalog's currency."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", type=plain_text, help="The organisation's slug.")
        parser.add_argument("file", help="The catalog .csv file.")
        parser.add_argument(
            "--currency",
            type=plain_text,
            help="The file's currency (e.g. SEK); without it, the catalog's stays.",
        )

    def handle(
        self, *args: Any, slug: str, file: str, currency: str | None = None, **options: Any
    ) -> None:
        organisation = organisation_by_slug(slug=slug)
        if organisation is None:
            raise CommandError(f"No organisation with the slug {slug!r}.")
        try:
            content = Path(file).read_bytes()
        except OSError as error:
            raise CommandError(f"Cannot read {file}: {error.strerror or error}") from None
        try:
            result = catalog_import(
                organisation=organisation,
                user=None,
                content=content,
                source=Path(file).name,
                currency=currency,
            )
        except ImportRejected as rejected:
            raise CommandError(str(rejected)) from None
        except ValidationError as error:
            raise CommandError(" ".join(error.messages)) from None
        self.stdout.write(f"Catalog of {organisation.slug} imported: {result.describe()}.")

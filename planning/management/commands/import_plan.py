from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts.management import command_user, plain_text
from organisations.management import command_plan_organisation
from planning.transfer.imports.csv_pair import plan_import_csv
from planning.transfer.imports.plan_file import plan_file_import
from planning.transfer.imports.problems import ImportRejected
from planning.transfer.imports.terminal import TerminalProgress
from planning.transfer.imports.write import imported_plan_settle, synced_line


def _file_read(path: str) -> bytes:
    try:
        return Path(path).read_bytes()
    except OSError as error:
        raise CommandError(f"Cannot read {path}: {error.strerror or error}") from None


class Command(BaseCommand):
    help = (
        "Imports a plan from a JSON file or an Excel workbook "
        '(docs/subsystems/imports.md "Imports") or '
        "from nodes.csv plus --actions-csv (and --plan-csv), all or nothing, and prints the "
        "new plan's number alone on the last line. A bad file is refused with every problem on "
        "stderr, and nothing is written."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", help="The plan's .json or .xlsx file, or its nodes .csv file.")
        parser.add_argument(
            "--actions-csv", metavar="FILE", help="The actions .csv file of a CSV import."
        )
        parser.add_argument(
            "--plan-csv",
            metavar="FILE",
            help="The optional plan .csv file of a CSV import (the plan's name and fields).",
        )
        parser.add_argument(
            "--currency",
            type=plain_text,
            default=None,
            metavar="CODE",
            help="The plan's currency when the file names none (default: that of the "
            "organisation's latest plan, else PLAN_DEFAULT_CURRENCY).",
        )
        parser.add_argument(
            "--owner", type=plain_text, required=True, metavar="EMAIL", help="The plan's owner."
        )
        parser.add_argument(
            "--name",
            type=plain_text,
            help="The plan's name (default: the one in the file, else the file's name).",
        )
        parser.add_argument(
            "--org",
            type=plain_text,
            default=None,
            metavar="SLUG",
            help="The organisation the plan goes into (default: the owner's personal one); "
            "the owner must be one of its owners, admins or planners.",
        )

    def handle(
        self,
        *args: Any,
        file: str,
        actions_csv: str | None,
        plan_csv: str | None,
        currency: str | None,
        owner: str,
        org: str | None,
        name: str | None,
        **options: Any,
    ) -> None:
        user = command_user(owner)
        organisation = command_plan_organisation(slug=org, user=user)
        is_csv = actions_csv is not None or file.lower().endswith(".csv")
        progress = TerminalProgress(self.stderr._out)
        try:
            if is_csv:
                if actions_csv is None:
                    raise CommandError("A CSV import needs the actions file: --actions-csv FILE.")
                plan = plan_import_csv(
                    owner=user,
                    organisation=organisation,
                    nodes_csv=_file_read(file),
                    actions_csv=_file_read(actions_csv),
                    plan_csv=_file_read(plan_csv) if plan_csv is not None else None,
                    name=name,
                    filename=Path(file).name,
                    observer=progress,
                    currency=currency,
                )
            else:
                if plan_csv is not None:
                    raise CommandError("--plan-csv goes with a CSV import (--actions-csv).")
                plan = plan_file_import(
                    owner=user,
                    organisation=organisation,
                    content=_file_read(file),
                    filename=Path(file).name,
                    name=name,
                    observer=progress,
                    currency=currency,
                )
        except ImportRejected as rejected:
            for line in rejected.listed():
                self.stderr.write(line)
            count = len(rejected.problems) + rejected.more
            raise CommandError(
                f"{count} problem{'s' if count != 1 else ''} in {file}; nothing was imported."
            ) from None
        nodes, actions = plan.nodes.count(), plan.actions.count()
        synced = imported_plan_settle(plan=plan, rows=nodes + actions)
        self.stdout.write(
            f"Imported plan #{plan.number} {plan.name!r}: {nodes} nodes, {actions} actions, "
            f"owner {user.email}, {synced_line(synced)}."
        )
        self.stdout.write(str(plan.number))

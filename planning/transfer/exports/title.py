"""The title block above every exported workbook's table (docs/subsystems/exports.md "Title
block"): what the file is, of which plan and organisation, on which day, in which prices and
currency, so a workbook forwarded by email still says so. The CSV downloads have none: they
stay a plain table for programs."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from organisations.models import Organisation
from planning.models import Plan


def title_block(
    *,
    plan: Plan,
    title: str,
    prices: str,
    made_on: datetime.date,
    more: Sequence[tuple[str, Any]] = (),
) -> list[tuple[Any, ...]]:
    """The title row, then a label and a value per row: plan, organisation, date, prices,
    currency, and `more` (the years, the filters)."""
    return [
        (title,),
        ("Plan", f"#{plan.number} {plan.name}"),
        ("Organisation", plan.organisation.name),
        ("Date", made_on),
        ("Prices", prices),
        ("Currency", plan.currency),
        *more,
    ]


def organisation_title_block(
    *,
    organisation: Organisation,
    title: str,
    prices: str,
    made_on: datetime.date,
    currencies: Sequence[str],
    more: Sequence[tuple[str, Any]] = (),
) -> list[tuple[Any, ...]]:
    """The title block of a workbook over many plans of an organisation (the portfolio): as a
    plan's, with the organisation in place of the plan and every currency its plans are in."""
    return [
        (title,),
        ("Organisation", organisation.name),
        ("Date", made_on),
        ("Prices", prices),
        ("Currency", ", ".join(currencies) or "none"),
        *more,
    ]

"""Amounts as people read them: thousands separators and two decimals in the active locale's
notation (Django's l10n), followed by the plan's currency code ("643,506,417.78 EUR")."""

from __future__ import annotations

from decimal import Decimal

from django.utils.formats import number_format

NBSP = "\u00a0"


def money_format(amount: Decimal | int | float | None, currency: str = "") -> str:
    if amount is None:
        return ""
    figure = number_format(Decimal(amount), decimal_pos=2, use_l10n=True, force_grouping=True)
    return f"{figure}{NBSP}{currency}" if currency else figure

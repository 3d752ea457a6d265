"""`{% load planning_format %}`: `{{ amount|money:plan.currency }}` and the budget grid's
`{{ amount|in_unit:unit }}` (planning.core.money), `{{ number|count }}` (12,345), and the funding
figures' `{{ cents|cents:plan.currency }}` and `{{ percent|percent_funded }}`."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template

from planning.core.money import GridUnit, amount_of, money_format

register = template.Library()


@register.filter
def money(amount: Decimal | int | None, currency: Any = "") -> str:
    return money_format(amount, str(currency or ""))


@register.filter
def get_item(mapping: Any, key: Any) -> Any:
    """`mapping[key]`, or "" when it has none (a name looked up by id in a template)."""
    return mapping.get(key, "") if mapping else ""


@register.filter
def in_unit(amount: Decimal | int | None, unit: GridUnit) -> str:
    return unit.format(amount)


@register.filter
def count(number: int | None) -> str:
    """A count with thousands separators, as money shows them: 12,345."""
    return "" if number is None else f"{number:,}"


@register.filter
def cents(value: int | None, currency: Any = "") -> str:
    """Whole cents (planning.figures.funding's figures) as money_format shows an amount."""
    return "" if value is None else money_format(amount_of(value), str(currency or ""))


@register.filter
def percent_funded(value: Decimal | None) -> str:
    """A percent funded ("62.50 %"), or a dash where no component counts (no fully funded
    balance to compare with)."""
    return "\u2013" if value is None else f"{money_format(value)}\u00a0%"

"""Money: amounts as people read them, and the prices of docs/design.md "Money".

`money_format`: thousands separators and two decimals in the active locale's notation (Django's
l10n), followed by the plan's currency code ("643,506,417.78 EUR").

`PriceIndex`: an occurrence of an action with estimated cost C (today's prices) in year y costs,
nominal, roundhalf_up(C x (1 + i/100)^(y - b) x (1 + o/100) x (1 + v/100), 2 decimals), with b
the plan's price base year, i its index rate, o its overhead and v its VAT percentage. The
factor is an exact fraction and the rounding is done on integers, so the figure is exact for
every year, before the base year too (a negative exponent); every sum is a sum of such rounded
occurrences (`nominal_cents` is the fast form the budget adds up).

`GridUnit`: the compact figures of the planning page's budget grid, whole units or thousands, so
ten years fit the width of a laptop (docs/design.md "Web app").

Pure functions over plain values: no database.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.formats import number_format

NBSP = "\u00a0"


def money_format(amount: Decimal | int | float | None, currency: str = "") -> str:
    if amount is None:
        return ""
    figure = number_format(Decimal(amount), decimal_pos=2, use_l10n=True, force_grouping=True)
    return f"{figure}{NBSP}{currency}" if currency else figure


GRID_THOUSANDS_FROM = Decimal(10_000_000)


@dataclass(frozen=True)
class GridUnit:
    """The budget grid's figures: whole currency units while its largest figure (the grand
    total) is under 10 million, else thousands; so no figure is wider than "9,999,999" below
    10 billion. Rounded half up; an amount that rounds to nothing but is not nothing is "<1"."""

    thousands: bool
    currency: str

    @classmethod
    def of(cls, *, largest: Decimal, currency: str) -> GridUnit:
        return cls(thousands=abs(largest) >= GRID_THOUSANDS_FROM, currency=currency)

    @property
    def label(self) -> str:
        return f"thousands of {self.currency}" if self.thousands else self.currency

    def format(self, amount: Decimal | int | None) -> str:
        if amount is None:
            return ""
        value = Decimal(amount) / 1000 if self.thousands else Decimal(amount)
        whole = value.quantize(Decimal(1), rounding=ROUND_HALF_UP)
        if whole == 0 and value != 0:
            return "<1" if value > 0 else ">-1"
        return number_format(whole, decimal_pos=0, use_l10n=True, force_grouping=True)


def cents_of(amount: Decimal) -> int:
    """An amount to the cent (as the columns store it) as whole cents."""
    return int(amount.scaleb(2).to_integral_value())


def amount_of(cents: int) -> Decimal:
    """Whole cents as an amount with two decimals (12345 -> Decimal("123.45"))."""
    return Decimal(cents).scaleb(-2)


def half_up(value: Fraction) -> int:
    """`value` rounded to a whole number, halves away from zero (ROUND_HALF_UP)."""
    magnitude = (2 * abs(value.numerator) + value.denominator) // (2 * value.denominator)
    return magnitude if value >= 0 else -magnitude


def amount_round(value: Fraction | Decimal | int) -> Decimal:
    """An exact value rounded half up to the cent (a ratio such as cost per m2)."""
    return amount_of(half_up(Fraction(value) * 100))

"""Money as people read it, and amounts as the code counts them.

`money_format` is the one function that formats an amount for a person: every page, message,
template filter (planning.templatetags.planning_format), the board report, the history, the
chart and the budget grid (`GridUnit`) call it. Amounts programs read (the API, the CSV and
JSON exports, a rule's recommended action) are plain decimal strings and never pass through it.

`GridUnit`: the compact figures of the planning page's budget grid, whole units or thousands, so
ten years fit the width of a laptop (docs/subsystems/web-app.md).

`cents_of`, `amount_of`, `half_up`, `amount_round`: amounts to the cent as whole cents and back,
and exact values rounded half up (the prices themselves are planning.figures.prices).

Pure functions over plain values: no database.
"""

from __future__ import annotations

from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

from django.utils.formats import number_format

NBSP = "\u00a0"


def money_format(
    amount: Decimal | int | float | None,
    currency: str = "",
    *,
    decimals: int | None = 2,
    grouping: bool = True,
) -> str:
    """An amount as a person reads it: the active locale's notation (Django's l10n), `decimals`
    places, thousands grouped, then the currency code after a no-break space when one is given
    ("643,506,417.78 EUR"); "" for None.

    Two places show money differently on purpose, and say so by their arguments:
    - the planning page's budget grid (`GridUnit.format`): `decimals=0`, whole units or
      thousands, so ten years of figures fit the width of a laptop;
    - the cost chart's axis (planning.figures.chart.axis_label): round ticks already scaled to
      k, M or bn, `decimals=None` (the digits the tick has: "1.5", "750") and `grouping=False`,
      so a tick stays as short as the room beside the axis.
    """
    if amount is None:
        return ""
    figure = number_format(
        Decimal(amount), decimal_pos=decimals, use_l10n=True, force_grouping=grouping
    )
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
        return money_format(whole, decimals=0)


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

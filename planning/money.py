"""Money: amounts as people read them, and the prices of docs/design.md "Money".

`money_format`: thousands separators and two decimals in the active locale's notation (Django's
l10n), followed by the plan's currency code ("643,506,417.78 EUR").

`PriceIndex`: an occurrence of an action with estimated cost C (today's prices) in year y costs,
nominal, round_half_up(C x (1 + i/100)^(y - b) x (1 + o/100) x (1 + v/100), 2 decimals), with b
the plan's price base year, i its index rate, o its overhead and v its VAT percentage. The
factor is an exact fraction and the rounding is done on integers, so the figure is exact for
every year, before the base year too (a negative exponent); every sum is a sum of such rounded
occurrences (`nominal_cents` is the fast form the budget adds up).

`GridUnit`: the compact figures of the planning page's budget grid, whole units or thousands, so
ten years fit the width of a laptop (docs/design.md "Web app").

`occurrence_years`: the years a (possibly recurring) action occurs in within a range.

Pure functions over plain values: no database.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any

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


def _half_up(value: Fraction) -> int:
    """`value` rounded to a whole number, halves away from zero (ROUND_HALF_UP)."""
    magnitude = (2 * abs(value.numerator) + value.denominator) // (2 * value.denominator)
    return magnitude if value >= 0 else -magnitude


def amount_round(value: Fraction | Decimal | int) -> Decimal:
    """An exact value rounded half up to the cent (a ratio such as cost per m2)."""
    return amount_of(_half_up(Fraction(value) * 100))


@dataclass(frozen=True)
class PriceIndex:
    """A plan's money settings: the price base year b, the index rate i, overhead o, VAT v."""

    base_year: int
    index_rate_percent: Decimal = Decimal(0)
    overhead_percent: Decimal = Decimal(0)
    vat_percent: Decimal = Decimal(0)
    _factors: dict[int, tuple[int, int, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    @classmethod
    def of(cls, plan: Any) -> PriceIndex:
        """The settings of a plan (anything with the Plan model's money fields)."""
        return cls(
            base_year=plan.price_base_year,
            index_rate_percent=Decimal(plan.index_rate_percent),
            overhead_percent=Decimal(plan.overhead_percent),
            vat_percent=Decimal(plan.vat_percent),
        )

    @property
    def is_neutral(self) -> bool:
        """True when every nominal figure equals today's (no index, no markups)."""
        return not (self.index_rate_percent or self.overhead_percent or self.vat_percent)

    def factor(self, year: int) -> Fraction:
        """(1 + i/100)^(year - b) x (1 + o/100) x (1 + v/100), exactly."""
        growth = 1 + Fraction(self.index_rate_percent) / 100
        markups = (1 + Fraction(self.overhead_percent) / 100) * (
            1 + Fraction(self.vat_percent) / 100
        )
        return growth ** (year - self.base_year) * markups

    def nominal(self, cost: Decimal, year: int) -> Decimal:
        """One occurrence of `cost` (today's prices) in `year`, nominal, to the cent."""
        return amount_of(_half_up(Fraction(cost) * self.factor(year) * 100))

    def cents_factor(self, year: int) -> tuple[int, int, int]:
        """(2p, q, 2q) of the year's factor p/q: the nominal cents of c cents (not negative, as
        estimated costs are) are floor(c x p/q + 1/2) == (c x 2p + q) // 2q, one integer
        multiplication and one floor division (the budget inlines this for its pass)."""
        found = self._factors.get(year)
        if found is None:
            factor = self.factor(year)
            found = (2 * factor.numerator, factor.denominator, 2 * factor.denominator)
            self._factors[year] = found
        return found

    def nominal_cents(self, cents: int, year: int) -> int:
        """`nominal` on whole cents."""
        twice_p, q, twice_q = self.cents_factor(year)
        return (cents * twice_p + q) // twice_q

    def describe(self) -> str:
        """The settings in words, for a heading or an export's header."""
        if self.is_neutral:
            return f"{self.base_year} prices, no index, overhead or VAT"
        parts = [f"{self.base_year} prices indexed {_percent(self.index_rate_percent)} a year"]
        if self.overhead_percent:
            parts.append(f"overhead {_percent(self.overhead_percent)}")
        if self.vat_percent:
            parts.append(f"VAT {_percent(self.vat_percent)}")
        return ", ".join(parts)


def _percent(value: Decimal) -> str:
    return f"{value.normalize():f}{NBSP}%"


def occurrence_years(
    *, planned_year: int, interval_years: int | None, first: int, last: int
) -> range:
    """The years from `first` to `last` (inclusive) in which an action planned for
    `planned_year` occurs: that year alone, or every `interval_years` from it on."""
    if interval_years is None:
        return range(planned_year, planned_year + 1) if first <= planned_year <= last else range(0)
    start = planned_year
    if start < first:
        start += -(-(first - start) // interval_years) * interval_years
    return range(start, last + 1, interval_years)

"""The prices of docs/subsystems/money.md: an occurrence of an action with estimated cost C (today's
prices) in year y costs, nominal,
roundhalf_up(C x (1 + i/100)^(y - b) x (1 + m1/100) x (1 + m2/100) x ..., 2 decimals), with b
the plan's price base year, i its index rate and m1, m2, ... its markups in their order (each
applied on the amount before it). The factor is an exact fraction and the rounding is done on
integers, so the figure is exact for every year, before the base year too (a negative
exponent); every sum is a sum of such rounded occurrences (`nominal_cents` is the fast form the
budget adds up).

`figure_wording` says a figure's years and prices in the words every page, export and report
uses ("2026-2035, today's prices", with an en dash): it is written here, beside the arithmetic
it describes.

Pure functions over plain values: no database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from typing import Any

from planning.core.money import NBSP, amount_of, half_up
from planning.models.plans import MARKUP_RANGE, markup_percent_valid

TODAY = "today"
NOMINAL = "nominal"
EN_DASH = "\u2013"


@dataclass(frozen=True)
class Markup:
    """A named percentage added on top of the cost (overhead, contingency, design fee, VAT)."""

    name: str
    percent: Decimal


def plan_markups(plan: Any) -> tuple[Markup, ...]:
    """A plan's markups in the order they apply (anything with the Plan model's money fields)."""
    stored = getattr(plan, "markups", None)
    if stored is not None:
        return tuple(
            Markup(name=str(item["name"]), percent=Decimal(str(item["percent"]))) for item in stored
        )
    return tuple(
        Markup(name=name, percent=Decimal(percent))
        for name, percent in (("overhead", plan.overhead_percent), ("VAT", plan.vat_percent))
        if percent
    )


def markups_stored(markups: Iterable[Markup]) -> list[dict[str, str]]:
    """Markups as `Plan.markups` keeps them (and the plan file and the API write them)."""
    return [{"name": m.name, "percent": f"{Decimal(m.percent):.2f}"} for m in markups]


def markups_columns(markups: Sequence[Markup]) -> dict[str, Any]:
    """What a plan stores for these markups: the list, and for older clients its first markup as
    `overhead_percent` and its last (of two or more) as `vat_percent`."""
    return {
        "markups": markups_stored(markups),
        "overhead_percent": Decimal(markups[0].percent) if markups else Decimal(0),
        "vat_percent": Decimal(markups[-1].percent) if len(markups) > 1 else Decimal(0),
    }


def markups_text(markups: Iterable[Markup]) -> str:
    """Markups in one line of text, as a spreadsheet cell holds them: "Overhead 10; VAT 25"."""
    return "; ".join(f"{m.name} {Decimal(m.percent).normalize():f}" for m in markups)


_MARKUP_TEXT = re.compile(r"^\s*(?P<name>.+?)[\s:]+(?P<percent>\d+(?:[.,]\d+)?)\s*%?\s*$")


def _percent_checked(percent: Decimal, position: int) -> Decimal:
    """A markup's percentage from a file, refused (planning.models.plans.markup_percent_valid)
    before anything formats it ("1e999999999" would be a gigabyte of digits)."""
    if not markup_percent_valid(percent):
        low, high = MARKUP_RANGE
        raise ValueError(
            f"markup {position}: the percent must be from {low} to {high}, with at most two "
            "decimals"
        )
    return percent


def markups_parse(value: object) -> list[Markup]:
    """Markups as a file gives them: a list of {"name", "percent"} objects (JSON), or one line
    of text ("Overhead 10; Contingency 5 %; VAT 25", a decimal comma allowed: a sheet's cell).
    Raises ValueError with a message a person can act on."""
    if isinstance(value, str):
        markups = []
        for position, part in enumerate(filter(None, (p.strip() for p in value.split(";"))), 1):
            found = _MARKUP_TEXT.match(part)
            if found is None:
                raise ValueError(
                    f"markup {position} (“{part}”) is not a name and a percentage, "
                    "e.g. “Overhead 10; VAT 25”"
                )
            percent = _percent_checked(Decimal(found["percent"].replace(",", ".")), position)
            markups.append(Markup(name=found["name"].strip(), percent=percent))
        return markups
    if isinstance(value, list):
        markups = []
        for position, item in enumerate(value, 1):
            if not isinstance(item, dict) or set(item) != {"name", "percent"}:
                raise ValueError(f"markup {position} must be an object with a name and a percent")
            try:
                percent = Decimal(str(item["percent"]).strip())
            except ArithmeticError:
                raise ValueError(f"markup {position}: the percent must be a number") from None
            percent = _percent_checked(percent, position)
            markups.append(Markup(name=str(item["name"]).strip(), percent=percent))
        return markups
    raise ValueError(
        "must be a list of {name, percent} objects or a text like “Overhead 10; VAT 25”"
    )


@dataclass(frozen=True)
class PriceIndex:
    """A plan's money settings: the price base year b, the index rate i, the markups."""

    base_year: int
    index_rate_percent: Decimal = Decimal(0)
    markups: tuple[Markup, ...] = ()
    _factors: dict[int, tuple[int, int, int]] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    @classmethod
    def of(cls, plan: Any) -> PriceIndex:
        """The settings of a plan (anything with the Plan model's money fields)."""
        return cls(
            base_year=plan.price_base_year,
            index_rate_percent=Decimal(plan.index_rate_percent),
            markups=tuple(m for m in plan_markups(plan) if m.percent),
        )

    @property
    def is_neutral(self) -> bool:
        """True when every nominal figure equals today's (no index, no markups)."""
        return not (self.index_rate_percent or any(m.percent for m in self.markups))

    def markup_factor(self) -> Fraction:
        """(1 + m1/100) x (1 + m2/100) x ..., exactly."""
        factor = Fraction(1)
        for markup in self.markups:
            factor *= 1 + Fraction(markup.percent) / 100
        return factor

    def factor(self, year: int) -> Fraction:
        """(1 + i/100)^(year - b) x the markups' factor, exactly."""
        growth = 1 + Fraction(self.index_rate_percent) / 100
        return growth ** (year - self.base_year) * self.markup_factor()

    def nominal(self, cost: Decimal, year: int) -> Decimal:
        """One occurrence of `cost` (today's prices) in `year`, nominal, to the cent."""
        return amount_of(half_up(Fraction(cost) * self.factor(year) * 100))

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
        """Nominal prices in words: "2026 prices indexed 3 % a year, overhead 10 %, VAT 25 %"."""
        if self.is_neutral:
            return f"{self.base_year} prices, no index or markups"
        if self.index_rate_percent:
            parts = [f"{self.base_year} prices indexed {percent(self.index_rate_percent)} a year"]
        else:
            parts = [f"{self.base_year} prices, no index"]
        parts.extend(
            f"{_in_sentence(markup.name)} {percent(markup.percent)}" for markup in self.markups
        )
        return ", ".join(parts)

    def prices_wording(self, prices: str) -> str:
        """What the figures in `prices` are: "today's prices" or "nominal: <describe()>"."""
        if prices == NOMINAL:
            return f"nominal: {self.describe()}"
        return "today's prices"


def _in_sentence(name: str) -> str:
    """A markup's name inside a sentence: "overhead", "design fee"; "VAT" stays as it is."""
    return name if name[:2].isupper() else name[:1].lower() + name[1:]


def percent(value: Decimal) -> str:
    return f"{Decimal(value).normalize():f}{NBSP}%"


def year_span(year_from: int, year_to: int) -> str:
    return str(year_from) if year_from == year_to else f"{year_from}{EN_DASH}{year_to}"


def figure_wording(*, year_from: int, year_to: int, prices: str, index: PriceIndex) -> str:
    """A figure's years and prices: "2026-2035, today's prices" (an en dash between)."""
    return f"{year_span(year_from, year_to)}, {index.prices_wording(prices)}"

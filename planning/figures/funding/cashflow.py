"""A fund's cash flow and percent funded, in whole cents (docs/subsystems/funding.md).

For the years t = s, s + 1, ..., s + H - 1 from the fund's start year s:

    C_t = round_half_up(C x (1 + r/100)^(t - s))                    the contribution
    B_t = round_half_up(B_(t-1) x (1 + j/100) + C_t - E_t)          the balance at the end of t
    I_t = B_t - B_(t-1) - C_t + E_t                                  the interest, as shown

with B_(s-1) the opening balance, E_t the plan's nominal cost of year t (given, in cents: from
planning.figures.budget), j the interest and r the contribution's yearly increase in percent.
The whole balance is rounded (halves away from zero), as DESIGN says, not the interest alone:
half up is not the same for -2.5 cents and 2.5 - 5 cents. Percent funded in year t is
B_(t-1) / FFB_t (FFB: planning.figures.funding.ffb), None when FFB_t is 0.

Every step is exact: integers and Fractions, never a float. Pure functions: no database.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction

from planning.core.money import half_up

PERCENT_PLACES = 2  # percent funded is shown to the hundredth of a percent, rounded half up


@dataclass(frozen=True)
class FundTerms:
    """What a cash flow is computed from, besides the costs: amounts in whole cents."""

    opening_cents: int
    start_year: int
    interest_percent: Decimal = Decimal(0)
    contribution_cents: int = 0
    increase_percent: Decimal = Decimal(0)


@dataclass(frozen=True)
class FundYear:
    """One year of a fund's cash flow; amounts in whole cents."""

    year: int
    opening_cents: int  # B_(t-1)
    contribution_cents: int  # C_t
    cost_cents: int  # E_t
    interest_cents: int  # I_t
    balance_cents: int  # B_t
    ffb_cents: int  # FFB_t
    percent_funded: Decimal | None  # B_(t-1) / FFB_t in %, PERCENT_PLACES decimals


def growth_factors(percent: Decimal, years: int) -> list[Fraction]:
    """(1 + percent/100)^k for k = 0 .. years - 1, exactly."""
    growth = 1 + Fraction(percent) / 100
    factors = [Fraction(1)]
    for _ in range(1, years):
        factors.append(factors[-1] * growth)
    return factors[:years]


def _half_up_ratio(numerator: int, denominator: int) -> int:
    """numerator / denominator (denominator > 0) rounded half away from zero: `half_up` on
    integers, without building a Fraction (the solver runs this about 40 x 40 times a goal)."""
    if numerator >= 0:
        return (2 * numerator + denominator) // (2 * denominator)
    return -((-2 * numerator + denominator) // (2 * denominator))


def contributions(first_cents: int, factors: Sequence[Fraction]) -> list[int]:
    """C_t for each year: the first year's contribution raised by each year's factor, to the
    cent (half up)."""
    return [
        _half_up_ratio(first_cents * factor.numerator, factor.denominator) for factor in factors
    ]


def balances(
    *, opening_cents: int, interest: Fraction, paid: Sequence[int], costs: Sequence[int]
) -> list[int]:
    """B_t for each year (the balance at the end of the year), from B_(s-1) = `opening_cents`,
    `interest` = j/100, the contributions `paid` and the costs `costs` of each year."""
    balance = opening_cents
    growth = 1 + interest
    p, q = growth.numerator, growth.denominator
    found = []
    for contribution, cost in zip(paid, costs, strict=True):
        # half_up(B x p/q + C - E), on integers: (B x p + (C - E) x q) / q.
        balance = _half_up_ratio(balance * p + (contribution - cost) * q, q)
        found.append(balance)
    return found


def percent_funded(balance_cents: int, ffb_cents: int) -> Decimal | None:
    """B / FFB in percent, rounded half up to PERCENT_PLACES decimals; None when FFB is 0 (no
    component counts: there is nothing to be funded)."""
    if ffb_cents <= 0:
        return None
    scale = 10**PERCENT_PLACES
    return Decimal(half_up(Fraction(balance_cents * 100 * scale, ffb_cents))).scaleb(
        -PERCENT_PLACES
    )


def cash_flow(*, terms: FundTerms, costs: Sequence[int], ffb: Sequence[int]) -> list[FundYear]:
    """The fund's years from its start year, one per cost given (`costs[k]` is E of the year
    start + k, `ffb[k]` its FFB)."""
    years = len(costs)
    interest = Fraction(terms.interest_percent) / 100
    paid = contributions(terms.contribution_cents, growth_factors(terms.increase_percent, years))
    ends = balances(opening_cents=terms.opening_cents, interest=interest, paid=paid, costs=costs)
    rows = []
    before = terms.opening_cents
    for k in range(years):
        rows.append(
            FundYear(
                year=terms.start_year + k,
                opening_cents=before,
                contribution_cents=paid[k],
                cost_cents=costs[k],
                interest_cents=ends[k] - before - paid[k] + costs[k],
                balance_cents=ends[k],
                ffb_cents=ffb[k],
                percent_funded=percent_funded(before, ffb[k]),
            )
        )
        before = ends[k]
    return rows


@dataclass(frozen=True)
class FlowSummary:
    """The figures a scenario is compared by (DESIGN "Scenarios")."""

    lowest_cents: int
    lowest_year: int
    contributions_cents: int  # the sum of C_t over the horizon
    costs_cents: int  # the sum of E_t
    interest_cents: int  # the sum of I_t
    percent_at: dict[int, Decimal | None]  # the k-th year (5, 10, 20, 30) -> percent funded


COMPARED_YEARS = (5, 10, 20, 30)


def flow_summary(rows: Sequence[FundYear]) -> FlowSummary:
    """The lowest year-end balance and its (first) year, the totals of the contributions, costs
    and interest, and percent
    funded in the 5th, 10th, 20th and 30th year (None beyond the horizon or without FFB)."""
    lowest = min(rows, key=lambda row: row.balance_cents)
    return FlowSummary(
        lowest_cents=lowest.balance_cents,
        lowest_year=lowest.year,
        contributions_cents=sum(row.contribution_cents for row in rows),
        costs_cents=sum(row.cost_cents for row in rows),
        interest_cents=sum(row.interest_cents for row in rows),
        percent_at={
            k: rows[k - 1].percent_funded if k <= len(rows) else None for k in COMPARED_YEARS
        },
    )

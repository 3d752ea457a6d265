"""The smallest contribution that meets a funding goal, to the cent (docs/subsystems/funding.md
"Goals", docs/adr/0016-exact-funding-solver.md).

A goal is a predicate over the cash flow of planning.figures.funding.cashflow for a first-year
contribution of c cents (constant, or raised by r % a year):

- baseline: B_t >= 0 in every year of the horizon;
- threshold amount X: B_t >= X in every year (and >= 0);
- threshold percent p: percent funded B_(t-1) / FFB_t >= p % in every year, compared exactly
  as B_(t-1) x 100 >= p x FFB_t (a year without FFB asks B_(t-1) >= 0), and B_t >= 0;
- full: B_t >= 0 in every year and percent funded >= 100 % in the horizon's last year T. DESIGN's
  "reaches 100 % by the last year and stays there" is the same thing within the horizon: a
  contribution whose percent funded is 100 % from some year t0 <= T on has it in T, and one
  that has it in T has it from t0 = T on.

Exactness of the search, the monotonicity argument. For a fixed plan, each C_t = round(c x
(1 + r/100)^k) is non-decreasing in c (a rounding to the nearest cent is a non-decreasing
function, and (1 + r/100)^k > 0 since r >= -10). B_t = round(B_(t-1) x (1 + j/100) + C_t - E_t)
is non-decreasing in B_(t-1) (1 + j/100 > 0 since j >= -10; rounding again) and in C_t; by
induction on t every B_t is a non-decreasing function of c. Every goal is a conjunction of
"B_t >= a bound that does not depend on c", so if c meets it, every c' >= c does. The set of
integer contributions that meet it is therefore an upward-closed interval [c*, infinity) (or
empty), and a bisection over integers that keeps "lo fails, hi meets" ends with
hi = lo + 1 = c*: c* meets the goal and c* - 1 does not. No float is involved: each probe
computes the cash flow exactly in integers and Fractions. The search space is 0 .. 10 x the
largest yearly cost E_t of the horizon (DESIGN's bound), about 40 probes of H years each.

An annual budget (a scenario's cap on what the fund may receive in a year) does not change c*:
if c*'s largest C_t is above it, every larger c's is too, and no contribution within the budget
meets the goal.

Pure functions: no database.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any

from planning.core.money import cents_of
from planning.figures.funding.cashflow import balances, contributions, growth_factors
from planning.models import FundingGoal

BOUND_TIMES = 10  # DESIGN: no contribution within 10 x the largest yearly cost


@dataclass(frozen=True)
class GoalSolution:
    """A goal's smallest first-year contribution in cents, or None when none within the bound
    (or the budget) meets it."""

    goal: FundingGoal
    threshold: Decimal | None
    increase_percent: Decimal
    contribution_cents: int | None
    bound_cents: int
    failing_year: int | None = None  # unmet: the first year the goal fails at the bound
    over_budget: bool = False  # met, but only by a contribution above the annual budget

    @property
    def met(self) -> bool:
        return self.contribution_cents is not None and not self.over_budget


@dataclass(frozen=True)
class FundProblem:
    """Everything but the contribution: the years' costs and FFB (cents, from the start year)."""

    opening_cents: int
    start_year: int
    interest_percent: Decimal
    costs: Sequence[int]
    ffb: Sequence[int]


def _lowest_allowed(
    goal: FundingGoal, threshold: Decimal | None, problem: FundProblem
) -> tuple[list[int], list[int]]:
    """The goal as two lists of integer bounds: the lowest year-end balance B_t allowed in each
    year, and the lowest balance at the start of each year B_(t-1) (a percent funded bound:
    B_(t-1) x 100 >= p x FFB_t is B_(t-1) >= ceil(p x FFB_t / 100), p having two decimals)."""
    years = len(problem.costs)
    ends = [0] * years  # the baseline under every goal
    if goal == FundingGoal.THRESHOLD_AMOUNT:
        ends = [max(0, cents_of(threshold or Decimal(0)))] * years
    starts = [-(10**30)] * years  # no bound
    if goal == FundingGoal.THRESHOLD_PERCENT:
        share = Fraction(threshold or 0)
        starts = [math.ceil(share * ffb / 100) for ffb in problem.ffb]
    elif goal == FundingGoal.FULL and years:
        starts[-1] = problem.ffb[-1]
    return ends, starts


def _first_failure(
    ends: Sequence[int], opening: int, bounds: tuple[list[int], list[int]]
) -> int | None:
    """The index of the first year the balances `ends` break a bound, None if none does."""
    lowest_end, lowest_start = bounds
    before = opening
    for k, balance in enumerate(ends):
        if before < lowest_start[k] or balance < lowest_end[k]:
            return k
        before = balance
    return None


def goal_solve(
    *,
    goal: FundingGoal,
    threshold: Decimal | None = None,
    problem: FundProblem,
    increase_percent: Decimal = Decimal(0),
    budget_cents: int | None = None,
) -> GoalSolution:
    """The smallest first-year contribution (whole cents; raised by `increase_percent` each
    year) that meets the goal over the problem's years: an exact bisection (the module's
    docstring says why it is exact)."""
    factors = growth_factors(increase_percent, len(problem.costs))
    bound = BOUND_TIMES * max(problem.costs, default=0)

    bounds = _lowest_allowed(goal, threshold, problem)
    interest = Fraction(problem.interest_percent) / 100

    def failure(cents: int) -> int | None:
        ends = balances(
            opening_cents=problem.opening_cents,
            interest=interest,
            paid=contributions(cents, factors),
            costs=problem.costs,
        )
        return _first_failure(ends, problem.opening_cents, bounds)

    def solution(cents: int | None, **more: Any) -> GoalSolution:
        return GoalSolution(
            goal=goal,
            threshold=threshold,
            increase_percent=increase_percent,
            contribution_cents=cents,
            bound_cents=bound,
            **more,
        )

    at_bound = failure(bound)
    if at_bound is not None:
        return solution(None, failing_year=problem.start_year + at_bound)
    if failure(0) is None:
        low, high = -1, 0
    else:
        low, high = 0, bound  # fails(low), meets(high)
    while high - low > 1:
        middle = (low + high) // 2
        if failure(middle) is None:
            high = middle
        else:
            low = middle
    paid = contributions(high, factors)
    over = budget_cents is not None and max(paid, default=0) > budget_cents
    return solution(high, over_budget=over)

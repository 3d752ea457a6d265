"""What a solved goal says, in the words of the Funding tab, the API's `statement` and the board
report: the contribution and its years, or plainly that no contribution within the bound (or
the annual budget) meets the goal."""

from __future__ import annotations

from decimal import Decimal

from planning.core.money import amount_of, money_format
from planning.figures.funding.goals import BOUND_TIMES, GoalSolution
from planning.figures.prices import percent
from planning.models import FundingGoal

GOAL_NAMES = {
    FundingGoal.BASELINE: "Baseline",
    FundingGoal.THRESHOLD_AMOUNT: "Threshold",
    FundingGoal.THRESHOLD_PERCENT: "Threshold",
    FundingGoal.FULL: "Full funding",
}


def goal_name(solution: GoalSolution, currency: str) -> str:
    """ "Baseline: the balance never below zero", "Threshold: the balance never below 5,000.00
    EUR", ..."""
    threshold = solution.threshold or Decimal(0)
    what = {
        FundingGoal.BASELINE: "the balance never below zero",
        FundingGoal.THRESHOLD_AMOUNT: (
            f"the balance never below {money_format(threshold, currency)}"
        ),
        FundingGoal.THRESHOLD_PERCENT: f"percent funded never below {percent(threshold)}",
        FundingGoal.FULL: "100\u00a0% funded in the last year, the balance never below zero",
    }[solution.goal]
    return f"{GOAL_NAMES[solution.goal]}: {what}"


def contribution_kind(solution: GoalSolution) -> str:
    if not solution.increase_percent:
        return "constant"
    return f"rising {percent(solution.increase_percent)} a year"


def goal_statement(solution: GoalSolution, currency: str) -> str:
    """The solved contribution in a sentence, or why there is none."""
    if solution.contribution_cents is None:
        bound = money_format(amount_of(solution.bound_cents), currency)
        return (
            f"No contribution up to {bound} a year ({BOUND_TIMES}\u00d7 the largest yearly cost) "
            f"meets this goal: with that much it still fails in {solution.failing_year}."
        )
    amount = money_format(amount_of(solution.contribution_cents), currency)
    first = "a year" if not solution.increase_percent else "in the first year"
    if solution.over_budget:
        return (
            f"{amount} {first}, above the annual budget: no contribution within it meets this goal."
        )
    return f"{amount} {first} ({contribution_kind(solution)})"

"""A plan's funding figures from the database: its fund's cash flow and goals, a scenario's, and
percent funded now for many plans at once (the portfolio). The arithmetic is cashflow.py's,
goals.py's and ffb.py's; E_t is planning.figures.budget's nominal cost per year.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction

from planning.core.money import cents_of
from planning.figures.budget import plans_nominal_year_cents
from planning.figures.cache import plan_figure
from planning.figures.funding.cashflow import (
    FlowSummary,
    FundTerms,
    FundYear,
    balances,
    cash_flow,
    contributions,
    flow_summary,
    growth_factors,
    percent_funded,
)
from planning.figures.funding.ffb import LeftOut, ffb_years, funded_components
from planning.figures.funding.goals import FundProblem, GoalSolution, goal_solve
from planning.figures.prices import NOMINAL, PriceIndex, figure_wording
from planning.models import Fund, FundingGoal, FundingScenario, Plan


def fund_costs(
    *, plan: Plan, year_from: int, year_to: int, index_rate_percent: Decimal | None = None
) -> list[int]:
    """E_t of each year, in cents, through the figures cache (keyed on the plan's data
    version, which the caller has read after a sync, as every cached figure's: a
    100,000-action plan's nominal pass is about a second)."""
    return plan_figure(
        plan_id=plan.pk,
        version=plan.data_version,
        name="funding_costs",
        parts=(year_from, year_to, None if index_rate_percent is None else str(index_rate_percent)),
        compute=lambda: plans_nominal_year_cents(
            plans=[plan],
            year_from=year_from,
            year_to=year_to,
            index_rate_percent=index_rate_percent,
        )[plan.pk],
    )


@dataclass(frozen=True)
class FundingFigures:
    """A cash flow over a horizon with what the page says about it."""

    terms: FundTerms
    years: list[FundYear]
    summary: FlowSummary
    counted: int  # components FFB counts
    left_out: list[LeftOut]
    wording: str  # the years and prices of the figures
    goals: list[GoalSolution] = field(default_factory=list)
    solved: GoalSolution | None = None  # a scenario's goal, when it has one


def _wording(plan: Plan, terms: FundTerms, horizon: int, rate: Decimal | None) -> str:
    index = PriceIndex.of(plan)
    if rate is not None:
        index = PriceIndex(
            base_year=index.base_year, index_rate_percent=Decimal(rate), markups=index.markups
        )
    years = figure_wording(
        year_from=terms.start_year,
        year_to=terms.start_year + horizon - 1,
        prices=NOMINAL,
        index=index,
    )
    return f"{years}; the fully funded balance in today's prices"


@dataclass(frozen=True)
class FullyFunded:
    """FFB over a range of years, and the components counted and left out (what is cached:
    13,000 components unpickled on every visit cost more than the FFB they give)."""

    ffb: list[int]
    counted: int
    left_out: list[LeftOut]


def fund_ffb(*, plan: Plan, year_from: int, year_to: int) -> FullyFunded:
    """FFB of each year in cents through the figures cache, as `fund_costs`."""

    def compute() -> FullyFunded:
        components = funded_components([plan.pk])[plan.pk]
        return FullyFunded(
            ffb=ffb_years(components.counted, list(range(year_from, year_to + 1))),
            counted=len(components.counted),
            left_out=components.left_out,
        )

    return plan_figure(
        plan_id=plan.pk,
        version=plan.data_version,
        name="funding_ffb",
        parts=(year_from, year_to),
        compute=compute,
    )


def _problem(
    plan: Plan, terms: FundTerms, horizon: int, rate: Decimal | None
) -> tuple[FundProblem, FullyFunded]:
    first, last = terms.start_year, terms.start_year + horizon - 1
    costs = fund_costs(plan=plan, year_from=first, year_to=last, index_rate_percent=rate)
    fully = fund_ffb(plan=plan, year_from=first, year_to=last)
    problem = FundProblem(
        opening_cents=terms.opening_cents,
        start_year=terms.start_year,
        interest_percent=terms.interest_percent,
        costs=costs,
        ffb=fully.ffb,
    )
    return problem, fully


def _figures(
    plan: Plan,
    terms: FundTerms,
    horizon: int,
    rate: Decimal | None,
    goals: Sequence[tuple[FundingGoal, Decimal | None, Decimal]],
    budget: Decimal | None = None,
    solve: tuple[FundingGoal, Decimal | None] | None = None,
) -> FundingFigures:
    problem, components = _problem(plan, terms, horizon, rate)
    budget_cents = None if budget is None else cents_of(budget)
    solved = None
    if solve is not None:
        solved = goal_solve(
            goal=solve[0],
            threshold=solve[1],
            problem=problem,
            increase_percent=terms.increase_percent,
            budget_cents=budget_cents,
        )
        terms = FundTerms(
            opening_cents=terms.opening_cents,
            start_year=terms.start_year,
            interest_percent=terms.interest_percent,
            contribution_cents=solved.contribution_cents or 0,
            increase_percent=terms.increase_percent,
        )
    years = cash_flow(terms=terms, costs=problem.costs, ffb=problem.ffb)
    return FundingFigures(
        terms=terms,
        years=years,
        summary=flow_summary(years),
        counted=components.counted,
        left_out=components.left_out,
        wording=_wording(plan, terms, horizon, rate),
        goals=[
            goal_solve(
                goal=goal,
                threshold=threshold,
                problem=problem,
                increase_percent=increase,
                budget_cents=budget_cents,
            )
            for goal, threshold, increase in goals
        ],
        solved=solved,
    )


def fund_terms(fund: Fund | FundingScenario, contribution: Decimal | None = None) -> FundTerms:
    return FundTerms(
        opening_cents=cents_of(Decimal(fund.opening_balance)),
        start_year=fund.start_year,
        interest_percent=Decimal(fund.interest_percent),
        contribution_cents=cents_of(Decimal(contribution or fund.contribution or 0)),
        increase_percent=Decimal(fund.contribution_increase_percent),
    )


def fund_goals(fund: Fund) -> list[tuple[FundingGoal, Decimal | None, Decimal]]:
    """The goals the Funding tab solves for a fund: baseline, the thresholds the fund names and
    full; each for a constant contribution and, when the fund's rises, for one rising as it
    does."""
    increases = [Decimal(0)]
    if fund.contribution_increase_percent:
        increases.append(Decimal(fund.contribution_increase_percent))
    goals: list[tuple[FundingGoal, Decimal | None]] = [(FundingGoal.BASELINE, None)]
    if fund.threshold_amount is not None:
        goals.append((FundingGoal.THRESHOLD_AMOUNT, Decimal(fund.threshold_amount)))
    if fund.threshold_percent is not None:
        goals.append((FundingGoal.THRESHOLD_PERCENT, Decimal(fund.threshold_percent)))
    goals.append((FundingGoal.FULL, None))
    return [(goal, threshold, increase) for goal, threshold in goals for increase in increases]


def fund_figures(*, fund: Fund) -> FundingFigures:
    """The fund's cash flow over its horizon, its goals solved."""
    return _figures(fund.plan, fund_terms(fund), fund.horizon_years, None, fund_goals(fund))


def scenario_figures(*, scenario: FundingScenario) -> FundingFigures:
    """A scenario's cash flow over its horizon: its contribution, or the one its goal is solved
    for (`solved`; the flow of a goal no contribution meets is shown without a contribution)."""
    rate = scenario.index_rate_percent
    solve = None
    if scenario.goal:
        solve = (FundingGoal(scenario.goal), scenario.goal_threshold)
    return _figures(
        scenario.plan,
        fund_terms(scenario),
        scenario.horizon_years,
        None if rate is None else Decimal(rate),
        goals=[],
        budget=scenario.annual_budget,
        solve=solve,
    )


def percent_funded_now(
    plan_ids: Sequence[uuid.UUID], *, year: int
) -> dict[uuid.UUID, Decimal | None]:
    """Percent funded in `year` (B_(year-1) / FFB_year) of each of these plans that has a fund;
    None when the fund starts after `year` or no component counts. A bounded number of queries
    whatever the number of plans: the funds, the nominal costs of their years before `year`
    (one or two), and the components (four)."""
    funds = list(Fund.objects.filter(plan_id__in=list(plan_ids)).select_related("plan"))
    started = [fund for fund in funds if fund.start_year <= year]
    first = min((fund.start_year for fund in started), default=year)
    costs = (
        plans_nominal_year_cents(
            plans=[fund.plan for fund in started], year_from=first, year_to=year - 1
        )
        if first < year
        else {}
    )
    components = funded_components([fund.plan_id for fund in started])
    found: dict[uuid.UUID, Decimal | None] = {fund.plan_id: None for fund in funds}
    for fund in started:
        terms = fund_terms(fund)
        years = year - fund.start_year
        before = terms.opening_cents
        if years:
            paid = contributions(
                terms.contribution_cents, growth_factors(terms.increase_percent, years)
            )
            before = balances(
                opening_cents=before,
                interest=Fraction(terms.interest_percent) / 100,
                paid=paid,
                costs=costs[fund.plan_id][fund.start_year - first :],
            )[-1]
        ffb = ffb_years(components[fund.plan_id].counted, [year])[0]
        found[fund.plan_id] = percent_funded(before, ffb)
    return found

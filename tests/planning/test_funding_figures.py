"""The fund's figures (docs/subsystems/funding.md) against a recomputation written here from
DESIGN's formulas, in Decimal arithmetic with ROUND_HALF_UP (the code under test counts in
integer cents and Fractions): the cash flow, percent funded, the fully funded balance, every goal
and the minimality of each solved contribution (one cent less fails), impossible goals, and
percent funded now for many plans in a bounded number of queries."""

from __future__ import annotations

import datetime
from decimal import ROUND_HALF_UP, Decimal, localcontext
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planning.figures.budget import plan_budget, plans_nominal_year_cents
from planning.figures.funding import fund_figures, percent_funded_now
from planning.figures.funding.cashflow import FundTerms, cash_flow
from planning.figures.funding.ffb import NO_LIFE, NO_SINCE, ffb_years, funded_components
from planning.figures.funding.goals import FundProblem, goal_solve
from planning.figures.prices import NOMINAL
from planning.models import (
    ActionKind,
    ActionStatus,
    CodeOverride,
    Completion,
    Fund,
    FundingGoal,
    NodeKind,
)
from tests.factories import ActionFactory, CodeFactory, PlanFactory, StructureNodeFactory

CENT = Decimal("0.01")


# --- the recomputation, from DESIGN -------------------------------------------------------------


def money(value: Decimal) -> Decimal:
    return value.quantize(CENT, rounding=ROUND_HALF_UP)


def recompute(
    *,
    opening: Decimal,
    j: Decimal,
    first: Decimal,
    r: Decimal,
    costs: list[Decimal],
    ffb: list[Decimal],
) -> tuple[list[Decimal], list[Decimal], list[Decimal | None]]:
    """(C_t, B_t, percent funded) of each year: B_t = B_(t-1) x (1 + j/100) + C_t - E_t,
    rounded half up to cents per year; C_t = C x (1 + r/100)^k to the cent; percent funded =
    B_(t-1) / FFB_t."""
    paid, ends, funded = [], [], []
    balance = opening
    with localcontext() as exact:
        exact.prec = 500  # (1.xxxx)^40 has at most 160 decimals: every product here is exact
        for k, (cost, fully) in enumerate(zip(costs, ffb, strict=True)):
            contribution = money(first * (1 + r / 100) ** k)
            funded.append(
                None if fully == 0 else (balance / fully * 100).quantize(CENT, ROUND_HALF_UP)
            )
            balance = money(balance * (1 + j / 100) + contribution - cost)
            paid.append(contribution)
            ends.append(balance)
    return paid, ends, funded


def meets(goal: FundingGoal, threshold: Decimal | None, opening: Decimal, ends, ffb) -> bool:  # type: ignore[no-untyped-def]
    """DESIGN's goals (with the baseline under each, docs/subsystems/funding.md)."""
    if any(balance < 0 for balance in ends):
        return False
    before = [opening, *ends[:-1]]
    if goal == FundingGoal.THRESHOLD_AMOUNT:
        return all(balance >= threshold for balance in ends)
    if goal == FundingGoal.THRESHOLD_PERCENT:
        return all(b * 100 >= threshold * f for b, f in zip(before, ffb, strict=True))
    if goal == FundingGoal.FULL:
        return before[-1] >= ffb[-1]
    return True


# --- random funds ------------------------------------------------------------------------------

rate = st.decimals(min_value=-10, max_value=50, places=2)
amount = st.decimals(min_value=-50_000, max_value=2_000_000, places=2)
cost = st.one_of(st.just(Decimal(0)), st.decimals(min_value=0, max_value=900_000, places=2))
fund_spec = st.integers(min_value=10, max_value=40).flatmap(
    lambda horizon: st.fixed_dictionaries(
        {
            "opening": amount,
            "j": rate,
            "first": st.decimals(min_value=0, max_value=500_000, places=2),
            "r": rate,
            "costs": st.lists(cost, min_size=horizon, max_size=horizon),
            "ffb": st.lists(
                st.decimals(min_value=0, max_value=3_000_000, places=2),
                min_size=horizon,
                max_size=horizon,
            ),
        }
    )
)


def cents(value: Decimal) -> int:
    return int(value * 100)


@settings(max_examples=200, deadline=None)
@given(spec=fund_spec)
def test_cash_flow_and_percent_funded_equal_the_recomputation(spec: dict[str, Any]) -> None:
    rows = cash_flow(
        terms=FundTerms(
            opening_cents=cents(spec["opening"]),
            start_year=2026,
            interest_percent=spec["j"],
            contribution_cents=cents(spec["first"]),
            increase_percent=spec["r"],
        ),
        costs=[cents(c) for c in spec["costs"]],
        ffb=[cents(f) for f in spec["ffb"]],
    )
    paid, ends, funded = recompute(**spec)
    assert [row.contribution_cents for row in rows] == [cents(c) for c in paid]
    assert [row.balance_cents for row in rows] == [cents(b) for b in ends]
    assert [row.percent_funded for row in rows] == funded
    assert [row.year for row in rows] == list(range(2026, 2026 + len(rows)))
    # Every year adds up: B_t = B_(t-1) + I_t + C_t - E_t.
    for row in rows:
        assert row.balance_cents == (
            row.opening_cents + row.interest_cents + row.contribution_cents - row.cost_cents
        )


goal_spec = st.tuples(
    fund_spec,
    st.sampled_from(FundingGoal.values),
    st.decimals(min_value=0, max_value=3_000_000, places=2),  # a threshold amount
    st.decimals(min_value=0, max_value=150, places=2),  # a threshold percent
)


@settings(max_examples=150, deadline=None)
@given(spec=goal_spec)
def test_each_goal_is_solved_to_the_smallest_cent(spec: Any) -> None:
    fund, goal, threshold_amount, threshold_percent = spec
    threshold = {
        FundingGoal.THRESHOLD_AMOUNT: threshold_amount,
        FundingGoal.THRESHOLD_PERCENT: threshold_percent,
    }.get(goal)
    solution = goal_solve(
        goal=FundingGoal(goal),
        threshold=threshold,
        increase_percent=fund["r"],
        problem=FundProblem(
            opening_cents=cents(fund["opening"]),
            start_year=2026,
            interest_percent=fund["j"],
            costs=[cents(c) for c in fund["costs"]],
            ffb=[cents(f) for f in fund["ffb"]],
        ),
    )

    def met(first: Decimal) -> bool:
        _paid, ends, _funded = recompute(**{**fund, "first": first})
        return meets(FundingGoal(goal), threshold, fund["opening"], ends, fund["ffb"])

    bound = 10 * max(fund["costs"])
    assert solution.bound_cents == cents(bound)
    if solution.contribution_cents is None:
        # Impossible: the largest contribution allowed fails (so does every smaller one).
        assert not met(bound)
        assert solution.failing_year is not None
    else:
        found = Decimal(solution.contribution_cents) / 100
        assert met(found)
        assert found == 0 or not met(found - CENT)  # one cent less fails the goal


def test_a_goal_no_contribution_within_the_bound_meets_says_so() -> None:
    # 60 % funded in the first year is the opening balance's alone: nothing can raise it.
    problem = FundProblem(
        opening_cents=100_00,
        start_year=2026,
        interest_percent=Decimal(0),
        costs=[500_00] * 10,
        ffb=[1_000_00] * 10,
    )
    solution = goal_solve(
        goal=FundingGoal.THRESHOLD_PERCENT, threshold=Decimal(60), problem=problem
    )
    assert solution.contribution_cents is None
    assert solution.failing_year == 2026
    assert not solution.met
    # A plan without costs: the bound is 0, and a threshold above the balance cannot be met.
    flat = FundProblem(
        opening_cents=0, start_year=2026, interest_percent=Decimal(0), costs=[0] * 10, ffb=[0] * 10
    )
    assert goal_solve(goal=FundingGoal.BASELINE, problem=flat).contribution_cents == 0
    missed = goal_solve(goal=FundingGoal.THRESHOLD_AMOUNT, threshold=Decimal(1), problem=flat)
    assert missed.contribution_cents is None


def test_a_contribution_above_the_annual_budget_is_not_within_it() -> None:
    problem = FundProblem(
        opening_cents=0,
        start_year=2026,
        interest_percent=Decimal(0),
        costs=[1_000_00] * 10,
        ffb=[0] * 10,
    )
    within = goal_solve(goal=FundingGoal.BASELINE, problem=problem, budget_cents=1_000_00)
    assert within.contribution_cents == 1_000_00 and within.met
    above = goal_solve(goal=FundingGoal.BASELINE, problem=problem, budget_cents=999_99)
    assert above.contribution_cents == 1_000_00 and above.over_budget and not above.met


# --- the fully funded balance -------------------------------------------------------------------

component_spec = st.tuples(
    st.decimals(min_value=0, max_value=99_999, places=2),  # cost
    st.integers(min_value=1950, max_value=2060),  # since
    st.integers(min_value=1, max_value=60),  # life
)


@settings(max_examples=200, deadline=None)
@given(components=st.lists(component_spec, max_size=12), first=st.integers(1990, 2070))
def test_ffb_equals_the_recomputation(components: list[Any], first: int) -> None:
    from planning.figures.funding.ffb import FundedComponent

    years = list(range(first, first + 40))
    counted = [
        FundedComponent(node_id=None, cost_cents=cents(c), since=s, life=life)  # type: ignore[arg-type]
        for c, s, life in components
    ]
    expected = []
    for year in years:
        total = sum(
            (Fraction(c) * min(max(year - s, 0), life) / life for c, s, life in components),
            Fraction(0),
        )
        expected.append(int(total * 100 + Fraction(1, 2)))  # half up: FFB is never negative
    assert ffb_years(counted, years) == expected


# --- from the database --------------------------------------------------------------------------


@pytest.mark.django_db
def test_components_counted_and_left_out() -> None:
    plan = PlanFactory.create()
    life_30 = CodeFactory.create(service_life_years=30)
    no_life = CodeFactory.create(service_life_years=None)
    overridden = CodeFactory.create(service_life_years=40)
    CodeOverride.objects.create(
        organisation=plan.organisation, code=overridden, service_life_years=20
    )

    def component(code: Any, install: int | None, *costs: tuple[int, str, int]) -> Any:
        node = StructureNodeFactory.create(plan=plan, code=code, install_year=install)
        for year, status, value in costs:
            ActionFactory.create(
                node=node,
                kind=ActionKind.REPLACEMENT,
                planned_year=year,
                status=status,
                estimated_cost=Decimal(value),
            )
        return node

    installed = component(life_30, 2010, (2040, ActionStatus.PLANNED, 900), (2035, "planned", 600))
    component(life_30, 2010, (2040, ActionStatus.CANCELLED, 900))  # no live replacement
    lifeless = component(no_life, 2010, (2040, ActionStatus.PLANNED, 100))
    replaced = component(overridden, None, (2045, ActionStatus.DONE, 50))
    done = replaced.actions.get()
    Completion.objects.create(
        action=done, completed_on=datetime.date(2016, 5, 1), planned_year=2016
    )
    ActionFactory.create(
        node=replaced, kind=ActionKind.REPLACEMENT, planned_year=2036, estimated_cost=Decimal(400)
    )
    never = component(life_30, None, (2040, ActionStatus.PLANNED, 100))
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, code=life_30)
    ActionFactory.create(node=building, kind=ActionKind.REPLACEMENT, planned_year=2040)

    found = funded_components([plan.pk])[plan.pk]
    counted = {c.node_id: (c.cost_cents, c.since, c.life) for c in found.counted}
    # The earliest live replacement's cost; the override's life; the last replacement's year.
    assert counted == {installed.pk: (600_00, 2010, 30), replaced.pk: (400_00, 2016, 20)}
    assert {(o.node_id, o.reason) for o in found.left_out} == {
        (lifeless.pk, NO_LIFE),
        (never.pk, NO_SINCE),
    }
    # 2026: 600 x 16/30 + 400 x 10/20 = 320 + 200.
    assert ffb_years(found.counted, [2026]) == [520_00]


def _plan_with_costs(index: str) -> Any:
    plan = PlanFactory.create(
        index_rate_percent=Decimal(index), price_base_year=2026, overhead_percent=Decimal("7.5")
    )
    code = CodeFactory.create(service_life_years=25)
    for position, (year, interval, value) in enumerate(
        [(2026, None, "1234.55"), (2027, 3, "99.99"), (2031, None, "50000"), (2020, 4, "10.01")]
    ):
        node = StructureNodeFactory.create(plan=plan, code=code, install_year=2000 + position)
        ActionFactory.create(
            node=node,
            kind=ActionKind.REPLACEMENT,
            planned_year=year,
            interval_years=interval,
            estimated_cost=Decimal(value),
        )
    return plan


@pytest.mark.django_db
def test_the_yearly_cost_is_the_nominal_budgets() -> None:
    plan = _plan_with_costs("3.3")
    costs = plans_nominal_year_cents(plans=[plan], year_from=2024, year_to=2053)[plan.pk]
    budget = plan_budget(plan=plan, year_from=2024, year_to=2053, prices=NOMINAL)
    assert costs == [cents(total) for total in budget.year_totals]
    assert sum(costs) > 0


@pytest.mark.django_db
def test_percent_funded_now_equals_the_funding_tabs_figure(
    django_assert_max_num_queries: Any,
) -> None:
    plans = [_plan_with_costs(index) for index in ("0", "2.5", "-1")]
    plain = PlanFactory.create()  # no fund: absent
    for plan, start in zip(plans, (2020, 2026, 2030), strict=True):
        Fund.objects.create(
            plan=plan,
            opening_balance=Decimal("1000.00"),
            start_year=start,
            interest_percent=Decimal("1.25"),
            contribution=Decimal("2500.00"),
            contribution_increase_percent=Decimal("2"),
        )
    with django_assert_max_num_queries(8):
        found = percent_funded_now([*(p.pk for p in plans), plain.pk], year=2028)
    assert set(found) == {p.pk for p in plans}
    for plan in plans[:2]:
        row = next(r for r in fund_figures(fund=plan.fund).years if r.year == 2028)
        assert found[plan.pk] == row.percent_funded is not None
    assert found[plans[2].pk] is None  # the fund starts in 2030


# --- random plans, end to end ----------------------------------------------------------------

plan_spec = st.fixed_dictionaries(
    {
        "index": st.decimals(min_value=-3, max_value=9, places=2),
        "overhead": st.decimals(min_value=0, max_value=30, places=1),
        "components": st.lists(
            st.tuples(
                st.none() | st.integers(min_value=1970, max_value=2030),  # install year
                st.none() | st.integers(min_value=5, max_value=50),  # service life
                st.lists(
                    st.tuples(
                        st.sampled_from(ActionKind.values),
                        st.integers(min_value=2020, max_value=2070),  # planned year
                        st.none() | st.integers(min_value=1, max_value=12),  # interval
                        st.decimals(min_value=0, max_value=80_000, places=2),
                        st.sampled_from(["planned", "planned", "done", "cancelled"]),
                    ),
                    max_size=3,
                ),
            ),
            max_size=5,
        ),
        "opening": st.decimals(min_value=-20_000, max_value=200_000, places=2),
        "j": st.decimals(min_value=-10, max_value=12, places=2),
        "first": st.decimals(min_value=0, max_value=90_000, places=2),
        "r": st.decimals(min_value=-10, max_value=12, places=2),
        "start": st.integers(min_value=2022, max_value=2032),
        "horizon": st.integers(min_value=10, max_value=40),
    }
)


@pytest.mark.django_db
@settings(max_examples=10, deadline=None, suppress_health_check=list(HealthCheck))
@given(spec=plan_spec)
def test_a_random_plans_fund_equals_the_recomputation(spec: dict[str, Any]) -> None:
    plan = PlanFactory.create(
        price_base_year=2026, index_rate_percent=spec["index"], overhead_percent=spec["overhead"]
    )
    years = list(range(spec["start"], spec["start"] + spec["horizon"]))
    costs = [Fraction(0)] * len(years)
    growth = 1 + Fraction(spec["index"]) / 100
    markup = 1 + Fraction(spec["overhead"]) / 100
    fully = [Fraction(0)] * len(years)
    for install, life, actions in spec["components"]:
        code = CodeFactory.create(service_life_years=life)
        node = StructureNodeFactory.create(plan=plan, code=code, install_year=install)
        replacements = []
        for kind, year, interval, value, status in actions:
            ActionFactory.create(
                node=node,
                kind=kind,
                planned_year=year,
                interval_years=interval,
                estimated_cost=value,
                status=status,
            )
            if status != "planned":
                continue
            for k, t in enumerate(years):
                if t == year or (interval and t > year and (t - year) % interval == 0):
                    occurrence = Fraction(value) * growth ** (t - 2026) * markup * 100
                    costs[k] += int(occurrence + Fraction(1, 2))  # half up, per occurrence
            if kind == ActionKind.REPLACEMENT:
                replacements.append((year, -value))
        if replacements and install is not None and life:
            cost = -min(replacements)[1]
            for k, t in enumerate(years):
                fully[k] += Fraction(cost) * 100 * min(max(t - install, 0), life) / life
    fund = Fund.objects.create(
        plan=plan,
        opening_balance=spec["opening"],
        start_year=spec["start"],
        interest_percent=spec["j"],
        contribution=spec["first"],
        contribution_increase_percent=spec["r"],
        horizon_years=spec["horizon"],
    )
    figures = fund_figures(fund=fund)
    expected_costs = [Decimal(int(c)) / 100 for c in costs]
    expected_ffb = [Decimal(int(f + Fraction(1, 2))) / 100 for f in fully]
    assert [Decimal(row.cost_cents) / 100 for row in figures.years] == expected_costs
    assert [Decimal(row.ffb_cents) / 100 for row in figures.years] == expected_ffb
    _paid, ends, funded = recompute(
        opening=spec["opening"],
        j=spec["j"],
        first=spec["first"],
        r=spec["r"],
        costs=expected_costs,
        ffb=expected_ffb,
    )
    assert [Decimal(row.balance_cents) / 100 for row in figures.years] == ends
    assert [row.percent_funded for row in figures.years] == funded
    # Each goal's solution is the smallest: it meets the goal, one cent less does not.
    for solution in figures.goals:
        met = meets_with(solution, spec, expected_costs, expected_ffb)
        if solution.contribution_cents is None:
            assert not met(Decimal(solution.bound_cents) / 100)
        else:
            found = Decimal(solution.contribution_cents) / 100
            assert met(found) and (found == 0 or not met(found - CENT))


def meets_with(
    solution: Any, spec: dict[str, Any], costs: list[Decimal], ffb: list[Decimal]
) -> Any:
    """Whether a first-year contribution meets the solution's goal, for its kind of
    contribution (constant, or rising as the fund's)."""

    def met(first: Decimal) -> bool:
        _paid, ends, _funded = recompute(
            opening=spec["opening"],
            j=spec["j"],
            first=first,
            r=solution.increase_percent,
            costs=costs,
            ffb=ffb,
        )
        return meets(FundingGoal(solution.goal), solution.threshold, spec["opening"], ends, ffb)

    return met

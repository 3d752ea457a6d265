"""Money (docs/subsystems/money.md "Money"): the nominal formula at its edges, the budget's sums of
rounded occurrences, the exports' nominal columns against a recomputation, the settings form,
and the planning page's prices switch and budget cap."""

from __future__ import annotations

import csv
import io
import random
from decimal import ROUND_HALF_UP, Decimal, localcontext
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from planning.core.money import GridUnit
from planning.figures.budget import plan_budget, plan_budgets
from planning.figures.occurrences import occurrence_years
from planning.figures.prices import NOMINAL, TODAY, Markup, PriceIndex
from planning.models import ActionStatus, NodeKind, Plan, PlanRole
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


def recomputed(cost: Decimal, year: int, *, b: int, i: str, o: str = "0", v: str = "0") -> Decimal:
    """The formula of docs/subsystems/money.md "Money", written again with 80-digit decimals (the
    code uses fractions)."""
    with localcontext() as context:
        context.prec = 80
        value = (
            cost
            * (1 + Decimal(i) / 100) ** (year - b)
            * (1 + Decimal(o) / 100)
            * (1 + Decimal(v) / 100)
        )
        return value.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)


def index(b: int = 2026, i: str = "0", o: str = "0", v: str = "0") -> PriceIndex:
    markups = (Markup("overhead", Decimal(o)), Markup("VAT", Decimal(v)))
    return PriceIndex(b, Decimal(i), markups)


# --- the formula ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("largest", "amount", "shown", "label"),
    [
        (Decimal("9999999.99"), Decimal("1212.50"), "1,213", "EUR"),
        (Decimal("9999999.99"), Decimal("0.40"), "<1", "EUR"),
        (Decimal("10000000"), Decimal("3565125126.55"), "3,565,125", "thousands of EUR"),
        (Decimal("10000000"), Decimal("1499.99"), "1", "thousands of EUR"),
        (Decimal("10000000"), Decimal("400"), "<1", "thousands of EUR"),
        (Decimal("10000000"), Decimal("0"), "0", "thousands of EUR"),
    ],
)
def test_the_grid_shows_whole_units_or_thousands_by_its_largest_figure(
    largest: Decimal, amount: Decimal, shown: str, label: str
) -> None:
    unit = GridUnit.of(largest=largest, currency="EUR")
    assert (unit.format(amount), unit.label) == (shown, label)


def test_in_the_base_year_only_the_markups_apply() -> None:
    assert index(i="2", o="10", v="19").nominal(Decimal("1000.00"), 2026) == Decimal("1309.00")


def test_a_year_after_the_base_year_is_indexed_once() -> None:
    assert index(i="2", o="10", v="19").nominal(Decimal("1000.00"), 2027) == Decimal("1335.18")


def test_a_year_before_the_base_year_is_indexed_back() -> None:
    # 1000 / 1.02 x 1.1 x 1.19 = 1283.333...
    assert index(i="2", o="10", v="19").nominal(Decimal("1000.00"), 2025) == Decimal("1283.33")
    assert index(i="2").nominal(Decimal("1000.00"), 2016) == recomputed(
        Decimal("1000.00"), 2016, b=2026, i="2"
    )


def test_an_exact_half_cent_before_the_base_year_rounds_up() -> None:
    # 0.05 / 1.25 x 1.125 = 0.045 exactly: a float or a rounded division could land below it.
    assert index(i="25", v="12.5").nominal(Decimal("0.05"), 2025) == Decimal("0.05")


def test_a_negative_rate_lowers_later_years() -> None:
    assert index(i="-10").nominal(Decimal("1000.00"), 2028) == Decimal("810.00")
    assert index(i="-10").nominal(Decimal("810.00"), 2024) == Decimal("1000.00")


def test_a_zero_rate_keeps_todays_prices_in_every_year() -> None:
    assert index().nominal(Decimal("123.45"), 1950) == Decimal("123.45")
    assert index(i="0", o="10").nominal(Decimal("123.45"), 2100) == Decimal("135.80")  # .795


def test_every_occurrence_is_rounded_half_up_to_the_cent() -> None:
    prices = index(o="50")

    assert prices.nominal(Decimal("0.01"), 2026) == Decimal("0.02")  # 0.015
    assert prices.nominal(Decimal("0.03"), 2026) == Decimal("0.05")  # 0.045
    assert prices.nominal_cents(3, 2026) == 5


@pytest.mark.parametrize("seed", range(5))
def test_the_fast_cents_form_is_the_formula(seed: int) -> None:
    rng = random.Random(seed)
    rates = (("2.5", "10", "19"), ("-10", "0", "0"), ("3.17", "12.5", "7"), ("50", "100", "100"))
    for i, o, v in rates:
        prices = index(i=i, o=o, v=v)
        for _ in range(200):
            cost = Decimal(rng.randint(0, 10**9)).scaleb(-2)
            year = rng.randint(1990, 2080)
            expected = recomputed(cost, year, b=2026, i=i, o=o, v=v)
            assert prices.nominal(cost, year) == expected
            assert Decimal(prices.nominal_cents(int(cost * 100), year)).scaleb(-2) == expected


def test_occurrences_of_a_one_off_action_are_its_year_inside_the_range() -> None:
    assert list(
        occurrence_years(planned_year=2030, interval_years=None, first=2026, last=2035)
    ) == [2030]
    assert (
        list(occurrence_years(planned_year=2036, interval_years=None, first=2026, last=2035)) == []
    )


def test_occurrences_of_a_recurring_action_inside_and_outside_a_range() -> None:
    def years(planned: int, every: int, first: int, last: int) -> list[int]:
        return list(
            occurrence_years(planned_year=planned, interval_years=every, first=first, last=last)
        )

    assert years(2027, 5, 2026, 2040) == [2027, 2032, 2037]
    assert years(2020, 4, 2026, 2035) == [2028, 2032]  # planned before the range
    assert years(2020, 3, 2026, 2035) == [2026, 2029, 2032, 2035]  # on both edges
    assert years(2036, 2, 2026, 2035) == []  # after it
    assert years(2030, 1, 2030, 2030) == [2030]
    assert years(2000, 100, 2026, 2035) == []  # its next one is outside


# --- the budget -------------------------------------------------------------------------------


def _money_plan(**settings: str) -> Plan:
    plan = PlanFactory.create(price_base_year=2026, **{k: Decimal(v) for k, v in settings.items()})
    return plan


def test_a_budget_cell_is_the_sum_of_rounded_occurrences_not_a_rounded_sum() -> None:
    plan = _money_plan(overhead_percent="50")
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    for _ in range(3):
        ActionFactory.create(node=house, planned_year=2027, estimated_cost=Decimal("0.01"))

    nominal = plan_budget(plan=plan, year_from=2026, year_to=2028, prices=NOMINAL)
    today = plan_budget(plan=plan, year_from=2026, year_to=2028, prices=TODAY)

    # three occurrences of 0.015 each rounded to 0.02; the rounded sum would be 0.05
    assert nominal.rows[0].cells == [Decimal("0.00"), Decimal("0.06"), Decimal("0.00")]
    assert nominal.total == Decimal("0.06")
    assert today.rows[0].cells == [Decimal("0.00"), Decimal("0.03"), Decimal("0.00")]


def test_the_nominal_budget_indexes_each_year_from_the_base_year() -> None:
    plan = _money_plan(index_rate_percent="2", vat_percent="19")
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    ActionFactory.create(node=roof, planned_year=2025, estimated_cost=Decimal("1000.00"))
    ActionFactory.create(node=roof, planned_year=2030, estimated_cost=Decimal("2500.55"))
    ActionFactory.create(node=roof, planned_year=2030, estimated_cost=Decimal("9.99"))
    ActionFactory.create(
        node=roof, planned_year=2030, estimated_cost=Decimal("5"), status=ActionStatus.DONE
    )

    budget = plan_budget(plan=plan, year_from=2025, year_to=2030, prices=NOMINAL)

    def nominal(cost: str, year: int) -> Decimal:
        return recomputed(Decimal(cost), year, b=2026, i="2", v="19")

    assert budget.year_totals[0] == nominal("1000.00", 2025)
    assert budget.year_totals[5] == nominal("2500.55", 2030) + nominal("9.99", 2030)
    assert budget.total == budget.year_totals[0] + budget.year_totals[5]
    assert sum(series.values[5] for series in budget.by_kind) == budget.year_totals[5]


def test_with_no_index_or_markups_nominal_is_todays_prices() -> None:
    plan = _money_plan()
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    ActionFactory.create(node=house, planned_year=2030, estimated_cost=Decimal("10.10"))

    nominal = plan_budget(plan=plan, year_from=2030, year_to=2030, prices=NOMINAL)

    assert nominal.total == Decimal("10.10")


# --- the exports ------------------------------------------------------------------------------


@pytest.fixture
def owner_client(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def _rows(response: Any) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))


def _random_plan(user: Any, seed: int = 7) -> Plan:
    rng = random.Random(seed)
    plan = _money_plan(index_rate_percent="3.25", overhead_percent="12", vat_percent="19")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    houses = [
        StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name=f"House {n}")
        for n in range(3)
    ]
    for n in range(60):
        ActionFactory.create(
            node=rng.choice(houses),
            title=f"Action {n}",
            planned_year=rng.randint(2020, 2040),
            estimated_cost=Decimal(rng.randint(0, 5_000_000)).scaleb(-2),
            interval_years=rng.choice([None, None, 3, 7]),
        )
    return plan


def test_the_actions_export_states_the_unit_once_and_its_nominal_column_is_the_formula(
    owner_client: Client, user: Any
) -> None:
    plan = _random_plan(user)

    rows = _rows(owner_client.get(reverse("planning:export_actions", args=[plan.number, "csv"])))

    header = rows[0]
    assert header[6] == "Estimated cost (EUR, today's prices)"
    assert header[7] == (
        "Nominal cost (EUR, nominal: 2026 prices indexed 3.25\u00a0% a year, "
        "overhead 12\u00a0%, VAT 19\u00a0%)"
    )
    assert "Currency" not in header
    assert len(rows) == 61
    for row in rows[1:]:
        cost, year = Decimal(row[6]), int(row[5])
        assert Decimal(row[7]) == recomputed(cost, year, b=2026, i="3.25", o="12", v="19")


def test_the_budget_export_has_both_prices_and_its_nominal_columns_are_the_formula(
    owner_client: Client, user: Any
) -> None:
    plan = _random_plan(user)
    actions = list(plan.actions.filter(status=ActionStatus.PLANNED))

    rows = _rows(
        owner_client.get(
            reverse("planning:export_budget", args=[plan.number, "csv"]),
            {"year_from": 2026, "year_to": 2045},
        )
    )

    years = list(range(2026, 2046))
    rows = [[row[0], *row[7:]] for row in rows]  # past the key figures' six columns
    assert rows[0][1:21] == [str(year) for year in years]
    assert rows[0][22:42] == [f"{year} nominal" for year in years]
    expected: dict[str, list[Decimal]] = {}
    for action in actions:
        row = expected.setdefault(action.node.name, [Decimal("0.00")] * 40)
        for year in occurrence_years(
            planned_year=action.planned_year,
            interval_years=action.interval_years,
            first=2026,
            last=2045,
        ):
            row[year - 2026] += action.estimated_cost
            row[20 + year - 2026] += recomputed(
                action.estimated_cost, year, b=2026, i="3.25", o="12", v="19"
            )
    for line in rows[1:-1]:
        figures = [Decimal(cell) for cell in line[1:]]
        assert figures[:20] == expected[line[0]][:20]
        assert figures[21:41] == expected[line[0]][20:]
        assert figures[20] == sum(figures[:20]) and figures[41] == sum(figures[21:41])
    totals = [Decimal(cell) for cell in rows[-1][1:]]
    assert totals[41] == sum(sum(expected[name][20:]) for name in expected)


# --- the settings form ------------------------------------------------------------------------


@pytest.fixture
def plan_of(user: Any) -> Plan:
    plan = _money_plan()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    return plan


def _money_post(client: Client, plan: Plan, **changes: str) -> Any:
    data = {
        "money-price_base_year": "2024",
        "money-index_rate_percent": "2.5",
        "money-markup_1_name": "Overhead",
        "money-markup_1_percent": "10",
        "money-markup_2_name": "VAT",
        "money-markup_2_percent": "19",
        "money-annual_budget": "250000",
        **{f"money-{k}": v for k, v in changes.items()},
    }
    return client.post(reverse("planning:plan_money", args=[plan.number]), data)


def test_saving_the_prices_changes_the_plan(owner_client: Client, plan_of: Plan) -> None:
    response = _money_post(owner_client, plan_of)

    assert response.status_code == 302
    plan_of.refresh_from_db()
    assert (
        plan_of.price_base_year,
        plan_of.index_rate_percent,
        plan_of.overhead_percent,
        plan_of.vat_percent,
        plan_of.annual_budget,
    ) == (2024, Decimal("2.5"), Decimal("10"), Decimal("19"), Decimal("250000"))


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("index_rate_percent", "-10.01", "Enter a percentage between -10 and 50."),
        ("index_rate_percent", "51", "Enter a percentage between -10 and 50."),
        ("markup_1_percent", "-1", "Enter a percentage between 0 and 100."),
        ("markup_2_percent", "100.5", "Enter a percentage between 0 and 100."),
        ("markup_2_percent", "abc", "Enter a number."),
        ("markup_2_percent", "", "Give the markup&#x27;s percentage."),
        ("markup_2_name", "", "Give the markup a name"),
        ("markup_2_name", "overhead", "is named twice"),
        ("markup_2_name", "Fee; site", "a name without “;”"),
        ("price_base_year", "1800", "Enter a year between 1900 and 2200."),
        ("price_base_year", "", "This field is required."),
        ("annual_budget", "-5", "Cannot be negative."),
        ("index_rate_percent", "2.555", "Ensure that there are no more than 2 decimal places."),
    ],
)
def test_a_bad_price_setting_is_refused_with_its_message(
    owner_client: Client, plan_of: Plan, field: str, value: str, message: str
) -> None:
    response = _money_post(owner_client, plan_of, **{field: value})

    assert response.status_code == 200
    assert message in response.content.decode()
    plan_of.refresh_from_db()
    assert plan_of.index_rate_percent == 0 and plan_of.annual_budget is None


def test_the_budget_may_be_left_empty(owner_client: Client, plan_of: Plan) -> None:
    _money_post(owner_client, plan_of, annual_budget="")

    plan_of.refresh_from_db()
    assert plan_of.annual_budget is None and plan_of.vat_percent == 19


def test_a_new_plan_is_in_the_prices_of_its_year() -> None:
    plan = PlanFactory.create()

    assert plan.price_base_year == plan.created_at.year


# --- the planning page ------------------------------------------------------------------------


def _planning(client: Client, plan: Plan, **query: Any) -> str:
    response = client.get(reverse("planning:action_planning", args=[plan.number]), query)
    assert response.status_code == 200
    return str(response.content.decode())


def _budget_plan(user: Any) -> Plan:
    plan = _money_plan(index_rate_percent="10")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    ActionFactory.create(node=house, planned_year=2027, estimated_cost=Decimal("1000.00"))
    ActionFactory.create(node=house, planned_year=2028, estimated_cost=Decimal("100.00"))
    return plan


def test_the_planning_page_shows_nominal_prices_when_asked(owner_client: Client, user: Any) -> None:
    plan = _budget_plan(user)

    today = _planning(owner_client, plan, year_from=2026, year_to=2028)
    nominal = _planning(owner_client, plan, year_from=2026, year_to=2028, prices="nominal")

    assert "1,100.00" in today and "today's prices" in today
    # 1000 x 1.1 + 100 x 1.21
    assert "1,221.00" in nominal and "1,100.00" in nominal
    assert "nominal: 2026 prices indexed 10\u00a0% a year" in nominal


def test_the_prices_choice_stays_in_the_pages_links(owner_client: Client, user: Any) -> None:
    plan = _budget_plan(user)

    html = _planning(owner_client, plan, year_from=2026, year_to=2028, prices="nominal")

    assert '<input type="hidden" name="prices" value="nominal">' in html  # year form
    assert "prices=nominal#suggestions" in html  # the suggestions' Clear
    assert "/rows/?year_from=2026&amp;year_to=2028&amp;prices=nominal" in html
    assert 'href="?year_from=2026&amp;year_to=2028&amp;prices=today"' in html


def test_an_unknown_prices_value_shows_todays_prices_with_a_message(
    owner_client: Client, user: Any
) -> None:
    plan = _budget_plan(user)

    html = _planning(owner_client, plan, year_from=2026, year_to=2028, prices="gold")

    assert "Today's prices are shown." in html and "1,100.00" in html


def test_years_above_the_annual_budget_are_marked_in_words(owner_client: Client, user: Any) -> None:
    plan = _budget_plan(user)
    Plan.objects.filter(pk=plan.pk).update(annual_budget=Decimal("500"), data_version=9)

    html = _planning(owner_client, plan, year_from=2026, year_to=2028, prices="nominal")

    assert "Above it in 1 year: 2027" in html
    assert html.count("▲ over budget") == 1
    assert ">▲2027</text>" in html and ">▲2028</text>" not in html  # the chart's year labels
    assert 'class="budget-line"' not in html  # the bars are nominal, the budget today's prices
    today = _planning(owner_client, plan, year_from=2026, year_to=2028)
    assert 'class="budget-line"' in today and "Annual budget 500.00\u00a0EUR" in today


def test_a_budget_read_back_from_the_cache_is_the_same_budget(user: Any) -> None:
    plan = _random_plan(user)
    budget = plan_budget(plan=plan, year_from=2026, year_to=2040, prices=NOMINAL)

    cache.set("budget", budget)  # the test cache keeps values pickled, as Redis does
    restored = cache.get("budget")

    assert restored == budget
    assert [str(cell) for cell in restored.rows[0].cells] == [
        str(cell) for cell in budget.rows[0].cells
    ]


def test_the_nominal_pass_gives_the_same_todays_budget_as_the_grouped_queries(user: Any) -> None:
    plan = _random_plan(user)

    today, nominal = plan_budgets(plan=plan, year_from=2020, year_to=2045)

    assert today == plan_budget(plan=plan, year_from=2020, year_to=2045, prices=TODAY)
    assert nominal == plan_budget(plan=plan, year_from=2020, year_to=2045, prices=NOMINAL)
    assert today.total != nominal.total


# --- markups ------------------------------------------------------------------------------------


def test_markups_compound_in_their_order_and_are_named_in_the_prices_wording(
    owner_client: Client, plan_of: Plan
) -> None:
    response = _money_post(
        owner_client,
        plan_of,
        price_base_year="2026",
        index_rate_percent="0",
        markup_1_name="Overhead",
        markup_1_percent="10",
        markup_2_name="Contingency",
        markup_2_percent="5",
        markup_3_name="Design fee",
        markup_3_percent="8",
        markup_4_name="VAT",
        markup_4_percent="25",
    )
    assert response.status_code == 302
    plan_of.refresh_from_db()
    house = StructureNodeFactory.create(plan=plan_of, kind=NodeKind.BUILDING, name="House")
    ActionFactory.create(node=house, planned_year=2027, estimated_cost=Decimal("1000.00"))

    nominal = plan_budget(plan=plan_of, year_from=2027, year_to=2027, prices=NOMINAL)

    # 1000 x 1.10 x 1.05 x 1.08 x 1.25 = 1559.25
    assert nominal.total == Decimal("1559.25")
    assert PriceIndex.of(plan_of).describe() == (
        "2026 prices, no index, overhead 10\u00a0%, contingency 5\u00a0%, design fee 8\u00a0%, "
        "VAT 25\u00a0%"
    )
    # Older clients read the first and the last as overhead and VAT.
    assert (plan_of.overhead_percent, plan_of.vat_percent) == (Decimal("10"), Decimal("25"))
    page = owner_client.get(reverse("planning:plan_settings", args=[plan_of.number]))
    assert page.context["money_form"]["markup_3_name"].value() == "Design fee"


def test_a_plan_without_a_list_has_its_overhead_and_vat_as_markups() -> None:
    plan = _money_plan(overhead_percent="10", vat_percent="25")

    assert (
        PriceIndex.of(plan).describe() == "2026 prices, no index, overhead 10\u00a0%, VAT 25\u00a0%"
    )
    assert PriceIndex.of(plan).nominal(Decimal("100"), 2026) == Decimal("137.50")


def test_a_markups_change_is_in_the_plans_history(owner_client: Client, plan_of: Plan) -> None:
    _money_post(owner_client, plan_of, markup_3_name="Contingency", markup_3_percent="5")

    history = owner_client.get(reverse("planning:plan_history", args=[plan_of.number]))

    assert "Contingency 5\u00a0%" in history.content.decode()


def test_the_markups_may_all_be_removed(owner_client: Client, plan_of: Plan) -> None:
    _money_post(owner_client, plan_of)
    _money_post(
        owner_client,
        plan_of,
        markup_1_name="",
        markup_1_percent="",
        markup_2_name="",
        markup_2_percent="",
    )

    plan_of.refresh_from_db()
    assert plan_of.markups == [] and plan_of.overhead_percent == plan_of.vat_percent == 0
    assert PriceIndex.of(plan_of).is_neutral is False  # the index rate of 2.5 % stays

"""The organisation's portfolio (docs/subsystems/portfolio.md): its figures equal each plan's own
pages, its order, filter, pages and totals, its downloads, its bounded queries, and who sees it."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from organisations.models import Organisation, OrganisationRole
from planning.models import NodeKind, Plan, Severity, Suggestion, SuggestionStatus
from planning.plans.services.actions import action_create
from planning.web.views.portfolio import PLANS_PER_PAGE
from tests.factories import (
    ActionFactory,
    OrganisationFactory,
    OrganisationMembershipFactory,
    PlanFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

Y = timezone.localdate().year


def _plan(
    organisation: Organisation,
    name: str,
    *,
    cost: str,
    debt: str = "0",
    value: str | None = "100000",
    area: str = "100",
    budget: str | None = None,
    currency: str = "EUR",
) -> Plan:
    plan = PlanFactory.create(
        organisation=organisation,
        name=name,
        price_base_year=Y,
        currency=currency,
        annual_budget=Decimal(budget) if budget else None,
    )
    house = StructureNodeFactory.create(
        plan=plan,
        kind=NodeKind.BUILDING,
        name="House",
        gross_floor_area_m2=Decimal(area),
        replacement_value=Decimal(value) if value else None,
    )
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    ActionFactory.create(node=roof, planned_year=Y + 1, estimated_cost=Decimal(cost))
    ActionFactory.create(  # recurring: Y+2, Y+5, Y+8 in the ten years
        node=roof, planned_year=Y + 2, interval_years=3, estimated_cost=Decimal("10.00")
    )
    ActionFactory.create(node=roof, planned_year=Y + 12, estimated_cost=Decimal("999"))  # after
    if Decimal(debt):
        ActionFactory.create(node=roof, planned_year=Y - 1, estimated_cost=Decimal(debt))
    return plan


def _critical(plan: Plan, count: int) -> None:
    node = plan.nodes.order_by("pk")[0]
    for n in range(count):
        Suggestion.objects.create(
            plan=plan,
            suggestion_type="overdue",
            severity=Severity.CRITICAL,
            title="Overdue",
            body="",
            structure_node=node,
            fingerprint=f"f{n}",
        )
    Suggestion.objects.create(  # dismissed: not open
        plan=plan,
        suggestion_type="overdue",
        severity=Severity.CRITICAL,
        title="Gone",
        body="",
        structure_node=node,
        fingerprint="gone",
        status=SuggestionStatus.DISMISSED,
    )


@pytest.fixture
def organisation() -> Organisation:
    return OrganisationFactory.create()


@pytest.fixture
def member(client: Client, organisation: Organisation) -> Client:
    user = UserFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=user, role=OrganisationRole.VIEWER
    )
    client.force_login(user)
    return client


def _rows(client: Client, organisation: Organisation, **query: Any) -> Any:
    response = client.get(reverse("portfolio:portfolio", args=[organisation.slug]), query)
    assert response.status_code == 200
    return response


def test_the_portfolios_figures_are_each_plans_own(
    member: Client, organisation: Organisation
) -> None:
    north = _plan(organisation, "North", cost="1000.00", debt="5000.00", budget="500")
    south = _plan(organisation, "South", cost="20.00", value=None)
    _critical(north, 2)
    # Each plan's own pages first: the planning page syncs its suggestions.
    own = {}
    for plan in (north, south):
        planning = member.get(reverse("planning:action_planning", args=[plan.number]))
        critical = {s["value"]: s["count"] for s in planning.context["severity_counts"]}
        own[plan.name] = (
            planning.context["key_figures"].plan.debt,
            planning.context["condition"].fci,
            critical["critical"],
        )
    plan_list = member.get(reverse("planning:plan_list"), {"org": organisation.slug})
    listed = {plan.name: plan.ten_year_cost for plan, _access in plan_list.context["rows"]}

    portfolio = _rows(member, organisation).context["portfolio"]
    rows = {row.plan.name: row for row in portfolio.rows}

    for plan in (north, south):
        row = rows[plan.name]
        assert row.figures.ten_year_cost == listed[plan.name]
        assert (
            row.figures.debt,
            row.figures.condition.fci,
            row.figures.critical_open,
        ) == own[plan.name]
    assert rows["North"].figures.ten_year_cost == Decimal("1030.00")
    assert rows["North"].figures.debt == Decimal("5000.00")
    assert rows["North"].figures.condition.fci_percent == Decimal("5.00")
    assert rows["North"].figures.condition.band == "fair"
    assert rows["North"].figures.critical_open > 0  # as the sync left them
    # Y+1 costs 1000, Y+2, Y+5, Y+8 cost 10 each: one year above 500
    assert rows["North"].figures.years_over_budget == 1
    assert rows["South"].figures.condition.fci is None
    assert rows["South"].figures.years_over_budget is None


def test_the_page_states_its_years_and_prices(member: Client, organisation: Organisation) -> None:
    _plan(organisation, "North", cost="1000.00")
    page = _rows(member, organisation).content.decode()
    assert f"{Y}\u2013{Y + 9}, today's prices" in page
    assert f"before {Y}" in page


def test_sorting_filtering_and_totals(member: Client, organisation: Organisation) -> None:
    _plan(organisation, "Block 10", cost="300.00", debt="10000.00")
    _plan(organisation, "Block 2", cost="100.00", debt="1000.00")
    _plan(organisation, "Annex", cost="200.00", value=None)
    _plan(organisation, "Kiosk", cost="50.00", currency="SEK")

    def names(**query: Any) -> list[str]:
        return [row.plan.name for row in _rows(member, organisation, **query).context["page"]]

    assert names() == ["Annex", "Block 2", "Block 10", "Kiosk"]  # natural order
    assert names(sort="-name") == ["Kiosk", "Block 10", "Block 2", "Annex"]
    assert names(sort="-cost") == ["Block 10", "Annex", "Block 2", "Kiosk"]
    assert names(sort="fci") == ["Kiosk", "Block 2", "Block 10", "Annex"]  # no FCI last
    assert names(sort="-fci") == ["Block 10", "Block 2", "Kiosk", "Annex"]
    assert names(sort="nonsense") == names()
    assert names(q="block") == ["Block 2", "Block 10"]

    filtered = _rows(member, organisation, q="block", sort="-debt")
    assert [row.plan.name for row in filtered.context["page"]] == ["Block 10", "Block 2"]
    (total,) = filtered.context["portfolio"].totals
    assert (total.currency, total.plans) == ("EUR", 2)
    assert total.ten_year_cost == Decimal("460.00")  # 300 + 100 + twice 30 of the recurring one
    assert total.debt == Decimal("11000.00")
    # area-weighted over both plans' buildings (100 m2 each): (10 % + 1 %) / 2
    assert total.condition.fci_percent == Decimal("5.50")
    page = filtered.content.decode()
    assert 'data-total="EUR"' in page and "Total, 2 plans in EUR" in page
    # one total per currency: money is never added across currencies
    everything = _rows(member, organisation).context["portfolio"]
    assert [(t.currency, t.plans) for t in everything.totals] == [("EUR", 3), ("SEK", 1)]


def test_the_totals_are_of_every_matching_plan_not_the_page(
    member: Client, organisation: Organisation
) -> None:
    for n in range(PLANS_PER_PAGE + 3):
        _plan(organisation, f"Plan {n}", cost="100.00", value=None)
    first = _rows(member, organisation)
    second = _rows(member, organisation, page=2)
    assert len(first.context["page"]) == PLANS_PER_PAGE
    assert [row.plan.name for row in second.context["page"]] == [
        f"Plan {n}" for n in range(PLANS_PER_PAGE, PLANS_PER_PAGE + 3)
    ]
    (total,) = second.context["portfolio"].totals
    assert total.plans == PLANS_PER_PAGE + 3
    assert total.ten_year_cost == Decimal("130.00") * (PLANS_PER_PAGE + 3)
    assert f"Plans {PLANS_PER_PAGE + 1}\u2013{PLANS_PER_PAGE + 3} of {PLANS_PER_PAGE + 3}" in (
        second.content.decode()
    )


def test_a_page_costs_a_bounded_number_of_queries(
    member: Client, organisation: Organisation, django_assert_max_num_queries: Any
) -> None:
    for n in range(30):
        plan = _plan(organisation, f"Plan {n}", cost="100.00", debt="10.00")
        _critical(plan, 1)
    cache.clear()
    with django_assert_max_num_queries(14):  # figures computed afresh for all 30 plans
        _rows(member, organisation, sort="-fci")
    with django_assert_max_num_queries(8):  # from the cache
        _rows(member, organisation, sort="-fci")


def test_a_change_of_a_plan_shows_at_once(member: Client, organisation: Organisation) -> None:
    plan = _plan(organisation, "North", cost="100.00")
    assert _rows(member, organisation).context["portfolio"].rows[0].figures.debt == 0
    action_create(
        plan=plan,
        node=plan.nodes.get(name="Roof"),
        title="Overdue",
        kind="repair",
        planned_year=Y - 1,
        estimated_cost=Decimal("70.00"),
    )
    assert _rows(member, organisation).context["portfolio"].rows[0].figures.debt == Decimal("70.00")


def test_the_downloads_hold_every_matching_plan_and_the_totals(
    member: Client, organisation: Organisation
) -> None:
    _plan(organisation, "Block 10", cost="300.00", debt="10000.00")
    _plan(organisation, "Block 2", cost="100.00")
    _plan(organisation, "Annex", cost="200.00")
    response = member.get(
        reverse("portfolio:download", args=[organisation.slug, "csv"]), {"q": "block"}
    )
    rows = list(csv.reader(io.StringIO(response.getvalue().decode("utf-8-sig"))))
    assert rows[0][3] == f"Planned cost {Y}\u2013{Y + 9} (today's prices)"
    assert [row[1] for row in rows[1:]] == ["Block 2", "Block 10", "Total, 2 plans"]
    assert rows[-1][3:5] == ["460.00", "10000.00"]
    workbook = member.get(reverse("portfolio:download", args=[organisation.slug, "xlsx"]))
    assert workbook.status_code == 200
    assert workbook["Content-Type"].startswith("application/vnd.openxmlformats")
    assert (
        member.get(reverse("portfolio:download", args=[organisation.slug, "pdf"])).status_code
        == 404
    )


def test_only_members_see_the_portfolio(client: Client, organisation: Organisation) -> None:
    _plan(organisation, "North", cost="100.00")
    url = reverse("portfolio:portfolio", args=[organisation.slug])
    assert client.get(url).status_code == 302  # to the login
    outsider = UserFactory.create()
    OrganisationMembershipFactory.create(user=outsider)  # of another organisation
    client.force_login(outsider)
    assert client.get(url).status_code == 404
    assert (
        client.get(reverse("portfolio:download", args=[organisation.slug, "csv"])).status_code
        == 404
    )


def test_the_organisation_links_to_its_portfolio(
    member: Client, organisation: Organisation
) -> None:
    page = member.get(reverse("organisations:members", args=[organisation.slug])).content.decode()
    assert f'href="/organisations/{organisation.slug}/portfolio/"' in page

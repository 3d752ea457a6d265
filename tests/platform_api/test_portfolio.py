"""`GET /api/v1/platform/portfolio` (docs/subsystems/portfolio.md "The API"): an organisation's
key reads its own portfolio only; a member's personal key names the organisation; paged by
number with the totals of every matching plan; the figures are the page's."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from apikeys.services import api_key_create
from organisations.models import Organisation, OrganisationRole
from planning.figures.funding import fund_figures
from planning.models import ActionKind, Fund, NodeKind, Plan
from tests.envelope import assert_envelope
from tests.factories import (
    ActionFactory,
    CodeFactory,
    OrganisationFactory,
    OrganisationMembershipFactory,
    PlanFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

Y = timezone.localdate().year


def _plan(organisation: Organisation, name: str, cost: str, debt: str = "0") -> Plan:
    plan = PlanFactory.create(organisation=organisation, name=name, price_base_year=Y)
    house = StructureNodeFactory.create(
        plan=plan,
        kind=NodeKind.BUILDING,
        gross_floor_area_m2=Decimal("100"),
        replacement_value=Decimal("10000"),
    )
    ActionFactory.create(node=house, planned_year=Y + 1, estimated_cost=Decimal(cost))
    if Decimal(debt):
        ActionFactory.create(node=house, planned_year=Y - 1, estimated_cost=Decimal(debt))
    return plan


def _get(raw: str, **params: Any) -> Any:
    return Client().get(
        "/api/v1/platform/portfolio", params, headers={"Authorization": f"Bearer {raw}"}
    )


def _data(response: Any, status: int = 200, key: str = "ok") -> Any:
    return assert_envelope(response, status, key)["data"]


@pytest.fixture
def organisation() -> Organisation:
    organisation = OrganisationFactory.create(api_access_enabled=True)
    _plan(organisation, "Block 2", "100.00", debt="500.00")
    _plan(organisation, "Block 10", "300.00")
    _plan(organisation, "Annex", "200.00", debt="3000.00")
    return organisation


def _service_key(organisation: Organisation) -> str:
    _key, raw = api_key_create(user=None, name="ERP", organisation=organisation)
    return raw


def test_an_organisations_key_reads_its_portfolio_paged_with_every_plans_totals(
    organisation: Organisation,
) -> None:
    raw = _service_key(organisation)
    first = _data(_get(raw, limit=2))
    numbers = sorted(
        Plan.objects.filter(organisation=organisation).values_list("number", flat=True)
    )
    assert [row["number"] for row in first["plans"]] == numbers[:2]
    assert (first["year_from"], first["year_to"], first["prices"]) == (Y, Y + 9, "today")
    (total,) = first["totals"]
    assert total == {
        "currency": "EUR",
        "plans": 3,
        "ten_year_cost": "600.00",
        "maintenance_debt": "3500.00",
        "fci_percent": "11.67",  # (5 % + 0 % + 30 %) / 3, each 100 m2
        "fci_band": "poor",
        "critical_open": 0,
        "years_over_budget": 0,
    }
    second = _data(_get(raw, limit=2, cursor=first["next_cursor"]))
    assert [row["number"] for row in second["plans"]] == numbers[2:]
    assert second["next_cursor"] is None
    assert second["totals"] == first["totals"]
    annex = next(row for row in first["plans"] + second["plans"] if row["name"] == "Annex")
    assert annex == {
        "number": annex["number"],
        "name": "Annex",
        "currency": "EUR",
        "ten_year_cost": "200.00",
        "maintenance_debt": "3000.00",
        "fci_percent": "30.00",
        "fci_band": "critical",
        "critical_open": 0,
        "years_over_budget": None,
        "percent_funded": None,  # no fund
    }


def test_a_plan_with_a_fund_shows_the_funding_tabs_percent_funded(
    organisation: Organisation,
) -> None:
    annex = Plan.objects.get(organisation=organisation, name="Annex")
    roof = StructureNodeFactory.create(
        plan=annex, install_year=Y - 10, code=CodeFactory.create(service_life_years=20)
    )
    ActionFactory.create(
        node=roof, kind=ActionKind.REPLACEMENT, planned_year=Y + 10, estimated_cost=Decimal("8000")
    )
    fund = Fund.objects.create(
        plan=annex, opening_balance=Decimal("1000.00"), start_year=Y, contribution=Decimal("500")
    )
    this_year = next(row for row in fund_figures(fund=fund).years if row.year == Y)
    assert this_year.percent_funded == Decimal("25.00")  # 1,000 of 8,000 x 10 / 20

    rows = _data(_get(_service_key(organisation)))["plans"]

    assert {row["name"]: row["percent_funded"] for row in rows} == {
        "Block 2": None,
        "Block 10": None,
        "Annex": "25.00",
    }


def test_the_name_filter_and_its_cursor(organisation: Organisation) -> None:
    raw = _service_key(organisation)
    data = _data(_get(raw, q="block", limit=1))
    assert [row["name"] for row in data["plans"]] == ["Block 2"]
    assert data["totals"][0]["plans"] == 2
    # a cursor belongs to its filters
    wrong = _get(raw, q="annex", cursor=data["next_cursor"])
    assert "cursor" in assert_envelope(wrong, 400, "validation.query")["data"]["errors"]
    too_long = _get(raw, q="x" * 201)
    assert "q" in assert_envelope(too_long, 400, "validation.query")["data"]["errors"]


def test_another_organisations_key_never_reads_its_plans(organisation: Organisation) -> None:
    other = OrganisationFactory.create(api_access_enabled=True)
    _plan(other, "Theirs", "1.00")
    raw = _service_key(other)
    data = _data(_get(raw))
    assert [row["name"] for row in data["plans"]] == ["Theirs"]
    assert data["organisation"]["slug"] == other.slug
    assert_envelope(_get(raw, organisation=organisation.slug), 404, "portfolio.not_found")


def test_a_members_personal_key_names_the_organisation(organisation: Organisation) -> None:
    member = UserFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=member, role=OrganisationRole.VIEWER
    )
    _key, raw = api_key_create(user=member, name="mine")
    missing = _get(raw)
    assert "organisation" in assert_envelope(missing, 400, "validation.query")["data"]["errors"]
    data = _data(_get(raw, organisation=organisation.slug))
    assert data["totals"][0]["plans"] == 3
    outsider = UserFactory.create()  # a member of another organisation with API access
    OrganisationMembershipFactory.create(
        organisation=OrganisationFactory.create(api_access_enabled=True), user=outsider
    )
    _key, outsiders = api_key_create(user=outsider, name="theirs")
    assert_envelope(_get(outsiders, organisation=organisation.slug), 404, "portfolio.not_found")
    assert_envelope(_get(raw, organisation="no-such-one"), 404, "portfolio.not_found")


def test_the_api_gives_the_pages_figures(organisation: Organisation) -> None:
    user = UserFactory.create()
    OrganisationMembershipFactory.create(organisation=organisation, user=user)
    client = Client()
    client.force_login(user)
    page = client.get(reverse("portfolio:portfolio", args=[organisation.slug]))
    shown = {
        row.plan.number: (str(row.figures.ten_year_cost), str(row.figures.debt))
        for row in page.context["portfolio"].rows
    }
    rows = _data(_get(_service_key(organisation)))["plans"]
    assert {row["number"]: (row["ten_year_cost"], row["maintenance_debt"]) for row in rows} == (
        shown
    )


def test_an_unchanged_portfolio_is_not_modified(organisation: Organisation) -> None:
    raw = _service_key(organisation)
    first = _get(raw)
    again = Client().get(
        "/api/v1/platform/portfolio",
        headers={"Authorization": f"Bearer {raw}", "If-None-Match": first["ETag"]},
    )
    assert again.status_code == 304
    _plan(organisation, "New", "1.00")
    changed = Client().get(
        "/api/v1/platform/portfolio",
        headers={"Authorization": f"Bearer {raw}", "If-None-Match": first["ETag"]},
    )
    assert changed.status_code == 200

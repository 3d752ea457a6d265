"""The facility condition index (docs/subsystems/portfolio.md "Facility condition index"): each
building's FCI and band against a recomputation written here, the bands at their edges, the
replacement value against the organisation's value per m2, and the plan's area-weighted FCI."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from fractions import Fraction
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from organisations.models import OrganisationRole
from planning.figures.condition_index import (
    building_condition,
    fci_band,
    plan_condition,
    plans_condition,
)
from planning.figures.key_figures import plan_key_figures
from planning.models import (
    ActionStatus,
    NodeKind,
    OrganisationCatalog,
    Plan,
    PlanRole,
    StructureNode,
)
from tests.factories import (
    ActionFactory,
    OrganisationFactory,
    OrganisationMembershipFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db

Y = timezone.localdate().year


def _building(plan: Plan, name: str, *, area: str | None = None, value: str | None = None) -> Any:
    return StructureNodeFactory.create(
        plan=plan,
        kind=NodeKind.BUILDING,
        name=name,
        gross_floor_area_m2=Decimal(area) if area else None,
        replacement_value=Decimal(value) if value else None,
    )


def _component(building: StructureNode, grade: int | None = None) -> Any:
    return StructureNodeFactory.create(plan=building.plan, parent=building, condition_grade=grade)


def _recomputed(plan: Plan, building: StructureNode, value: Decimal) -> Fraction:
    """The FCI from its definition: every live action of the building planned before Y, or on a
    component graded 3, once, at its estimated cost, over the replacement value."""
    need = sum(
        (
            action.estimated_cost
            for action in plan.actions.filter(node__building=building, status="planned")
            if action.planned_year < Y or action.node.condition_grade == 3
        ),
        Decimal(0),
    )
    return Fraction(need) / Fraction(value)


@pytest.fixture
def plan() -> Plan:
    return PlanFactory.create(price_base_year=Y)


def test_the_fci_counts_the_debt_and_the_actions_on_components_graded_3_once(plan: Plan) -> None:
    house = _building(plan, "House", area="100", value="100000")
    severe, fine = _component(house, 3), _component(house, 1)
    ActionFactory.create(node=fine, planned_year=Y - 1, estimated_cost=Decimal("1000.00"))  # debt
    ActionFactory.create(  # overdue and graded 3: counted once
        node=severe, planned_year=Y - 2, interval_years=5, estimated_cost=Decimal("300.00")
    )
    ActionFactory.create(node=severe, planned_year=Y + 4, estimated_cost=Decimal("700.00"))
    ActionFactory.create(node=fine, planned_year=Y + 1, estimated_cost=Decimal("5000.00"))  # no
    ActionFactory.create(  # done: never
        node=severe, planned_year=Y - 1, estimated_cost=Decimal("900"), status=ActionStatus.DONE
    )
    figures = plan_condition(plan=plan, year=Y).buildings[0]
    assert figures.debt == Decimal("1300.00")
    assert figures.severe == Decimal("700.00")
    assert figures.fci == _recomputed(plan, house, Decimal("100000")) == Fraction(2, 100)
    assert figures.fci_percent == Decimal("2.00")
    assert figures.band == "good"
    # the debt part is the key figures' maintenance debt of the building
    (keyed,) = plan_key_figures(plan=plan, year=Y).buildings
    assert keyed.debt == figures.debt


@pytest.mark.parametrize(
    ("need", "band"),
    [
        ("4999.99", "good"),
        ("5000.00", "fair"),
        ("9999.99", "fair"),
        ("10000.00", "poor"),
        ("29999.99", "poor"),
        ("30000.00", "critical"),
        ("0.00", "good"),
    ],
)
def test_the_bands_at_their_edges(plan: Plan, need: str, band: str) -> None:
    house = _building(plan, "House", value="100000")
    if Decimal(need):
        ActionFactory.create(
            node=_component(house), planned_year=Y - 1, estimated_cost=Decimal(need)
        )
    figures = building_condition(node=house, year=Y)
    assert figures is not None
    assert figures.fci == _recomputed(plan, house, Decimal("100000"))
    assert figures.band == band == fci_band(Fraction(Decimal(need)) / 100000)
    assert figures.fci_percent == (Decimal(need) / 1000).quantize(Decimal("0.01"))


def test_the_building_value_wins_over_the_value_per_m2(plan: Plan) -> None:
    plan.organisation.value_per_m2 = Decimal("2000.00")
    plan.organisation.save()
    OrganisationCatalog.objects.update_or_create(
        organisation=plan.organisation, defaults={"currency": plan.currency}
    )
    own = _building(plan, "Own", area="100", value="50000")
    by_area = _building(plan, "By area", area="100")
    none = _building(plan, "No area")
    for building in (own, by_area, none):
        ActionFactory.create(
            node=_component(building), planned_year=Y - 1, estimated_cost=Decimal("10000.00")
        )
    figures = {b.name: b for b in plan_condition(plan=plan, year=Y).buildings}
    assert figures["Own"].replacement_value == Decimal("50000")
    assert not figures["Own"].value_from_area
    assert figures["Own"].fci == Fraction(1, 5)
    assert figures["By area"].replacement_value == Decimal("200000.00")
    assert figures["By area"].value_from_area
    assert figures["By area"].fci == Fraction(1, 20)
    assert figures["By area"].band == "fair"
    assert figures["No area"].fci is None
    assert figures["No area"].band is None


def test_the_value_per_m2_is_not_used_in_another_currency(plan: Plan) -> None:
    plan.organisation.value_per_m2 = Decimal("2000.00")
    plan.organisation.save()
    OrganisationCatalog.objects.update_or_create(
        organisation=plan.organisation,
        defaults={"currency": "SEK" if plan.currency != "SEK" else "EUR"},
    )
    _building(plan, "By area", area="100")
    (figures,) = plan_condition(plan=plan, year=Y).buildings
    assert figures.replacement_value is None
    assert figures.fci is None


def test_the_plans_fci_is_area_weighted(plan: Plan) -> None:
    big = _building(plan, "Big", area="900", value="100000")
    small = _building(plan, "Small", area="100", value="10000")
    _building(plan, "No value", area="500")  # no FCI: left out of the weights
    _building(plan, "No area", value="100")  # an FCI, no area: left out too
    ActionFactory.create(node=_component(big), planned_year=Y - 1, estimated_cost=Decimal("2000"))
    ActionFactory.create(node=_component(small), planned_year=Y - 1, estimated_cost=Decimal("4000"))
    weights = plan_condition(plan=plan, year=Y).weights
    expected = (Fraction(2, 100) * 900 + Fraction(40, 100) * 100) / 1000
    assert weights.fci == expected
    assert weights.fci_percent == Decimal("5.80")
    assert weights.band == "fair"
    assert (weights.counted, weights.buildings) == (2, 4)


def test_many_plans_in_three_queries(django_assert_max_num_queries: Any) -> None:
    organisation = OrganisationFactory.create()
    plans = [PlanFactory.create(organisation=organisation) for _ in range(5)]
    for plan in plans:
        house = _building(plan, "House", area="10", value="1000")
        ActionFactory.create(node=_component(house, 3), planned_year=Y + 1)
    with django_assert_max_num_queries(3):
        found = plans_condition(plan_ids=[plan.pk for plan in plans], year=Y)
    assert {plan.pk: found[plan.pk].buildings[0].fci for plan in plans} == {
        plan.pk: Fraction(1) for plan in plans
    }


def test_the_buildings_page_and_the_budget_export_show_the_fci(client: Any, user: Any) -> None:
    plan = PlanFactory.create(price_base_year=Y)
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    house = _building(plan, "House", area="100", value="100000")
    ActionFactory.create(
        node=_component(house), planned_year=Y - 1, estimated_cost=Decimal("10000.00")
    )
    client.force_login(user)

    page = client.get(reverse("planning:node_detail", args=[plan.number, house.pk]))
    assert b'data-figure="fci">10.00 %' in page.content
    assert b'data-band="poor"' in page.content

    export = client.get(reverse("planning:export_budget", args=[plan.number, "csv"]))
    rows = list(csv.reader(io.StringIO(b"".join(export.streaming_content).decode("utf-8-sig"))))
    header, house_row = rows[0], next(row for row in rows if row[0] == "House")
    assert header[5].startswith("FCI %") and header[6] == "FCI band"
    assert (house_row[5], house_row[6]) == ("10.00", "poor")


def test_an_admin_sets_the_value_per_m2_in_the_catalogs_currency(client: Any, user: Any) -> None:
    organisation = OrganisationFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=user, role=OrganisationRole.ADMIN
    )
    OrganisationCatalog.objects.update_or_create(
        organisation=organisation, defaults={"currency": "SEK"}
    )
    client.force_login(user)
    url = reverse("catalog:value_per_m2", args=[organisation.slug])

    refused = client.post(url, {"value-value_per_m2": "0"})
    assert refused.status_code == 400
    assert "Enter a value above 0." in refused.content.decode()
    assert "Building value per m² (SEK)" in refused.content.decode()
    assert client.post(url, {"value-value_per_m2": "abc"}).status_code == 400
    organisation.refresh_from_db()
    assert organisation.value_per_m2 is None

    saved = client.post(url, {"value-value_per_m2": "25000.50"}, follow=True)
    assert "Building value per m² set to 25000.50 SEK." in saved.content.decode()
    organisation.refresh_from_db()
    assert organisation.value_per_m2 == Decimal("25000.50")

    client.post(url, {"value-value_per_m2": ""})
    organisation.refresh_from_db()
    assert organisation.value_per_m2 is None


def test_a_planner_cannot_set_the_value_per_m2(client: Any, user: Any) -> None:
    organisation = OrganisationFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=user, role=OrganisationRole.PLANNER
    )
    client.force_login(user)
    url = reverse("catalog:value_per_m2", args=[organisation.slug])
    assert client.post(url, {"value-value_per_m2": "100"}).status_code == 403
    organisation.refresh_from_db()
    assert organisation.value_per_m2 is None

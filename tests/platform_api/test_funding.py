"""A plan's funding over the API (platform_api.endpoints.funding): the fund and scenarios with
their yearly figures as the Funding tab's figures give them, the goals solved, 304 on an
unchanged plan, a new ETag after a change, and another organisation's key told the plan does
not exist."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from apikeys.services import api_access_set, api_key_create
from planning.figures.funding import fund_figures, scenario_figures
from planning.models import ActionKind, Fund, FundingScenario, Plan, PlanRole
from planning.plans.services.funding import fund_save
from tests.envelope import assert_envelope
from tests.factories import (
    ActionFactory,
    CodeFactory,
    OrganisationMembershipFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def _client_of(user: Any) -> Any:
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="erp")
    client = Client()

    def get(path: str, **headers: str) -> Any:
        return client.get(
            f"/api/v1/platform/{path}", headers={"Authorization": f"Bearer {raw}", **headers}
        )

    return get


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(price_base_year=2026, index_rate_percent=Decimal("3"))
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    code = CodeFactory.create(service_life_years=20)
    node = StructureNodeFactory.create(plan=plan, code=code, install_year=2012)
    ActionFactory.create(
        node=node, kind=ActionKind.REPLACEMENT, planned_year=2030, estimated_cost=Decimal(8000)
    )
    return plan


def test_the_fund_and_scenarios_with_their_yearly_figures(user: Any, plan: Plan) -> None:
    api = _client_of(user)
    empty = assert_envelope(api(f"plans/{plan.number}/funding"), 200, "ok")["data"]
    assert empty == {"currency": plan.currency, "scenarios": []}

    fund = Fund.objects.create(
        plan=plan,
        opening_balance=Decimal("500.00"),
        start_year=2026,
        contribution=Decimal("700.00"),
        contribution_increase_percent=Decimal("2.5"),
        horizon_years=12,
        threshold_percent=Decimal(50),
    )
    scenario = FundingScenario.objects.create(
        plan=plan, name="Full", goal="full", start_year=2026, index_rate_percent=Decimal(0)
    )
    Plan.objects.filter(pk=plan.pk).update(data_version=plan.data_version + 1)
    data = assert_envelope(api(f"plans/{plan.number}/funding"), 200, "ok")["data"]
    expected = fund_figures(fund=fund)
    shown = data["fund"]["figures"]
    assert data["fund"]["settings"]["contribution_increase_percent"] == "2.50"
    assert [row["year"] for row in shown["years"]] == list(range(2026, 2038))
    assert [row["balance"] for row in shown["years"]] == [
        f"{Decimal(row.balance_cents) / 100:.2f}" for row in expected.years
    ]
    assert shown["lowest_balance_year"] == expected.summary.lowest_year
    assert [(g["goal"], g["increase_percent"]) for g in shown["goals"]] == [
        ("baseline", "0.00"),
        ("baseline", "2.50"),
        ("threshold_percent", "0.00"),
        ("threshold_percent", "2.50"),
        ("full", "0.00"),
        ("full", "2.50"),
    ]
    solved = scenario_figures(scenario=scenario).solved
    assert solved is not None and solved.contribution_cents is not None
    (only,) = data["scenarios"]
    assert only["settings"]["name"] == "Full"
    assert only["settings"]["contribution"] is None
    assert only["solved"]["contribution"] == f"{Decimal(solved.contribution_cents) / 100:.2f}"
    assert only["solved"]["met"] is True


def test_an_unchanged_plan_answers_304_and_a_change_gives_a_new_etag(user: Any, plan: Plan) -> None:
    api = _client_of(user)
    first = api(f"plans/{plan.number}/funding")
    etag = first["ETag"]
    assert api(f"plans/{plan.number}/funding", **{"If-None-Match": etag}).status_code == 304
    fund_save(plan=plan, values={"opening_balance": Decimal(10), "start_year": 2026})
    changed = api(f"plans/{plan.number}/funding", **{"If-None-Match": etag})
    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert assert_envelope(changed, 200, "ok")["data"]["fund"]["settings"]["opening_balance"] == (
        "10.00"
    )


def test_another_organisations_key_is_told_the_plan_does_not_exist(plan: Plan) -> None:
    Fund.objects.create(plan=plan, opening_balance=Decimal(1), start_year=2026)
    stranger = UserFactory.create()
    OrganisationMembershipFactory.create(user=stranger)
    api = _client_of(stranger)
    assert_envelope(api(f"plans/{plan.number}/funding"), 404, "plans.not_found")
    assert_envelope(api("plans/abc/funding"), 400, "validation.plan_number")

"""The Funding tab (docs/subsystems/funding.md): the fund's form (editors; viewers read), its
yearly table, goals and chart as the figures give them, scenarios compared side by side, the
CSV and XLSX downloads, and bad input refused with its message and nothing saved."""

from __future__ import annotations

import csv
import io
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from planning.figures.funding import fund_figures, scenario_figures
from planning.models import ActionKind, Fund, FundingScenario, HistoryEntry, Plan, PlanRole
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)
from tests.planning.workbooks import workbook_sheets

pytestmark = pytest.mark.django_db

FUND = {
    "fund-opening_balance": "1000.00",
    "fund-start_year": "2026",
    "fund-interest_percent": "1.5",
    "fund-contribution": "2500.00",
    "fund-contribution_increase_percent": "2",
    "fund-horizon_years": "30",
    "fund-threshold_amount": "",
    "fund-threshold_percent": "",
}


def _scenario(name: str, **values: str) -> dict[str, str]:
    return {
        "scenario-name": name,
        "scenario-opening_balance": "0",
        "scenario-start_year": "2026",
        "scenario-interest_percent": "0",
        "scenario-contribution": values.get("contribution", ""),
        "scenario-contribution_increase_percent": "0",
        "scenario-goal": values.get("goal", ""),
        "scenario-goal_threshold": values.get("threshold", ""),
        "scenario-horizon_years": values.get("horizon", "30"),
        "scenario-index_rate_percent": values.get("index", ""),
        "scenario-annual_budget": "",
    }


@pytest.fixture
def plan() -> Plan:
    plan = PlanFactory.create(price_base_year=2026, index_rate_percent=Decimal(2), currency="EUR")
    code = CodeFactory.create(service_life_years=25)
    for position, (year, cost) in enumerate([(2028, "40000"), (2031, "125000"), (2040, "9000")]):
        node = StructureNodeFactory.create(plan=plan, code=code, install_year=2005 + position)
        ActionFactory.create(
            node=node, kind=ActionKind.REPLACEMENT, planned_year=year, estimated_cost=Decimal(cost)
        )
    StructureNodeFactory.create(plan=plan, name="Lift without a year")
    lift = StructureNodeFactory.create(plan=plan, name="Lift", code=code)
    ActionFactory.create(node=lift, kind=ActionKind.REPLACEMENT, planned_year=2035)
    return plan


def _member(plan: Plan, role: str) -> Client:
    membership = PlanMembershipFactory.create(plan=plan, role=role)
    client = Client()
    client.force_login(membership.user)
    return client


def test_an_editor_saves_the_fund_and_sees_its_years_and_goals(plan: Plan) -> None:
    client = _member(plan, PlanRole.EDITOR)
    url = reverse("planning:funding", args=[plan.number])
    assert "This plan has no fund yet" in client.get(url).content.decode()
    response = client.post(reverse("planning:fund_save", args=[plan.number]), FUND)
    assert response.status_code == 302
    fund = Fund.objects.get(plan=plan)
    assert fund.contribution == Decimal("2500.00")
    page = client.get(url)
    figures = fund_figures(fund=fund)
    html = page.content.decode()
    assert [row.year for row in page.context["figures"].years] == list(range(2026, 2056))
    assert page.context["figures"].years == figures.years
    # The figures say their years and prices; the lowest balance its year.
    assert "2026\u20132055, nominal: 2026 prices indexed 2" in html
    lowest = figures.summary
    assert f"at the end of {lowest.lowest_year}" in html
    # The goals, for a constant contribution and one rising as the fund's does.
    assert "Baseline: the balance never below zero" in html
    assert "Contribution, rising 2" in html
    # The component without a year is listed as left out.
    assert "Lift</a>: no install year and no completed replacement" in html
    assert "<svg" in html


def test_a_viewer_reads_the_fund_and_cannot_change_it(plan: Plan) -> None:
    Fund.objects.create(plan=plan, opening_balance=Decimal(5), start_year=2026)
    client = _member(plan, PlanRole.VIEWER)
    html = client.get(reverse("planning:funding", args=[plan.number])).content.decode()
    assert 'id="fund-form"' not in html
    assert "5.00\xa0EUR at the start of 2026" in html
    response = client.post(reverse("planning:fund_save", args=[plan.number]), FUND)
    assert response.status_code == 403
    assert Fund.objects.get(plan=plan).opening_balance == Decimal(5)


def test_bad_fund_settings_are_refused_with_their_message(plan: Plan) -> None:
    client = _member(plan, PlanRole.EDITOR)
    bad = {**FUND, "fund-horizon_years": "41", "fund-interest_percent": "abc"}
    response = client.post(reverse("planning:fund_save", args=[plan.number]), bad)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Enter a number of years from 10 to 40." in html
    assert "Enter a number." in html
    assert not Fund.objects.filter(plan=plan).exists()


def test_scenarios_are_compared_side_by_side_and_downloaded(plan: Plan) -> None:
    client = _member(plan, PlanRole.EDITOR)
    create = reverse("planning:scenario_create", args=[plan.number])
    assert client.post(create, _scenario("Steady", contribution="9000")).status_code == 302
    assert client.post(create, _scenario("Baseline", goal="baseline")).status_code == 302
    # A threshold goal without its threshold, a name taken: refused, nothing added.
    refused = client.post(create, _scenario("Thin", goal="threshold_amount"))
    assert refused.status_code == 400
    assert "A threshold goal needs its threshold." in refused.content.decode()
    taken = client.post(create, _scenario("steady", contribution="1"))
    assert "The plan has a scenario named “steady”." in taken.content.decode()
    assert FundingScenario.objects.filter(plan=plan).count() == 2

    page = client.get(reverse("planning:funding", args=[plan.number]))
    html = page.content.decode()
    solved = scenario_figures(scenario=FundingScenario.objects.get(name="Baseline"))
    assert solved.solved is not None and solved.solved.contribution_cents is not None
    assert [s.name for s, _ in page.context["compared"]] == ["Baseline", "Steady"]
    assert "Percent funded, year 20" in html
    assert "Total contributions" in html

    export = reverse("planning:funding_export", args=[plan.number, "csv"])
    body = b"".join(client.get(export).streaming_content).decode("utf-8-sig")  # type: ignore[attr-defined]
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:3] == ["flow", "year", "contribution"]
    baseline = [row for row in rows[1:] if row[0] == "Baseline"]
    assert [Decimal(row[5]) for row in baseline] == [
        Decimal(row.balance_cents) / 100 for row in solved.years
    ]
    workbook = client.get(reverse("planning:funding_export", args=[plan.number, "xlsx"]))
    sheets = workbook_sheets(b"".join(workbook.streaming_content))  # type: ignore[attr-defined]
    assert {"Baseline", "Steady", "Comparison"} <= set(sheets)


def test_more_than_four_scenarios_cannot_be_compared(plan: Plan) -> None:
    client = _member(plan, PlanRole.VIEWER)
    ids = [
        str(
            FundingScenario.objects.create(
                plan=plan, name=f"S{n}", contribution=Decimal(n), start_year=2026
            ).pk
        )
        for n in range(5)
    ]
    page = client.get(reverse("planning:funding", args=[plan.number]), {"compare": ids})
    assert "Choose at most 4 scenarios to compare." in page.content.decode()
    assert len(page.context["compared"]) == 4


def test_another_plans_scenario_is_not_found(plan: Plan) -> None:
    other = PlanFactory.create()
    scenario = FundingScenario.objects.create(plan=other, name="Theirs", contribution=Decimal(1))
    client = _member(plan, PlanRole.EDITOR)
    url = reverse("planning:scenario_edit", args=[plan.number, scenario.pk])
    assert client.get(url).status_code == 404
    delete = reverse("planning:scenario_delete", args=[plan.number, scenario.pk])
    assert client.post(delete).status_code == 404
    assert FundingScenario.objects.filter(pk=scenario.pk).exists()


def test_a_scenario_is_edited_and_deleted(plan: Plan) -> None:
    scenario = FundingScenario.objects.create(
        plan=plan, name="Old", contribution=Decimal(1), start_year=2026
    )
    client = _member(plan, PlanRole.EDITOR)
    url = reverse("planning:scenario_edit", args=[plan.number, scenario.pk])
    assert client.post(url, _scenario("New", contribution="12", horizon="12")).status_code == 302
    scenario.refresh_from_db()
    assert (scenario.name, scenario.contribution, scenario.horizon_years) == ("New", 12, 12)
    client.post(reverse("planning:scenario_delete", args=[plan.number, scenario.pk]))
    assert not FundingScenario.objects.filter(pk=scenario.pk).exists()


def test_the_history_records_fund_and_scenario_changes(plan: Plan) -> None:
    client = _member(plan, PlanRole.EDITOR)
    client.post(reverse("planning:fund_save", args=[plan.number]), FUND)
    client.post(
        reverse("planning:fund_save", args=[plan.number]),
        {**FUND, "fund-contribution": "3000.00"},
    )
    client.post(
        reverse("planning:scenario_create", args=[plan.number]),
        _scenario("Steady", contribution="9000"),
    )
    entries = list(
        HistoryEntry.objects.filter(plan_id=plan.pk, entity__in=["fund", "scenario"]).order_by("id")
    )
    assert [(e.entity, e.operation) for e in entries] == [
        ("fund", "create"),
        ("fund", "update"),
        ("scenario", "create"),
    ]
    # Numbers as each database writes them in JSON (2500 on SQLite, 2500.00 on PostgreSQL).
    assert entries[1].changes == {"contribution": [2500, 3000]}
    assert entries[1].actor_kind == "user"
    html = client.get(reverse("planning:plan_history", args=[plan.number])).content.decode()
    assert "Funding scenario “Steady” added" in html
    assert "Contribution" in html


def test_a_viewer_reads_a_scenario_without_a_form(plan: Plan) -> None:
    scenario = FundingScenario.objects.create(
        plan=plan, name="Read me", contribution=Decimal(7), start_year=2026
    )
    client = _member(plan, PlanRole.VIEWER)
    page = client.get(reverse("planning:scenario_edit", args=[plan.number, scenario.pk]))
    html = page.content.decode()
    assert page.status_code == 200
    assert 'id="scenario-form"' not in html and "Delete this scenario" not in html
    assert "Read me" in html

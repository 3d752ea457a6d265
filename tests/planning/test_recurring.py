"""Recurring actions (docs/subsystems/money.md "Recurring actions"): every per-year figure counts
each occurrence, Mark done records a Completion and moves a recurring action to its next occurrence,
the
actions list shows the interval and the next years."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.figures.budget import plan_budget
from planning.figures.prices import NOMINAL
from planning.models import Action, ActionKind, ActionStatus, Completion, NodeKind, Plan, PlanRole
from planning.plans.action_filters import ActionFilters, actions_filtered
from planning.plans.services.actions import action_done_undo, action_mark_done
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(price_base_year=2026)
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    return plan


@pytest.fixture
def house(plan: Plan) -> Any:
    return StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")


@pytest.fixture
def owner_client(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


# --- per-year figures -------------------------------------------------------------------------


def test_the_budget_counts_every_occurrence_inside_the_range_and_none_outside(
    plan: Plan, house: Any
) -> None:
    ActionFactory.create(
        node=house, planned_year=2024, interval_years=3, estimated_cost=Decimal("10.00")
    )  # 2027, 2030 in the range
    ActionFactory.create(
        node=house,
        planned_year=2028,
        interval_years=2,
        estimated_cost=Decimal("1.00"),
        kind=ActionKind.INSPECTION,
    )  # 2028, 2030
    ActionFactory.create(node=house, planned_year=2031, interval_years=1)  # after the range
    ActionFactory.create(
        node=house,
        planned_year=2027,
        interval_years=1,
        estimated_cost=Decimal("500.00"),
        status=ActionStatus.DONE,
    )

    budget = plan_budget(plan=plan, year_from=2026, year_to=2030)

    assert budget.rows[0].cells == [
        Decimal("0.00"),
        Decimal("10.00"),
        Decimal("1.00"),
        Decimal("0.00"),
        Decimal("11.00"),
    ]
    assert budget.rows[0].counts == [0, 1, 1, 0, 2]
    inspections = next(s for s in budget.by_kind if s.label == "Inspection")
    assert inspections.values == [Decimal(0), Decimal(0), Decimal(1), Decimal(0), Decimal(1)]
    assert budget.total == Decimal("22.00")


def test_nominal_prices_index_each_occurrence_by_its_own_year(plan: Plan, house: Any) -> None:
    Plan.objects.filter(pk=plan.pk).update(index_rate_percent=Decimal("10"))
    plan.refresh_from_db()
    ActionFactory.create(
        node=house, planned_year=2026, interval_years=2, estimated_cost=Decimal("100.00")
    )

    budget = plan_budget(plan=plan, year_from=2026, year_to=2030, prices=NOMINAL)

    # 100, 100 x 1.1^2, 100 x 1.1^4 = 146.41
    assert budget.year_totals == [
        Decimal("100.00"),
        Decimal("0.00"),
        Decimal("121.00"),
        Decimal("0.00"),
        Decimal("146.41"),
    ]


def test_the_actions_year_filter_finds_a_recurring_action_by_its_occurrences(
    plan: Plan, house: Any
) -> None:
    every_four = ActionFactory.create(
        node=house, title="Every four", planned_year=2020, interval_years=4
    )
    ActionFactory.create(node=house, title="One-off", planned_year=2025)

    def titles(**filters: Any) -> list[str]:
        return sorted(
            a.title for a in actions_filtered(plan=plan, filters=ActionFilters(**filters))
        )

    assert titles(year_from=2028, year_to=2028) == ["Every four"]  # 2020 + 2 x 4
    assert titles(year_from=2029, year_to=2031) == []
    assert titles(year_from=2026) == ["Every four"]
    assert titles(year_to=2019) == []
    assert titles(year_from=2024, year_to=2025) == ["Every four", "One-off"]
    assert every_four.interval_years == 4


# --- Mark done --------------------------------------------------------------------------------


def test_mark_done_moves_a_recurring_action_to_its_next_occurrence(
    plan: Plan, house: Any, user: Any
) -> None:
    action = ActionFactory.create(node=house, planned_year=2024, interval_years=5)

    completion = action_mark_done(action=action, by=user, completed_on=datetime.date(2026, 3, 1))

    action.refresh_from_db()
    assert (action.status, action.planned_year) == (ActionStatus.PLANNED, 2031)
    assert (completion.completed_on, completion.planned_year, completion.by) == (
        datetime.date(2026, 3, 1),
        2024,
        user,
    )
    assert completion.actual_cost is None


def test_mark_done_sets_a_one_off_action_done_with_a_completion(plan: Plan, house: Any) -> None:
    action = ActionFactory.create(node=house, planned_year=2027)

    action_mark_done(action=action, actual_cost=Decimal("12.50"))

    action.refresh_from_db()
    assert action.status == ActionStatus.DONE and action.planned_year == 2027
    assert list(Completion.objects.values_list("action_id", "actual_cost")) == [
        (action.pk, Decimal("12.50"))
    ]


def test_undo_of_mark_done_gives_the_year_back_and_forgets_the_completion(
    plan: Plan, house: Any
) -> None:
    action = ActionFactory.create(node=house, planned_year=2024, interval_years=5)
    action_mark_done(action=action)

    action_done_undo(action=action)

    action.refresh_from_db()
    assert (action.status, action.planned_year) == (ActionStatus.PLANNED, 2024)
    assert not Completion.objects.exists()


def test_mark_done_in_the_list_says_when_it_comes_again_and_undo_moves_it_back(
    owner_client: Client, plan: Plan, house: Any, user: Any
) -> None:
    action = ActionFactory.create(
        node=house, title="Clean gutters", planned_year=2025, interval_years=2
    )
    next_year = timezone.localdate().year + 2

    response = owner_client.post(
        reverse("planning:action_done", args=[plan.number, action.pk]), follow=True
    )

    page = response.content.decode()
    assert f"Action “Clean gutters” marked done; it comes again in {next_year}." in page
    action.refresh_from_db()
    assert action.planned_year == next_year and action.status == ActionStatus.PLANNED
    assert Completion.objects.get().by == user
    undo = re.search(r'<form method="post" action="([^"]+)" class="inline undo">', page)
    assert undo is not None
    owner_client.post(undo.group(1))
    action.refresh_from_db()
    assert action.planned_year == 2025 and not Completion.objects.exists()


def test_mark_done_twice_on_a_one_off_action_says_so_and_keeps_one_completion(
    owner_client: Client, plan: Plan, house: Any
) -> None:
    action = ActionFactory.create(node=house, planned_year=2027)
    url = reverse("planning:action_done", args=[plan.number, action.pk])
    owner_client.post(url)

    response = owner_client.post(url, follow=True)

    assert response.status_code == 200
    assert "Only a planned action can be marked done." in response.content.decode()
    assert Completion.objects.count() == 1


# --- the actions list and form ----------------------------------------------------------------


def test_the_actions_list_shows_the_interval_and_the_next_years(
    owner_client: Client, plan: Plan, house: Any
) -> None:
    ActionFactory.create(node=house, title="Service boiler", planned_year=2027, interval_years=5)
    ActionFactory.create(node=house, title="Paint", planned_year=2027)

    html = owner_client.get(reverse("planning:plan_actions", args=[plan.number])).content.decode()

    row = re.search(r"<tr data-action-id[^>]*>(?:(?!</tr>).)*Service boiler.*?</tr>", html, re.S)
    assert row is not None
    assert "every 5 years" in row.group(0) and "next 2027, 2032, 2037…" in row.group(0)
    paint = re.search(r"<tr data-action-id[^>]*>(?:(?!</tr>).)*Paint.*?</tr>", html, re.S)
    assert paint is not None and "every" not in paint.group(0)


def _action_post(client: Client, plan: Plan, house: Any, interval: str) -> Any:
    return client.post(
        reverse("planning:action_create", args=[plan.number]),
        {
            "action-node": str(house.pk),
            "action-title": "Inspect roof",
            "action-kind": "inspection",
            "action-planned_year": "2027",
            "action-interval_years": interval,
            "action-estimated_cost": "300",
        },
    )


def test_an_action_is_added_with_an_interval(owner_client: Client, plan: Plan, house: Any) -> None:
    response = _action_post(owner_client, plan, house, "4")

    assert response.status_code == 302
    assert Action.objects.get().interval_years == 4


@pytest.mark.parametrize("interval", ["0", "101", "2.5"])
def test_an_interval_outside_1_to_100_years_is_refused(
    owner_client: Client, plan: Plan, house: Any, interval: str
) -> None:
    response = _action_post(owner_client, plan, house, interval)

    assert response.status_code == 200
    message = (
        "Enter a whole number."
        if interval == "2.5"
        else "Enter a whole number of years between 1 and 100."
    )
    assert message in response.content.decode()
    assert not Action.objects.exists()

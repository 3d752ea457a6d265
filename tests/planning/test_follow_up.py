"""Follow-up (docs/subsystems/follow-up.md "Follow-up"): Mark done with a date and an actual cost,
the actions list showing planned and actual side by side, and the Follow-up tab's figures against a
recomputation from the actions and their completions."""

from __future__ import annotations

import csv
import datetime
import io
import random
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.figures.follow_up import plan_follow_up
from planning.figures.occurrences import occurrence_years
from planning.models import ActionStatus, Completion, NodeKind, Plan, PlanRole
from planning.plans.services.actions import action_cancel, action_mark_done
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db

TODAY = timezone.localdate()
THIS_YEAR = TODAY.year


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(price_base_year=THIS_YEAR)
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    return plan


@pytest.fixture
def house(plan: Plan) -> Any:
    return StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")


def _done_url(action: Any) -> str:
    return reverse(
        "planning:action_done", kwargs={"number": action.plan.number, "action_id": action.pk}
    )


def test_mark_done_records_the_date_the_actual_cost_and_the_estimate(
    client: Client, user: Any, house: Any
) -> None:
    action = ActionFactory.create(node=house, planned_year=THIS_YEAR, estimated_cost=Decimal(900))
    client.force_login(user)
    done_on = TODAY - datetime.timedelta(days=3)
    response = client.post(
        _done_url(action), {"completed_on": done_on.isoformat(), "actual_cost": "1040.50"}
    )
    assert response.status_code == 302
    completion = Completion.objects.get(action=action)
    assert (completion.completed_on, completion.actual_cost, completion.estimated_cost) == (
        done_on,
        Decimal("1040.50"),
        Decimal("900.00"),
    )
    assert completion.by == user
    page = client.get(reverse("planning:plan_actions", args=[action.plan.number])).content.decode()
    assert "1,040.50\u00a0EUR" in page and f"done {done_on:%Y-%m-%d}" in page


def test_mark_done_without_fields_means_today_and_no_actual_cost(
    client: Client, user: Any, house: Any
) -> None:
    action = ActionFactory.create(node=house, planned_year=THIS_YEAR)
    client.force_login(user)
    client.post(_done_url(action))
    completion = Completion.objects.get(action=action)
    assert (completion.completed_on, completion.actual_cost) == (TODAY, None)
    page = client.get(reverse("planning:plan_actions", args=[action.plan.number])).content.decode()
    assert "not recorded" in page


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        (
            {"completed_on": (TODAY + datetime.timedelta(days=1)).isoformat()},
            f"Completed on: Enter a date no later than today ({TODAY.isoformat()}).",
        ),
        ({"completed_on": "1949-12-31"}, "Completed on: Enter a date from 1950-01-01 on."),
        ({"completed_on": "yesterday"}, "Completed on: Enter a valid date."),
        ({"actual_cost": "-5"}, "Actual cost: Cannot be negative."),
        ({"actual_cost": "lots"}, "Actual cost: Enter a number."),
    ],
)
def test_a_bad_completion_is_refused_with_its_reason_and_nothing_recorded(
    client: Client, user: Any, house: Any, fields: dict[str, str], message: str
) -> None:
    action = ActionFactory.create(node=house, planned_year=THIS_YEAR)
    client.force_login(user)
    response = client.post(_done_url(action), fields, follow=True)
    text = response.content.decode()
    assert "was not marked done" in text and message in text
    assert not Completion.objects.exists()
    action.refresh_from_db()
    assert action.status == ActionStatus.PLANNED


def test_the_follow_up_equals_a_recomputation_from_the_actions(plan: Plan, user: Any) -> None:
    rng = random.Random(7)
    buildings = [
        StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name=f"House {n}")
        for n in range(3)
    ]
    first, last = THIS_YEAR - 4, THIS_YEAR
    actions = []
    for _ in range(40):
        actions.append(
            ActionFactory.create(
                node=rng.choice(buildings),
                planned_year=rng.randint(first - 2, last + 2),
                interval_years=rng.choice([None, None, 2, 3]),
                estimated_cost=Decimal(rng.randint(100, 5000)),
            )
        )
    for action in actions[:25]:
        if action.planned_year > last:
            continue
        action_mark_done(
            action=action,
            by=user,
            # 1 June, or today in a year's first months: work is never completed later.
            completed_on=min(datetime.date(rng.randint(first, last), 6, 1), TODAY),
            actual_cost=rng.choice([None, Decimal(rng.randint(50, 6000))]),
        )
    action_cancel(action=actions[30])

    figures = plan_follow_up(plan=plan, year_from=first, year_to=last)

    # The recomputation: occurrences of the live actions, then every completion.
    expected: dict[int, dict[str, Any]] = {
        year: {"planned": Decimal(0), "done": 0, "actual": Decimal(0), "variance": Decimal(0)}
        for year in range(first, last + 1)
    }
    for action in plan.actions.filter(status=ActionStatus.PLANNED):
        for year in occurrence_years(
            planned_year=action.planned_year,
            interval_years=action.interval_years,
            first=first,
            last=last,
        ):
            expected[year]["planned"] += action.estimated_cost
    for completion in Completion.objects.filter(action__plan=plan):
        if first <= completion.planned_year <= last:
            expected[completion.planned_year]["planned"] += completion.estimated_cost or 0
        year = completion.completed_on.year
        expected[year]["done"] += 1
        if completion.actual_cost is not None:
            expected[year]["actual"] += completion.actual_cost
            expected[year]["variance"] += completion.actual_cost - (completion.estimated_cost or 0)
    got = {
        int(row.label): {
            "planned": row.planned,
            "done": row.done,
            "actual": row.actual,
            "variance": row.variance or Decimal(0),
        }
        for row in figures.years
    }
    assert got == expected
    assert figures.total.planned == sum(e["planned"] for e in expected.values())
    assert sum(row.planned for row in figures.buildings) == figures.total.planned
    assert sum(row.done for row in figures.buildings) == figures.total.done
    assert sum(row.actual for row in figures.buildings) == figures.total.actual


def test_the_follow_up_tab_shows_a_year_and_a_building(
    client: Client, user: Any, plan: Plan, house: Any
) -> None:
    action = ActionFactory.create(
        node=house, planned_year=THIS_YEAR, estimated_cost=Decimal("1000.00")
    )
    action_mark_done(action=action, by=user, actual_cost=Decimal("1250.00"))
    client.force_login(user)
    page = client.get(reverse("planning:follow_up", args=[plan.number])).content.decode()
    assert f"Follow-up {THIS_YEAR - 4}\u2013{THIS_YEAR}" in page
    assert "+250.00" in page and "(+25.0 %)" in page
    assert '<th scope="row">House</th>' in page
    bad = client.get(
        reverse("planning:follow_up", args=[plan.number]), {"year_from": "2030", "year_to": "2020"}
    )
    assert bad.status_code == 200
    assert "The last year comes before the first." in bad.content.decode()


def test_the_actions_export_has_the_estimate_and_the_actual_cost_side_by_side(
    client: Client, user: Any, house: Any
) -> None:
    action = ActionFactory.create(
        node=house, title="Paint", planned_year=THIS_YEAR, estimated_cost=Decimal("800.00")
    )
    action_mark_done(action=action, by=user, actual_cost=Decimal("910.00"))
    client.force_login(user)
    url = reverse("planning:export_actions", args=[action.plan.number, "csv"])
    rows = list(csv.reader(io.StringIO(client.get(url).getvalue().decode("utf-8-sig"))))
    header, row = rows[0], rows[1]
    got = dict(zip(header, row, strict=True))
    assert Decimal(got["Estimated cost (EUR, today's prices)"]) == Decimal("800")
    assert got["Completed on"] == TODAY.isoformat()
    assert Decimal(got["Actual cost (EUR)"]) == Decimal("910")


def test_the_planning_page_shows_this_years_planned_and_actual(
    client: Client, user: Any, plan: Plan, house: Any
) -> None:
    action = ActionFactory.create(
        node=house, planned_year=THIS_YEAR, estimated_cost=Decimal("1000.00")
    )
    ActionFactory.create(node=house, planned_year=THIS_YEAR, estimated_cost=Decimal("500.00"))
    client.force_login(user)
    url = reverse("planning:action_planning", args=[plan.number])
    assert "planned 1,500.00\u00a0EUR; 0 actions done" in client.get(url).content.decode()
    action_mark_done(action=action, by=user, actual_cost=Decimal("1100.00"))
    page = client.get(url).content.decode()
    assert "planned 1,500.00\u00a0EUR; 1 action done, estimated at 1,000.00\u00a0EUR" in page
    assert "actual cost 1,100.00\u00a0EUR (+100.00\u00a0EUR on the 1 with a recorded cost)" in page

"""The condition filter of the Structure and Actions tabs (issue 23 point 1): components by
their condition grade, or not assessed; on the Actions tab the actions on such components, and
its exports keep the filter."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planning.models import NodeKind, Plan, PlanRole
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

GRADES = {"Roof": 3, "Facade": 2, "Windows": 1, "Doors": 0, "Lift": None}


def _plan(user: Any) -> Plan:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    for name, grade in GRADES.items():
        node = StructureNodeFactory.create(
            plan=plan, parent=house, kind=NodeKind.COMPONENT, name=name, condition_grade=grade
        )
        ActionFactory.create(node=node, title=f"Fix the {name.lower()}")
    return plan


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("condition", "expected"),
    [
        ("3", {"Roof"}),
        ("2+", {"Roof", "Facade"}),
        ("1+", {"Roof", "Facade", "Windows"}),
        ("0", {"Doors"}),
        ("none", {"Lift"}),
    ],
)
def test_the_condition_filters_pick_the_components_and_their_actions(
    client: Client, user: Any, condition: str, expected: set[str]
) -> None:
    plan = _plan(user)
    client.force_login(user)

    structure = client.get(
        reverse("planning:plan_detail", args=[plan.number]), {"condition": condition}
    ).content.decode()
    actions = client.get(
        reverse("planning:plan_actions", args=[plan.number]), {"condition": condition}
    ).content.decode()
    export = client.get(
        reverse("planning:export_actions", args=[plan.number, "csv"]), {"condition": condition}
    )

    assert {name for name in GRADES if f">{name}</a>" in structure} == expected
    assert {name for name in GRADES if f"Fix the {name.lower()}" in actions} == expected
    rows = list(csv.reader(io.StringIO(export.getvalue().decode("utf-8-sig"))))
    assert {row[3] for row in rows[1:]} == {f"Fix the {name.lower()}" for name in expected}


@pytest.mark.django_db
def test_an_unknown_condition_is_said_on_the_actions_tab_and_left_out(
    client: Client, user: Any
) -> None:
    plan = _plan(user)
    client.force_login(user)

    page = client.get(
        reverse("planning:plan_actions", args=[plan.number]), {"condition": "9"}
    ).content.decode()

    assert "Select a valid choice." in page
    assert all(f"Fix the {name.lower()}" in page for name in GRADES)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("width", [1366, 390])
def test_the_structure_tab_finds_components_by_condition_in_a_browser(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    plan = _plan(user)
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)
    page.goto(f"/plans/{plan.number}/")

    page.get_by_label("Condition").select_option(label="Moderate or worse (2-3)")
    page.get_by_role("button", name="Search").click()

    matches = page.locator("#node-matches")
    expect(matches).to_contain_text("Roof")
    expect(matches).to_contain_text("condition 2: moderate symptoms")
    expect(matches.locator("li")).to_have_count(2)
    assert "condition=2%2B" in page.url
    assert page.evaluate("document.documentElement.scrollWidth") <= width

"""The plan's export in the import format (docs/subsystems/imports.md "Imports"): it carries the
money settings, intervals, building data and conditions, re-imports to the same plan, and the export
of the re-imported plan is the same file."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planning.models import ActionStatus, Completion, NodeKind, Plan, PlanRole
from planning.plans.services.actions import action_create, action_mark_done
from planning.plans.services.nodes import node_building_update, node_create
from planning.plans.services.plans import plan_money_update
from planning.plans.services.surveys import survey_record
from planning.transfer.imports.json_file import plan_import
from planning.transfer.imports.problems import ImportRejected
from tests.factories import PlanFactory, PlanMembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(name="plan")
def quay_plan(user: Any) -> Plan:
    """A plan made on the pages (no refs), with everything the format carries."""
    plan = PlanFactory.create(name="Quay „Nord“", description="Two sheds", currency="CHF")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    plan_money_update(
        plan=plan,
        price_base_year=2025,
        index_rate_percent=Decimal("2.75"),
        overhead_percent=Decimal("8"),
        vat_percent=Decimal("7.7"),
        annual_budget=Decimal("150000"),
    )
    site = node_create(plan=plan, name="Quay", kind=NodeKind.SITE)
    for number in (1, 2):
        shed = node_create(plan=plan, parent=site, name=f"Shed {number}", kind=NodeKind.BUILDING)
        node_building_update(
            node=shed,
            address=f"Quay {number}",
            gross_floor_area_m2=Decimal("412.25") * number,
            year_built=1950 + number,
            replacement_value=Decimal("1000000.50") if number == 2 else None,
        )
        door = node_create(
            plan=plan,
            parent=shed,
            name="Door",
            kind=NodeKind.COMPONENT,
            quantity=Decimal("2.5"),
            unit="pcs",
            install_year=1990,
        )
        survey_record(
            node=door,
            grade=number,
            consequence=number + 1,
            note="",
            assessed_on=datetime.date(2025, 4, number),
            by=None,
        )
        action_create(
            plan=plan,
            node=door,
            title="Oil hinges",
            kind="repair",
            planned_year=2027,
            estimated_cost=Decimal("80.10"),
            interval_years=2,
        )
        action_create(
            plan=plan,
            node=door,
            title="Replace",
            kind="replacement",
            planned_year=2040,
            estimated_cost=Decimal("5000"),
            status=ActionStatus.CANCELLED if number == 2 else ActionStatus.PLANNED,
        )
    survey = action_create(
        plan=plan, node=site, title="Survey", kind="inspection", planned_year=2026
    )
    # Work done: a one-off action done, a recurring one marked done and moved on to 2027.
    action_mark_done(
        action=survey, completed_on=datetime.date(2026, 2, 3), actual_cost=Decimal("1250.50")
    )
    gutters = action_create(
        plan=plan,
        node=site,
        title="Clean gutters",
        kind="repair",
        planned_year=2025,
        estimated_cost=Decimal("300"),
        interval_years=2,
    )
    action_mark_done(action=gutters, completed_on=datetime.date(2025, 9, 30))
    return plan


def _completions(plan: Plan) -> list[tuple[Any, ...]]:
    return sorted(
        Completion.objects.filter(action__plan=plan).values_list(
            "action__title",
            "action__status",
            "action__planned_year",
            "completed_on",
            "actual_cost",
            "estimated_cost",
            "planned_year",
        )
    )


def _export(client: Client, plan: Plan) -> dict[str, Any]:
    response = client.get(reverse("planning:export_plan", args=[plan.number]))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    return dict(json.loads(response.content))


def test_the_export_carries_the_money_settings_and_the_new_columns(
    client: Client, user: Any, plan: Plan
) -> None:
    client.force_login(user)

    document = _export(client, plan)

    assert {k: v for k, v in document.items() if k not in ("nodes", "actions")} == {
        "name": "Quay „Nord“",
        "description": "Two sheds",
        "currency": "CHF",
        "price_base_year": 2025,
        "index_rate_percent": "2.75",
        "overhead_percent": "8.00",
        "vat_percent": "7.70",
        "annual_budget": "150000.00",
    }
    shed = next(node for node in document["nodes"] if node["name"] == "Shed 2")
    assert (
        shed["address"],
        shed["gross_floor_area_m2"],
        shed["year_built"],
        shed["replacement_value"],
    ) == ("Quay 2", "824.50", 1952, "1000000.50")
    doors = [node for node in document["nodes"] if node["name"] == "Door"]
    assert sorted(node["condition_assessed_on"] for node in doors) == ["2025-04-01", "2025-04-02"]
    assert sorted(node["condition_consequence"] for node in doors) == [2, 3]
    assert {action["interval_years"] for action in document["actions"]} == {2, None}
    work = {
        action["title"]: (
            action["status"],
            action["planned_year"],
            action["completed_on"],
            action["actual_cost"],
        )
        for action in document["actions"]
        if action["completed_on"]
    }
    assert work == {
        "Survey": ("done", 2026, "2026-02-03", "1250.50"),
        "Clean gutters": ("planned", 2027, "2025-09-30", None),
    }


def test_export_import_export_gives_the_same_file(client: Client, user: Any, plan: Plan) -> None:
    client.force_login(user)
    first = client.get(reverse("planning:export_plan", args=[plan.number])).content

    copy = plan_import(owner=user, content=first, filename="plan.json")
    second = client.get(reverse("planning:export_plan", args=[copy.number])).content

    assert copy.number != plan.number
    assert second == first
    assert _completions(copy) == _completions(plan)
    assert sorted(
        copy.nodes.filter(kind=NodeKind.BUILDING).values_list("replacement_value", flat=True),
        key=str,
    ) == [Decimal("1000000.50"), None]
    copy.refresh_from_db()
    assert (copy.index_rate_percent, copy.annual_budget, copy.currency) == (
        Decimal("2.75"),
        Decimal("150000"),
        "CHF",
    )


def test_an_imported_file_keeps_its_refs(client: Client, user: Any) -> None:
    content = json.dumps(
        {
            "name": "Small",
            "nodes": [
                {"ref": "B-7", "name": "Hall", "kind": "building"},
                {"ref": "R", "parent_ref": "B-7", "name": "Roof", "kind": "component"},
            ],
            "actions": [{"node_ref": "R", "title": "Fix", "kind": "repair", "planned_year": 2030}],
        }
    ).encode()
    imported = plan_import(owner=user, content=content, filename="small.json")
    client.force_login(user)

    document = _export(client, imported)

    assert [(n["ref"], n["parent_ref"]) for n in document["nodes"]] == [("B-7", None), ("R", "B-7")]
    assert document["actions"][0]["node_ref"] == "R"


@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"index_rate_percent": 60}, "index_rate_percent: Enter a percentage between -10 and 50."),
        ({"vat_percent": "-1"}, "vat_percent: Enter a percentage between 0 and 100."),
        ({"price_base_year": 1700}, "price_base_year: Enter a year between 1900 and 2200."),
        ({"currency": "E1R"}, "currency: Enter a 3-letter currency code such as EUR or USD."),
        ({"annual_budget": "lots"}, 'annual_budget: must be a number, got "lots"'),
    ],
)
def test_bad_plan_fields_in_a_file_are_listed_problems(
    user: Any, fields: dict[str, Any], problem: str
) -> None:
    content = json.dumps({"name": "P", "nodes": [], **fields}).encode()

    with pytest.raises(ImportRejected) as rejected:
        plan_import(owner=user, content=content, filename="plan.json")

    assert [str(p) for p in rejected.value.problems] == [problem]


MARKUPS = [
    {"name": "Overhead", "percent": "10.00"},
    {"name": "Contingency", "percent": "5.50"},
    {"name": "VAT", "percent": "25.00"},
]


def _with_markups(plan: Plan) -> Plan:
    from planning.figures.prices import markups_parse

    plan_money_update(
        plan=plan,
        price_base_year=plan.price_base_year,
        index_rate_percent=plan.index_rate_percent,
        annual_budget=plan.annual_budget,
        markups=markups_parse(MARKUPS),
    )
    return plan


def _streamed(response: Any) -> bytes:
    return b"".join(response.streaming_content)


def test_the_markups_travel_in_every_format(client: Client, user: Any, plan: Plan) -> None:
    from planning.transfer.imports.csv_pair import plan_import_csv
    from planning.transfer.imports.workbook import plan_import_workbook

    _with_markups(plan)
    client.force_login(user)
    number = plan.number

    def table(name: str) -> bytes:
        return _streamed(client.get(reverse("planning:export_plan_table", args=[number, name])))

    as_json = plan_import(
        owner=user,
        content=client.get(reverse("planning:export_plan", args=[number])).content,
        filename="plan.json",
    )
    as_workbook = plan_import_workbook(
        owner=user,
        content=_streamed(client.get(reverse("planning:export_plan_as", args=[number, "xlsx"]))),
        filename="plan.xlsx",
    )
    as_csv = plan_import_csv(
        owner=user,
        nodes_csv=table("nodes"),
        actions_csv=table("actions"),
        plan_csv=table("plan"),
        name=None,
    )

    assert b"Overhead 10; Contingency 5.5; VAT 25" in table("plan")
    for copy in (as_json, as_workbook, as_csv):
        copy.refresh_from_db()
        assert copy.markups == MARKUPS
        assert (copy.overhead_percent, copy.vat_percent) == (Decimal("10"), Decimal("25"))


@pytest.mark.parametrize(
    ("markups", "problem"),
    [
        ("Overhead ten", "markups: markup 1 (“Overhead ten”) is not a name and a percentage"),
        (
            [{"name": "Fee", "percent": "150"}],
            "markups: markup 1: the percent must be from 0 to 100",
        ),
        # refused before anything formats it: a gigabyte of digits otherwise
        ([{"name": "Fee", "percent": "1e999999999"}], "markups: markup 1: the percent must be"),
        ("Fee 2.555", "markups: markup 1: the percent must be from 0 to 100, with at most two"),
        ("Fee 5; fee 6", "markups: Markup 2: “fee” is named twice."),
        ([{"name": "Fee"}], "markups: markup 1 must be an object with a name and a percent"),
    ],
)
def test_bad_markups_in_a_file_are_listed_problems(user: Any, markups: Any, problem: str) -> None:
    content = json.dumps({"name": "P", "nodes": [], "markups": markups}).encode()

    with pytest.raises(ImportRejected) as rejected:
        plan_import(owner=user, content=content, filename="plan.json")

    assert len(rejected.value.problems) == 1
    assert str(rejected.value.problems[0]).startswith(problem)

"""Adopted versions (docs/subsystems/versions.md "Versions"): a version is a snapshot no later
change reaches, the comparison of a plan with itself is empty and lists exactly what changed, its
totals equal a recomputation, the Versions tab and `manage.py adopt_plan`."""

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.figures.occurrences import occurrence_years
from planning.models import (
    Action,
    ActionStatus,
    NodeKind,
    Plan,
    PlanRole,
    PlanVersion,
    VersionAction,
    VersionNode,
    VersionProject,
)
from planning.plans.services.actions import action_update
from planning.plans.services.nodes import node_delete, node_move
from planning.records.adoption import plan_adopt
from planning.records.comparison import Side, versions_compare
from planning.transfer.imports.json_file import plan_import
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
)
from tests.planning.workbooks import exported_sheet

pytestmark = pytest.mark.django_db

THIS_YEAR = timezone.localdate().year
YEARS = list(range(THIS_YEAR, THIS_YEAR + 10))


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(name="Harbour")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    north = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="North")
    south = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="South")
    roof = StructureNodeFactory.create(plan=plan, parent=north, name="Roof")
    StructureNodeFactory.create(plan=plan, parent=south, name="Boiler")
    project = ProjectFactory.create(plan=plan, name="Roofs", year=THIS_YEAR + 2)
    ActionFactory.create(
        node=roof,
        title="New roof",
        planned_year=THIS_YEAR + 2,
        estimated_cost=Decimal("9000"),
        project=project,
    )
    ActionFactory.create(
        node=south,
        title="Service",
        planned_year=THIS_YEAR,
        interval_years=3,
        estimated_cost=Decimal("150.50"),
    )
    return plan


def _snapshot_bytes(version: PlanVersion) -> bytes:
    """Everything a version holds, serialised in a fixed order."""
    version.refresh_from_db()
    rows = {
        "version": [
            version.name,
            str(version.decided_on),
            version.note,
            version.node_count,
            version.action_count,
            str(version.total_cost),
        ],
        "nodes": [
            [str(v) for v in row]
            for row in VersionNode.objects.filter(version=version)
            .order_by("node_id")
            .values_list("node_id", "parent_id", "building_id", "name", "kind", "path")
        ],
        "actions": [
            [str(v) for v in row]
            for row in VersionAction.objects.filter(version=version)
            .order_by("action_id")
            .values_list(
                "action_id",
                "node_id",
                "building_id",
                "title",
                "kind",
                "planned_year",
                "estimated_cost",
                "interval_years",
                "status",
                "project_id",
            )
        ],
        "projects": [
            [str(v) for v in row]
            for row in VersionProject.objects.filter(version=version)
            .order_by("project_id")
            .values_list("project_id", "name", "year")
        ],
    }
    return json.dumps(rows, sort_keys=True).encode()


def test_a_version_holds_the_plan_and_no_later_change_reaches_it(plan: Plan, user: Any) -> None:
    version = plan_adopt(plan=plan, name="Board 2026", by=user, note="Unanimous")
    assert (version.number, version.node_count, version.action_count, version.project_count) == (
        1,
        4,
        2,
        1,
    )
    # The plan list's ten years at adoption: the roof once, the service in Y, Y+3, Y+6 and Y+9.
    assert version.total_cost == Decimal("9000") + 4 * Decimal("150.50")
    before = _snapshot_bytes(version)

    roof_action = plan.actions.get(title="New roof")
    action_update(
        action=roof_action,
        node=roof_action.node,
        title="Roof and gutters",
        kind=roof_action.kind,
        planned_year=THIS_YEAR + 4,
        estimated_cost=Decimal("12000"),
        interval_years=None,
    )
    node_move(node=plan.nodes.get(name="Boiler"), parent=plan.nodes.get(name="North"))
    node_delete(node=plan.nodes.get(name="Roof"))
    Action.objects.filter(plan=plan).update(status=ActionStatus.CANCELLED)
    document = {"name": "Harbour again", "nodes": [{"ref": "S", "name": "Site", "kind": "site"}]}
    plan_import(owner=user, content=json.dumps(document).encode(), filename="again.json")

    assert _snapshot_bytes(version) == before
    second = plan_adopt(plan=plan, name="After the changes")
    assert second.number == 2 and second.action_count == 1


def test_the_comparison_of_a_plan_with_itself_is_empty(plan: Plan) -> None:
    version = plan_adopt(plan=plan, name="Board")
    comparison = versions_compare(old=Side(plan, version), new=Side(plan), years=YEARS)
    assert comparison.differences == []
    assert comparison.old_totals == comparison.new_totals
    assert comparison.total_difference == 0


def test_one_changed_action_is_exactly_what_the_comparison_lists(plan: Plan) -> None:
    version = plan_adopt(plan=plan, name="Board")
    action = plan.actions.get(title="New roof")
    action_update(
        action=action,
        node=action.node,
        title=action.title,
        kind=action.kind,
        planned_year=THIS_YEAR + 3,
        estimated_cost=Decimal("9500"),
        interval_years=None,
    )
    comparison = versions_compare(old=Side(plan, version), new=Side(plan), years=YEARS)
    assert [(d.kind, d.state.uuid, d.fields) for d in comparison.differences] == [
        ("changed", action.pk, ["planned_year", "estimated_cost"])
    ]
    index = YEARS.index(THIS_YEAR + 2)
    assert comparison.old_totals[index] - comparison.new_totals[index] == Decimal("9000")
    assert comparison.total_difference == Decimal("500")


def test_added_and_removed_actions_and_the_building_filter(plan: Plan) -> None:
    version = plan_adopt(plan=plan, name="Board")
    north = plan.nodes.get(name="North")
    added = ActionFactory.create(node=north, title="Facade", planned_year=THIS_YEAR + 1)
    removed = plan.actions.get(title="Service")
    removed_id = removed.pk
    removed.delete()
    comparison = versions_compare(old=Side(plan, version), new=Side(plan), years=YEARS)
    assert {(d.kind, d.state.uuid) for d in comparison.differences} == {
        ("added", added.pk),
        ("removed", removed_id),
    }
    only_north = versions_compare(
        old=Side(plan, version), new=Side(plan), years=YEARS, building=north.pk
    )
    assert [(d.kind, d.state.title) for d in only_north.differences] == [("added", "Facade")]


def test_the_totals_equal_a_recomputation_from_the_actions(plan: Plan) -> None:
    version = plan_adopt(plan=plan, name="Board")
    ActionFactory.create(
        node=plan.nodes.get(name="Roof"),
        planned_year=THIS_YEAR + 5,
        interval_years=2,
        estimated_cost=Decimal("77.70"),
    )
    comparison = versions_compare(old=Side(plan, version), new=Side(plan), years=YEARS)
    expected = dict.fromkeys(YEARS, Decimal(0))
    for action in plan.actions.filter(status=ActionStatus.PLANNED):
        for year in occurrence_years(
            planned_year=action.planned_year,
            interval_years=action.interval_years,
            first=YEARS[0],
            last=YEARS[-1],
        ):
            expected[year] += action.estimated_cost
    assert comparison.new_totals == [expected[year] for year in YEARS]


def test_two_versions_compare_oldest_first(plan: Plan) -> None:
    first = plan_adopt(plan=plan, name="First")
    plan.actions.filter(title="Service").update(estimated_cost=Decimal("200"))
    second = plan_adopt(plan=plan, name="Second")
    comparison = versions_compare(old=Side(plan, first), new=Side(plan, second), years=YEARS)
    assert [(d.kind, d.fields) for d in comparison.differences] == [("changed", ["estimated_cost"])]


def test_a_version_needs_a_name_and_a_date_not_after_today(plan: Plan) -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError) as refused:
        plan_adopt(plan=plan, name="  ", decided_on=timezone.localdate() + datetime.timedelta(1))
    assert set(refused.value.message_dict) == {"name", "decided_on"}
    assert not PlanVersion.objects.exists()


def test_owners_adopt_on_the_versions_tab_and_editors_may_not(
    client: Client, user: Any, plan: Plan
) -> None:
    client.force_login(user)
    url = reverse("planning:plan_versions", args=[plan.number])
    response = client.post(url, {"name": "Board 2026", "decided_on": "2026-03-01", "note": ""})
    version = PlanVersion.objects.get(plan=plan)
    assert response["Location"] == reverse("planning:plan_version", args=[plan.number, version.pk])
    page = client.get(response["Location"]).content.decode()
    assert "Version 1: Board 2026" in page and "No action differs." in page

    editor = PlanMembershipFactory.create(plan=plan, role=PlanRole.EDITOR).user
    client.force_login(editor)
    assert client.post(url, {"name": "Mine", "decided_on": "2026-03-01"}).status_code == 403
    assert 'id="adopt"' not in client.get(url).content.decode()
    assert PlanVersion.objects.count() == 1


def test_the_comparison_exports_as_csv_and_xlsx(client: Client, user: Any, plan: Plan) -> None:
    version = plan_adopt(plan=plan, name="Board")
    plan.actions.filter(title="Service").update(planned_year=THIS_YEAR + 1)
    client.force_login(user)
    csv_response = client.get(
        reverse("planning:plan_version_export", args=[plan.number, version.pk, "csv"])
    )
    text = csv_response.getvalue().decode("utf-8-sig")
    assert '"changed"' in text and '"Service"' in text and "Year (the plan now)" in text
    xlsx = client.get(
        reverse("planning:plan_version_export", args=[plan.number, version.pk, "xlsx"])
    )
    parts = exported_sheet(xlsx.getvalue())
    assert parts.title == "Comparison of version 1 “Board” with the plan now"
    assert parts.facts["Plan"] == f"#{plan.number} {plan.name}"
    assert parts.facts["Prices"].startswith("today's prices")
    assert parts.table[1][0] == "changed" and parts.table[1][2] == "Service"
    # the totals per year are below the table, outside its autofilter
    assert parts.below[0] == [None] * len(parts.below[0])
    assert parts.below[1][0] == "Year" and parts.below[-1][0] == "Total"
    last_row = parts.table_first_row + len(parts.table) - 1 + len(parts.below)
    assert parts.sheet.cell(last_row, 1).value == "Total" and parts.sheet.cell(last_row, 1).font.b


def test_the_command_adopts_and_prints_the_id(plan: Plan, capsys: Any) -> None:
    call_command("adopt_plan", str(plan.number), "--name", "Board", "--date", "2026-01-15")
    version = PlanVersion.objects.get(plan=plan)
    assert capsys.readouterr().out.strip() == str(version.pk)
    assert version.decided_on == datetime.date(2026, 1, 15)
    with pytest.raises(CommandError, match="no date"):
        call_command("adopt_plan", str(plan.number), "--name", "X", "--date", "15.1.2026")

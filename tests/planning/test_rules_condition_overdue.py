"""Rules 4 and 5 (docs/subsystems/suggestion-rules.md "Suggestion rules"): condition and overdue,
checked against an independent reading of the rules on random plans, and in the sync: a grade or a
year changed by any path is taken in by the next incremental sync, and a new calendar year
re-derives the whole plan."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from planning.models import ActionKind, ActionStatus, NodeKind, Suggestion, SuggestionStatus
from planning.suggestions.rules.condition import condition_suggestions
from planning.suggestions.rules.overdue import overdue_suggestions
from planning.suggestions.rules.records import ActionRecord, NodeRecord, PlanData
from planning.suggestions.sync import derive as sync_module
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import ActionFactory, PlanFactory, StructureNodeFactory

Y = 2026


def _independent(
    nodes: list[NodeRecord], actions: list[ActionRecord], year: int
) -> dict[str, tuple[str, Any]]:
    """The rules as the contract words them, one node and one action at a time (written apart
    from planning.suggestions.rules)."""
    wanted: dict[str, tuple[str, Any]] = {}
    for node in nodes:
        if node.kind != "component" or node.condition_grade not in (2, 3):
            continue
        latest = year + (2 if node.condition_grade == 3 else 5)
        covered = any(
            a.node_id == node.id
            and a.status == "planned"
            and a.kind in ("repair", "replacement")
            and a.planned_year <= latest
            for a in actions
        )
        if not covered:
            wanted[f"condition:{node.id}"] = (
                "critical" if node.condition_grade == 3 else "warning",
                {
                    "action": "plan_action",
                    "node_id": node.id,
                    "condition_grade": node.condition_grade,
                    "latest_year": latest,
                },
            )
    for a in actions:
        if a.status == "planned" and a.planned_year < year:
            wanted[f"overdue:{a.id}"] = (
                "critical" if a.planned_year < year - 2 else "warning",
                {
                    "action": "review_action",
                    "action_ids": [a.id],
                    "filter": {"structure_node_id": a.node_id, "year": a.planned_year},
                    "reference": {
                        "due_year": a.planned_year,
                        "actual": year,
                        "deviation": year - a.planned_year,
                    },
                },
            )
    return wanted


@st.composite
def plans(draw: Any) -> tuple[list[NodeRecord], list[ActionRecord]]:
    count = draw(st.integers(min_value=1, max_value=6))
    nodes = [
        NodeRecord(
            f"n{i}",
            f"Node {i}",
            draw(st.sampled_from(NodeKind.values)),
            None,
            None,
            None,
            None,
            f"n{i}",
            draw(st.none() | st.integers(min_value=0, max_value=3)),
        )
        for i in range(count)
    ]
    actions = [
        ActionRecord(
            f"a{i}",
            f"n{draw(st.integers(min_value=0, max_value=count - 1))}",
            draw(st.sampled_from(ActionKind.values)),
            draw(st.integers(min_value=Y - 6, max_value=Y + 8)),
            Decimal("100.00"),
            draw(st.sampled_from(ActionStatus.values)),
            None,
        )
        for i in range(draw(st.integers(min_value=0, max_value=8)))
    ]
    return nodes, actions


@settings(max_examples=300, deadline=None)
@given(plans())
def test_condition_and_overdue_follow_the_rules(
    plan: tuple[list[NodeRecord], list[ActionRecord]],
) -> None:
    nodes, actions = plan
    data = PlanData(nodes={n.id: n for n in nodes}, actions=tuple(actions), codes={})

    found = {**condition_suggestions(data, Y), **overdue_suggestions(data, Y)}

    assert {fp: (w.severity, w.recommended_action_json) for fp, w in found.items()} == (
        _independent(nodes, actions, Y)
    )
    node_of = {a.id: a.node_id for a in actions}
    for fingerprint, want in found.items():
        kind, subject = fingerprint.split(":")
        assert want.structure_node_id == (subject if kind == "condition" else node_of[subject])


def _open(plan: Any) -> dict[str, str]:
    return dict(
        Suggestion.objects.filter(plan=plan, status=SuggestionStatus.OPEN)
        .filter(suggestion_type__in=["condition", "overdue"])
        .values_list("fingerprint", "severity")
    )


@pytest.mark.django_db
def test_a_grade_and_a_year_changed_outside_the_services_are_seen_by_the_next_sync() -> None:
    this_year = datetime.datetime.now(datetime.UTC).year
    plan = PlanFactory.create()
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof", condition_grade=3)
    repair = ActionFactory.create(node=roof, kind="repair", planned_year=this_year + 1)
    suggestion_sync(plan=plan)
    assert _open(plan) == {}

    type(repair).objects.filter(pk=repair.pk).update(planned_year=this_year - 3)
    suggestion_sync(plan=plan)
    # Still planned (if late), the repair answers the condition; it is overdue itself.
    assert _open(plan) == {f"overdue:{repair.pk}": "critical"}

    type(repair).objects.filter(pk=repair.pk).update(status="done")
    suggestion_sync(plan=plan)
    assert _open(plan) == {f"condition:{roof.pk}": "critical"}

    type(roof).objects.filter(pk=roof.pk).update(condition_grade=2)
    ActionFactory.create(node=roof, kind="replacement", planned_year=this_year + 5)
    suggestion_sync(plan=plan)
    assert _open(plan) == {}

    type(roof).objects.filter(pk=roof.pk).update(condition_grade=3)
    result = suggestion_sync(plan=plan)
    assert not result.full and _open(plan) == {f"condition:{roof.pk}": "critical"}


@pytest.mark.django_db
def test_the_first_sync_in_a_new_year_re_derives_the_plan(monkeypatch: pytest.MonkeyPatch) -> None:
    this_year = datetime.datetime.now(datetime.UTC).year
    plan = PlanFactory.create()
    roof = StructureNodeFactory.create(plan=plan, kind=NodeKind.COMPONENT, name="Roof")
    action = ActionFactory.create(node=roof, kind="repair", planned_year=this_year)
    suggestion_sync(plan=plan)
    assert _open(plan) == {}

    later = datetime.datetime(this_year + 1, 1, 1, 0, 5, tzinfo=datetime.UTC)
    monkeypatch.setattr(sync_module.timezone, "now", lambda: later)
    result = suggestion_sync(plan=plan)

    assert result.full
    assert _open(plan) == {f"overdue:{action.pk}": "warning"}


@pytest.mark.django_db
def test_the_planning_page_shows_both_with_their_links_and_filters(client: Any, user: Any) -> None:
    from django.urls import reverse

    from planning.models import PlanRole
    from tests.factories import PlanMembershipFactory

    this_year = datetime.datetime.now(datetime.UTC).year
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    roof = StructureNodeFactory.create(
        plan=plan, kind=NodeKind.COMPONENT, name="Roof", condition_grade=2
    )
    late = ActionFactory.create(node=roof, kind="inspection", planned_year=this_year - 1)
    client.force_login(user)

    page = client.get(reverse("planning:action_planning", args=[plan.number])).content.decode()

    assert f"Plan a repair of “Roof” by {this_year + 5}: its condition is moderate" in page
    assert f"/plans/{plan.number}/actions/?node={roof.pk}#add-action" in page
    assert f"Overdue since {this_year - 1}: the inspection of “Roof”" in page
    assert f"node={roof.pk}&amp;year_from={late.planned_year}" in page
    assert 'value="condition"> Condition <span class="count">(1)</span>' in page
    assert 'value="overdue"> Overdue <span class="count">(1)</span>' in page


@pytest.mark.django_db
def test_a_condition_plans_its_repair_in_one_click_and_undo_removes_it(
    client: Any, user: Any
) -> None:
    from django.urls import reverse

    from planning.models import Action, PlanRole
    from tests.factories import CodeFactory, PlanMembershipFactory

    next_year = datetime.datetime.now(datetime.UTC).year + 1
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    code = CodeFactory.create(unit_cost=Decimal("120.00"))
    roof = StructureNodeFactory.create(
        plan=plan,
        kind=NodeKind.COMPONENT,
        name="Roof",
        condition_grade=3,
        code=code,
        quantity=Decimal("10"),
    )
    client.force_login(user)
    planning = reverse("planning:action_planning", args=[plan.number])
    page = client.get(planning).content.decode()
    assert f"Apply: plan a repair in {next_year} (1,200.00\xa0EUR)" in page
    condition = Suggestion.objects.get(plan=plan, suggestion_type="condition")
    apply = reverse("planning:suggestion_apply", args=[plan.number, condition.pk])

    done = client.post(apply, {"next": planning}, follow=True).content.decode()

    repair = Action.objects.get(node=roof)
    assert (repair.title, repair.kind, repair.planned_year, repair.estimated_cost) == (
        "Repair: Roof",
        "repair",
        next_year,
        Decimal("1200.00"),
    )
    # Roof is a root outside every building: the place named is the root itself.
    assert f"“Repair: Roof” in Roof planned for {next_year} (1,200.00\xa0EUR)." in done
    condition.refresh_from_db()
    assert condition.resolution == "applied"

    undone = client.post(f"{apply}undo/", {"next": planning}, follow=True).content.decode()

    assert not Action.objects.filter(node=roof).exists()
    assert "“Repair: Roof” in Roof removed; nothing is planned for the component again." in undone
    condition.refresh_from_db()
    assert condition.status == "open"

"""Rule 6, budget_peak (docs/subsystems/suggestion-rules.md "Suggestion rules"): at its thresholds
with the pure rule, on random plans in the database against an independent reading of the contract
(recurring occurrences, anchors, candidates, target years, ties), in the sync (a budget or a cost
changed by any path), and its one-click move with Undo on the planning page."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    NodeKind,
    Plan,
    PlanRole,
    StructureNode,
    Suggestion,
    SuggestionStatus,
)
from planning.suggestions.rules.budget_peak import BudgetFigures, budget_peak_suggestions
from planning.suggestions.sync.due import synced_data_version
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import ActionFactory, PlanFactory, PlanMembershipFactory, StructureNodeFactory

Y = 2026


def _figures(
    budget: int,
    totals: dict[int, int],
    *,
    anchors: dict[int, dict[str, int]] | None = None,
    candidates: dict[int, list[tuple[str, int]]] | None = None,
) -> BudgetFigures:
    return BudgetFigures(
        budget_cents=budget,
        year_cents=totals,
        anchor_cents=anchors or {y: {"b": cents} for y, cents in totals.items()},
        anchor_names={"b": "House"},
        candidates=candidates or {},
    )


def test_a_year_at_the_budget_is_no_peak_a_cent_over_is_a_warning() -> None:
    assert budget_peak_suggestions(_figures(100_00, {Y: 100_00}), Y) == {}
    found = budget_peak_suggestions(_figures(100_00, {Y: 100_01}), Y)
    assert [(fp, w.severity) for fp, w in found.items()] == [(f"budget_peak:{Y}", "warning")]
    assert found[f"budget_peak:{Y}"].recommended_action_json["excess"] == "0.01"


def test_over_one_and_a_half_budgets_is_critical() -> None:
    at = budget_peak_suggestions(_figures(100_00, {Y: 150_00}), Y)
    over = budget_peak_suggestions(_figures(100_00, {Y: 150_01}), Y)
    assert at[f"budget_peak:{Y}"].severity == "warning"
    assert over[f"budget_peak:{Y}"].severity == "critical"


def test_a_budget_of_zero_makes_every_costed_year_a_peak() -> None:
    found = budget_peak_suggestions(_figures(0, {Y: 1, Y + 1: 0}), Y)
    assert list(found) == [f"budget_peak:{Y}"]


def test_only_this_year_and_the_next_nine_are_looked_at() -> None:
    totals = {Y - 1: 999_00, Y + 9: 200_00, Y + 10: 999_00}
    assert list(budget_peak_suggestions(_figures(100_00, totals), Y)) == [f"budget_peak:{Y + 9}"]


def test_candidates_are_the_shortest_prefix_by_cost_then_id_listed_sorted() -> None:
    candidates = [("c", 30_00), ("a", 50_00), ("b", 50_00), ("d", 10_00)]
    # excess 90.00: a (50) + b (50) reach it; c and d stay.
    found = budget_peak_suggestions(_figures(100_00, {Y: 190_00}, candidates={Y: candidates}), Y)[
        f"budget_peak:{Y}"
    ]
    assert found.recommended_action_json["candidate_action_ids"] == ["a", "b"]
    # excess 50.00: the tie at 50 goes to the smaller id alone.
    found = budget_peak_suggestions(_figures(100_00, {Y: 150_00}, candidates={Y: candidates}), Y)[
        f"budget_peak:{Y}"
    ]
    assert found.recommended_action_json["candidate_action_ids"] == ["a"]


def test_all_candidates_when_none_reaches_the_excess() -> None:
    found = budget_peak_suggestions(
        _figures(100_00, {Y: 500_00}, candidates={Y: [("b", 10_00), ("a", 20_00)]}), Y
    )[f"budget_peak:{Y}"]
    assert found.recommended_action_json["candidate_action_ids"] == ["a", "b"]


def test_the_target_is_the_first_later_year_with_room_for_the_candidates() -> None:
    totals = {Y: 150_00, Y + 1: 90_00, Y + 2: 50_00, Y + 3: 0}
    found = budget_peak_suggestions(
        _figures(100_00, totals, anchors={Y: {"b": 150_00}}, candidates={Y: [("a", 50_00)]}), Y
    )[f"budget_peak:{Y}"]
    # Y + 1: 90 + 50 > 100; Y + 2: 50 + 50 = 100, within the budget.
    assert found.recommended_action_json["target_year"] == Y + 2


def test_no_target_when_none_of_the_next_five_years_has_room() -> None:
    totals = {Y + k: 100_00 for k in range(1, 6)} | {Y: 150_00, Y + 6: 0}
    found = budget_peak_suggestions(
        _figures(100_00, totals, anchors={Y: {"b": 150_00}}, candidates={Y: [("a", 50_00)]}), Y
    )
    assert found[f"budget_peak:{Y}"].recommended_action_json["target_year"] is None


def test_the_node_is_the_costliest_anchor_ties_to_the_smallest_id() -> None:
    anchors = {Y: {"b2": 60_00, "b1": 60_00, "b0": 30_00}}
    found = budget_peak_suggestions(_figures(100_00, {Y: 150_00}, anchors=anchors), Y)
    assert found[f"budget_peak:{Y}"].structure_node_id == "b1"


def test_the_recommended_action_is_as_the_contract_words_it() -> None:
    found = budget_peak_suggestions(
        _figures(
            1000_00,
            {Y: 1250_50, Y + 1: 0},
            anchors={Y: {"b": 1250_50}},
            candidates={Y: [("x", 300_00)]},
        ),
        Y,
    )[f"budget_peak:{Y}"]
    assert found.recommended_action_json == {
        "action": "move_actions",
        "year": Y,
        "budget": "1000.00",
        "total": "1250.50",
        "excess": "250.50",
        "candidate_action_ids": ["x"],
        "target_year": Y + 1,
    }
    assert found.title == f"Planned costs in {Y} exceed the annual budget by 250.50"
    assert "; the most of it is in House." in found.body


# --- against an independent reading, in the database ------------------------------------------
def _anchor(node: StructureNode, by_id: dict[Any, StructureNode]) -> StructureNode:
    """Rule 3's anchor, by walking up the parents (not the stored building or path)."""
    walk: StructureNode | None = node
    while walk is not None:
        if walk.kind == NodeKind.BUILDING:
            return walk
        walk = by_id.get(walk.parent_id)
    root = node
    while root.parent_id is not None:
        root = by_id[root.parent_id]
    return root


def _occurs(action: Action, year: int) -> bool:
    if action.planned_year == year:
        return True
    interval = action.interval_years
    if interval is None or year < action.planned_year:
        return False
    return (year - action.planned_year) % interval == 0


def independent(plan: Plan, year: int) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Rule 6 as the contract words it, over the ORM's objects."""
    plan.refresh_from_db()
    budget = plan.annual_budget
    if budget is None:
        return {}
    nodes = {node.pk: node for node in StructureNode.objects.filter(plan=plan)}
    live = [a for a in Action.objects.filter(plan=plan) if a.status == ActionStatus.PLANNED]

    def total(y: int) -> Decimal:
        return sum((a.estimated_cost for a in live if _occurs(a, y)), Decimal(0))

    wanted = {}
    for y in range(year, year + 10):
        t = total(y)
        if t <= budget:
            continue
        per_anchor: dict[str, Decimal] = {}
        for a in live:
            if _occurs(a, y):
                anchor = str(_anchor(nodes[a.node_id], nodes).pk)
                per_anchor[anchor] = per_anchor.get(anchor, Decimal(0)) + a.estimated_cost
        node = sorted(per_anchor, key=lambda n: (-per_anchor[n], n))[0]
        movable = sorted(
            (
                a
                for a in live
                if a.interval_years is None
                and a.kind in ("repair", "replacement")
                and a.planned_year == y
            ),
            key=lambda a: (-a.estimated_cost, str(a.pk)),
        )
        chosen: list[Action] = []
        while movable and sum(a.estimated_cost for a in chosen) < t - budget:
            chosen.append(movable.pop(0))
        moved = sum((a.estimated_cost for a in chosen), Decimal(0))
        target = next((u for u in range(y + 1, y + 6) if total(u) + moved <= budget), None)
        wanted[f"budget_peak:{y}"] = (
            "critical" if t > budget * Decimal("1.5") else "warning",
            node,
            {
                "action": "move_actions",
                "year": y,
                "budget": f"{budget:.2f}",
                "total": f"{t:.2f}",
                "excess": f"{t - budget:.2f}",
                "candidate_action_ids": sorted(str(a.pk) for a in chosen),
                "target_year": target,
            },
        )
    return wanted


def _stored(plan: Plan) -> dict[str, tuple[str, str, dict[str, Any]]]:
    return {
        s.fingerprint: (s.severity, str(s.structure_node_id), s.recommended_action_json)
        for s in Suggestion.objects.filter(
            plan=plan, status=SuggestionStatus.OPEN, suggestion_type="budget_peak"
        )
    }


cost = st.sampled_from([Decimal(v) for v in ("0.00", "10.00", "33.33", "50.00", "99.99", "120.00")])


@st.composite
def random_plans(draw: Any) -> dict[str, Any]:
    # Trees of a site (sometimes none) over buildings and components; nodes outside any
    # building anchor at their root.
    shapes = draw(
        st.lists(st.sampled_from(["site", "building", "component"]), min_size=1, max_size=6)
    )
    actions = draw(
        st.lists(
            st.tuples(
                st.integers(min_value=0, max_value=20),  # node position
                st.sampled_from(ActionKind.values),
                st.integers(min_value=Y - 4, max_value=Y + 16),
                cost,
                st.sampled_from([None, None, 1, 2, 3, 7]),
                st.sampled_from(["planned", "planned", "planned", "done", "cancelled"]),
            ),
            max_size=14,
        )
    )
    budget = draw(
        st.none() | st.sampled_from([Decimal(v) for v in ("0", "60.00", "100.00", "150.00")])
    )
    return {"shapes": shapes, "actions": actions, "budget": budget}


def _build(spec: dict[str, Any]) -> Plan:
    plan = PlanFactory.create(annual_budget=spec["budget"])
    nodes: list[StructureNode] = []
    for position, kind in enumerate(spec["shapes"]):
        parent = nodes[(position * 7) % len(nodes)] if nodes and position % 3 else None
        if parent is not None and parent.kind == NodeKind.COMPONENT:
            parent = None
        nodes.append(
            StructureNodeFactory.create(plan=plan, parent=parent, kind=kind, name=f"N{position}")
        )
    for position, kind, year, amount, interval, status in spec["actions"]:
        ActionFactory.create(
            plan=plan,
            node=nodes[position % len(nodes)],
            kind=kind,
            planned_year=year,
            estimated_cost=amount,
            interval_years=interval,
            status=status,
        )
    return plan


@pytest.mark.django_db
@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(spec=random_plans())
def test_the_sync_finds_the_budget_peaks_the_contract_describes(
    spec: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    from planning.suggestions.sync import derive as sync_module

    monkeypatch.setattr(
        sync_module.timezone, "now", lambda: datetime.datetime(Y, 6, 1, tzinfo=datetime.UTC)
    )
    plan = _build(spec)

    suggestion_sync(plan=plan)

    assert _stored(plan) == independent(plan, Y)


# --- in the sync -------------------------------------------------------------------------------
def _raw(sql: str, params: list[Any]) -> None:
    with connection.cursor() as cursor:
        cursor.execute(sql, params)


@pytest.mark.django_db
def test_a_budget_changed_by_raw_sql_is_seen_by_the_next_conditional_read() -> None:
    this_year = datetime.datetime.now(datetime.UTC).year
    plan = PlanFactory.create(annual_budget=Decimal("1000.00"))
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    ActionFactory.create(
        plan=plan, node=house, kind="replacement", planned_year=this_year + 1, estimated_cost=800
    )
    version = synced_data_version(plan=plan)
    assert _stored(plan) == {}

    plan_id = plan.pk.hex if connection.vendor == "sqlite" else plan.pk
    _raw("UPDATE planning_plan SET annual_budget = %s WHERE id = %s", ["500.00", plan_id])

    assert synced_data_version(plan=plan) > version
    assert list(_stored(plan)) == [f"budget_peak:{this_year + 1}"]
    Plan.objects.filter(pk=plan.pk).update(annual_budget=None)
    synced_data_version(plan=plan)
    assert _stored(plan) == {}


@pytest.mark.django_db
def test_a_cost_changed_anywhere_re_derives_every_year_incrementally() -> None:
    this_year = datetime.datetime.now(datetime.UTC).year
    plan = PlanFactory.create(annual_budget=Decimal("1000.00"))
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    cleaning = ActionFactory.create(
        plan=plan,
        node=roof,
        kind="inspection",
        planned_year=this_year,
        estimated_cost=300,
        interval_years=2,
    )
    suggestion_sync(plan=plan)
    assert _stored(plan) == {}

    Action.objects.filter(pk=cleaning.pk).update(estimated_cost=Decimal("1200.00"))
    result = suggestion_sync(plan=plan)

    assert not result.full
    # Every other year from this one: this year and the next nine hold five occurrences.
    assert sorted(_stored(plan)) == sorted(f"budget_peak:{this_year + k}" for k in (0, 2, 4, 6, 8))
    assert suggestion_sync(plan=plan, full=True).changed is False


# --- the one-click move ------------------------------------------------------------------------
@pytest.mark.django_db
def test_a_peak_moves_its_candidates_in_one_click_and_undo_moves_them_back(
    client: Any, user: Any
) -> None:
    year = datetime.datetime.now(datetime.UTC).year + 1
    plan = PlanFactory.create(annual_budget=Decimal("1000.00"))
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    # Two buildings called "House 3": the texts tell them apart by their sites.
    houses = [
        StructureNodeFactory.create(
            plan=plan,
            kind=NodeKind.BUILDING,
            name="House 3",
            parent=StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name=site),
        )
        for site in ("Block A", "Block B")
    ]
    roof = StructureNodeFactory.create(plan=plan, parent=houses[0], name="Roof")
    facade = StructureNodeFactory.create(plan=plan, parent=houses[1], name="Facade")
    moving = [
        ActionFactory.create(
            plan=plan,
            node=roof,
            title="Replace roof",
            kind="replacement",
            planned_year=year,
            estimated_cost=400,
        ),
        ActionFactory.create(
            plan=plan,
            node=facade,
            title="Paint facade",
            kind="repair",
            planned_year=year,
            estimated_cost=300,
        ),
    ]
    ActionFactory.create(
        plan=plan,
        node=roof,
        title="Roof survey",
        kind="inspection",
        planned_year=year,
        estimated_cost=1000,
    )
    ActionFactory.create(
        plan=plan,
        node=facade,
        title="Facade survey",
        kind="inspection",
        planned_year=year + 1,
        estimated_cost=500,
    )
    client.force_login(user)
    planning = reverse("planning:action_planning", args=[plan.number])

    page = client.get(planning).content.decode()

    # 1,700 against 1,000: the roof (400) and the facade (300) cover the excess of 700;
    # year + 1 holds 500, so 500 + 700 is too much there, and year + 2 is empty.
    assert f"Planned costs in {year} exceed the annual budget by 700.00\xa0EUR" in page
    assert "the most of it is in House 3 (Block A)." in page
    assert f"Apply: move 2 actions to {year + 2}" in page
    assert 'value="budget_peak"> Budget peak <span class="count">(1)</span>' in page
    assert f"year_from={year}&amp;year_to={year}" in page  # the year in the Actions tab
    peak = Suggestion.objects.get(plan=plan, suggestion_type="budget_peak")
    assert peak.structure_node_id == houses[0].pk
    apply = reverse("planning:suggestion_apply", args=[plan.number, peak.pk])

    done = client.post(apply, {"next": planning}, follow=True).content.decode()

    assert (
        f"Moved 2 actions to {year + 2}: “Replace roof” in House 3 (Block A), “Paint facade” in "
        "House 3 (Block B)."
    ) in done
    assert [Action.objects.get(pk=a.pk).planned_year for a in moving] == [year + 2] * 2
    peak.refresh_from_db()
    assert (peak.status, peak.resolution) == ("resolved", "applied")

    undone = client.post(f"{apply}undo/", {"next": planning}, follow=True).content.decode()

    assert (
        f"Moved 2 actions back to {year}: “Replace roof” in House 3 (Block A), “Paint facade” "
        "in House 3 (Block B)."
    ) in undone
    assert [Action.objects.get(pk=a.pk).planned_year for a in moving] == [year] * 2
    peak.refresh_from_db()
    assert peak.status == "open"


@pytest.mark.django_db
def test_without_a_year_that_has_room_there_is_no_move(client: Any, user: Any) -> None:
    year = datetime.datetime.now(datetime.UTC).year + 1
    plan = PlanFactory.create(annual_budget=Decimal("100.00"))
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    roof = ActionFactory.create(
        plan=plan, node=house, kind="repair", planned_year=year, estimated_cost=150
    )
    client.force_login(user)
    planning = reverse("planning:action_planning", args=[plan.number])

    page = client.get(planning).content.decode()

    assert "would fit in none of the years" in page
    assert "Apply: move" not in page
    peak = Suggestion.objects.get(plan=plan, suggestion_type="budget_peak")
    apply = reverse("planning:suggestion_apply", args=[plan.number, peak.pk])
    refused = client.post(apply, {"next": planning}, follow=True).content.decode()
    assert "No year of the next five has room for these actions; move them by hand." in refused
    roof.refresh_from_db()
    assert roof.planned_year == year


@pytest.mark.django_db
def test_undo_keeps_actions_someone_moved_again(client: Any, user: Any) -> None:
    year = datetime.datetime.now(datetime.UTC).year + 1
    plan = PlanFactory.create(annual_budget=Decimal("160.00"))
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    roof = ActionFactory.create(
        plan=plan, node=house, kind="repair", planned_year=year, estimated_cost=150
    )
    ActionFactory.create(
        plan=plan, node=house, kind="inspection", planned_year=year, estimated_cost=100
    )
    client.force_login(user)
    planning = reverse("planning:action_planning", args=[plan.number])
    assert f"Apply: move 1 action to {year + 1}" in client.get(planning).content.decode()
    peak = Suggestion.objects.get(plan=plan, suggestion_type="budget_peak")
    apply = reverse("planning:suggestion_apply", args=[plan.number, peak.pk])
    client.post(apply, {"next": planning})
    Action.objects.filter(pk=roof.pk).update(planned_year=year + 3)

    undone = client.post(f"{apply}undo/", {"next": planning}, follow=True).content.decode()

    assert (
        f"Some of the moved actions have changed since, so all were kept in {year + 1}." in undone
    )
    roof.refresh_from_db()
    assert roof.planned_year == year + 3

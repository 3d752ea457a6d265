"""Suggestion texts name the building and the action (docs/subsystems/suggestion-rules.md
"Names"): each rule's text, with two buildings of one name told apart by their labels, and no
proposed year before Y. Plain records in, wanted suggestions out (no database)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from decimal import Decimal

import pytest

from planning.suggestions.rules.budget_peak import BudgetFigures, budget_peak_suggestions
from planning.suggestions.rules.condition import condition_suggestions
from planning.suggestions.rules.deviation import deviation_suggestions
from planning.suggestions.rules.missing_code import missing_code_suggestions
from planning.suggestions.rules.overdue import overdue_suggestions
from planning.suggestions.rules.project_grouping import project_grouping_suggestions
from planning.suggestions.rules.records import (
    ActionRecord,
    CodeRecord,
    NodeRecord,
    PlanData,
    Thresholds,
    WantedSuggestion,
)

Y = 2026
THRESHOLDS = Thresholds.from_settings(
    {"info": 0.25, "warning": 0.5, "critical": 1.0}, {"info": 2, "warning": 5}, year=Y
)
CODE = CodeRecord("code", "334.1", "Windows, timber", "m2", Decimal("100.00"), 30, "window")
# What the sync passes: planning.tree.selectors.building_labels for two buildings called "House 3".
PLACES = {"b1": "House 3 (Block A)", "b2": "House 3 (Block B)"}


def _component(node_id: str, building: str, *, grade: int | None = None) -> NodeRecord:
    site = "s1" if building == "b1" else "s2"
    return NodeRecord(
        node_id, "Windows", "component", None, None, None, building, site, condition_grade=grade
    )


def _coded(node_id: str, building: str, *, install_year: int = 2000) -> NodeRecord:
    site = "s1" if building == "b1" else "s2"
    return NodeRecord(
        node_id, "Windows", "component", CODE.id, Decimal("10"), install_year, building, site
    )


def _action(
    action_id: str, node_id: str, *, kind: str = "replacement", year: int = 2030, cost: str = "1000"
) -> ActionRecord:
    return ActionRecord(action_id, node_id, kind, year, Decimal(cost), "planned", None)


def _buildings() -> list[NodeRecord]:
    return [
        NodeRecord("s1", "Block A", "site", None, None, None, None, "s1"),
        NodeRecord("s2", "Block B", "site", None, None, None, None, "s2"),
        NodeRecord("b1", "House 3", "building", None, None, None, "b1", "s1"),
        NodeRecord("b2", "House 3", "building", None, None, None, "b2", "s2"),
    ]


def _data(nodes: Sequence[NodeRecord], actions: Sequence[ActionRecord] = ()) -> PlanData:
    return PlanData(
        nodes={n.id: n for n in [*_buildings(), *nodes]},
        actions=tuple(actions),
        codes={CODE.id: CODE},
        places=PLACES,
    )


def _texts(wanted: dict[str, WantedSuggestion], fingerprint: str) -> tuple[str, str]:
    return wanted[fingerprint].title, wanted[fingerprint].body


def test_missing_code_names_the_component_and_its_building() -> None:
    wanted = missing_code_suggestions(_data([_component("c1", "b1"), _component("c2", "b2")]))

    title, body = _texts(wanted, "missing_code:c1")
    assert title == "Assign a classification code to “Windows” in House 3 (Block A)"
    assert body.startswith("The component “Windows” in House 3 (Block A) has no classification")
    assert wanted["missing_code:c2"].title.endswith("“Windows” in House 3 (Block B)")


def test_cost_deviation_names_the_replacement_and_its_building() -> None:
    nodes = [_coded("c1", "b1"), _coded("c2", "b2")]
    wanted = deviation_suggestions(
        _data(nodes, [_action("a1", "c1", cost="1600"), _action("a2", "c2", cost="1600")]),
        THRESHOLDS,
    )

    title, body = _texts(wanted, "deviation:cost:a1")
    assert title == (
        "Replacement cost of “Windows” in House 3 (Block A) in 2030 deviates from the reference"
    )
    assert body == (
        "The replacement of “Windows” in House 3 (Block A) planned for 2030 is estimated at "
        "1600.00; the reference for 10 m2 of 334.1 Windows, timber is 1000.00 (60 % off)."
    )
    assert "House 3 (Block B)" in wanted["deviation:cost:a2"].title


def test_timing_deviation_names_the_replacement_its_building_and_the_year_to_move_to() -> None:
    nodes = [_coded("c1", "b1", install_year=2004), _coded("c2", "b2", install_year=2004)]
    wanted = deviation_suggestions(
        _data(nodes, [_action("a1", "c1", year=2040), _action("a2", "c2", year=2040)]),
        THRESHOLDS,
    )

    title, body = _texts(wanted, "deviation:timing:a1")
    assert title == "Replacement of “Windows” in House 3 (Block A) planned 6 years after it is due"
    assert body == (
        "334.1 Windows, timber lasts 30 years and “Windows” in House 3 (Block A) was installed "
        "in 2004, so its replacement is due in 2034; it is planned for 2040. Move it to 2034."
    )
    assert "House 3 (Block B)" in wanted["deviation:timing:a2"].title


def test_a_due_year_in_the_past_proposes_this_year_and_keeps_the_true_due_year() -> None:
    # Installed 1953 with a 30-year life: due 1983, long before Y.
    wanted = deviation_suggestions(
        _data([_coded("c1", "b1", install_year=1953)], [_action("a1", "c1", year=2031)]),
        THRESHOLDS,
    )

    suggestion = wanted["deviation:timing:a1"]
    assert suggestion.body.endswith(
        f"so its replacement was due in 1983; it is planned for 2031. Move it to {Y}, "
        "the earliest year left."
    )
    assert suggestion.recommended_action_json["reference"] == {
        "due_year": 1983,
        "actual": 2031,
        "deviation": 48,
    }


def test_a_past_due_year_proposes_no_move_when_the_replacement_is_planned_this_year() -> None:
    wanted = deviation_suggestions(
        _data([_coded("c1", "b1", install_year=1953)], [_action("a1", "c1", year=Y)]),
        THRESHOLDS,
    )

    body = wanted["deviation:timing:a1"].body
    assert body.endswith(f"it is planned for {Y}. It cannot be done earlier than this year.")
    assert "Move it to" not in body


def test_no_text_proposes_a_year_before_y() -> None:
    """Every year a text proposes (move to, plan by, a target) is Y or later, whatever the
    plan's years; a past year is only ever named as what it is (due, planned)."""
    nodes = [
        _coded("c1", "b1", install_year=1953),
        _component("c2", "b2", grade=3),
    ]
    actions = [_action("a1", "c1", year=2003), _action("a2", "c2", kind="inspection", year=1990)]
    data = _data(nodes, actions)
    wanted = {
        **deviation_suggestions(data, THRESHOLDS),
        **condition_suggestions(data, Y),
        **overdue_suggestions(data, Y),
    }
    proposed = [
        int(year)
        for suggestion in wanted.values()
        for year in re.findall(r"(?:Move it to|by|to) (\d{4})", suggestion.title + suggestion.body)
    ]
    assert proposed and min(proposed) >= Y


def test_project_grouping_names_the_building() -> None:
    nodes = [_component("c1", "b1"), _component("c2", "b1"), _component("c3", "b2")]
    actions = [_action("a1", "c1"), _action("a2", "c2"), _action("a3", "c3"), _action("a4", "c3")]

    wanted = project_grouping_suggestions(_data(nodes, actions))

    title, body = _texts(wanted, "project_grouping:b1:2030")
    assert title == "Group 2 actions in House 3 (Block A) in 2030 into a project"
    assert body.startswith("2 planned actions in House 3 (Block A) in 2030 belong to no project")
    assert wanted["project_grouping:b1:2030"].recommended_action_json["proposed_project_name"] == (
        "House 3 (Block A) 2030"
    )
    assert wanted["project_grouping:b2:2030"].title == (
        "Group 2 actions in House 3 (Block B) in 2030 into a project"
    )


def test_condition_names_the_component_and_its_building() -> None:
    nodes = [_component("c1", "b1", grade=3), _component("c2", "b2", grade=3)]

    wanted = condition_suggestions(_data(nodes), Y)

    title, body = _texts(wanted, "condition:c1")
    assert (
        title
        == f"Plan a repair of “Windows” in House 3 (Block A) by {Y + 2}: its condition is severe"
    )
    assert body.startswith("The component “Windows” in House 3 (Block A) was graded 3")
    assert "House 3 (Block B)" in wanted["condition:c2"].title


def test_overdue_names_the_action_its_component_and_its_building() -> None:
    nodes = [_component("c1", "b1"), _component("c2", "b2")]
    actions = [
        _action("a1", "c1", kind="repair", year=Y - 1),
        _action("a2", "c2", kind="repair", year=Y - 1),
    ]

    wanted = overdue_suggestions(_data(nodes, actions), Y)

    title, body = _texts(wanted, "overdue:a1")
    assert title == f"Overdue since {Y - 1}: the repair of “Windows” in House 3 (Block A)"
    assert body.startswith(f"The repair of “Windows” in House 3 (Block A) was planned for {Y - 1}")
    assert "House 3 (Block B)" in wanted["overdue:a2"].title


def test_an_action_on_the_building_itself_names_the_building_by_its_label() -> None:
    wanted = overdue_suggestions(_data([], [_action("a1", "b2", kind="inspection", year=Y - 1)]), Y)

    assert (
        wanted["overdue:a1"].title == f"Overdue since {Y - 1}: the inspection of House 3 (Block B)"
    )


def test_a_node_outside_every_building_is_named_with_its_root() -> None:
    fence = NodeRecord("f1", "Fence", "component", None, None, None, None, "s1")

    wanted = missing_code_suggestions(_data([fence]))

    assert wanted["missing_code:f1"].title == "Assign a classification code to “Fence” in Block A"


def test_budget_peak_names_the_building_that_costs_most() -> None:
    figures = BudgetFigures(
        budget_cents=1000_00,
        year_cents={Y: 1500_00, Y + 1: 0},
        anchor_cents={Y: {"b1": 500_00, "b2": 1000_00}},
        anchor_names={"b1": PLACES["b1"], "b2": PLACES["b2"]},
        candidates={Y: [("x", 600_00)]},
    )

    found = budget_peak_suggestions(figures, Y)[f"budget_peak:{Y}"]

    assert found.body == (
        f"The actions planned for {Y} cost 1500.00 in today's prices, over the annual budget of "
        "1000.00; the most of it is in House 3 (Block B). Moving 1 one-off repair or "
        f"replacement to {Y + 1} keeps both years within the budget."
    )


@pytest.mark.parametrize("rule", ["missing_code", "condition"])
def test_two_buildings_of_one_name_give_two_different_texts(rule: str) -> None:
    nodes = [_component("c1", "b1", grade=3), _component("c2", "b2", grade=3)]
    data = _data(nodes)
    wanted = (
        missing_code_suggestions(data) if rule == "missing_code" else condition_suggestions(data, Y)
    )

    first, second = wanted[f"{rule}:c1"], wanted[f"{rule}:c2"]

    assert first.title != second.title and first.body != second.body


# --- the confirmations' names (planning.suggestions.selectors.actions_named) ------------------
@pytest.mark.django_db
def test_a_confirmation_names_the_costliest_five_actions_with_their_places_then_counts() -> None:
    from planning.models import Action, NodeKind
    from planning.suggestions.selectors import actions_named
    from tests.factories import ActionFactory, PlanFactory, StructureNodeFactory

    plan = PlanFactory.create()
    houses = [
        StructureNodeFactory.create(
            plan=plan,
            kind=NodeKind.BUILDING,
            name="House 3",
            parent=StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name=site),
        )
        for site in ("Block A", "Block B")
    ]
    yard = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Yard")
    fence = StructureNodeFactory.create(plan=plan, parent=yard, name="Fence")
    for cost, node in enumerate([*houses, fence, *houses, fence, houses[0]], start=1):
        ActionFactory.create(plan=plan, node=node, title=f"Work {cost}", estimated_cost=cost * 100)

    named = actions_named(
        plan=plan, actions=Action.objects.filter(plan=plan).select_related("node")
    )

    assert named == (
        "“Work 7” in House 3 (Block A), “Work 6” in Yard, “Work 5” in House 3 (Block B), "
        "“Work 4” in House 3 (Block A), “Work 3” in Yard and 2 more"
    )

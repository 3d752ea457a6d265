"""The suggestion rules on their own: plain records in, wanted suggestions out (no database)."""

from __future__ import annotations

from decimal import Decimal

import pytest

from planning.suggestions.rules.deviation import deviation_suggestions
from planning.suggestions.rules.missing_code import (
    code_tokens,
    missing_code_suggestions,
    prefill_code_ids,
)
from planning.suggestions.rules.project_grouping import project_grouping_suggestions
from planning.suggestions.rules.records import (
    ActionRecord,
    CodeRecord,
    NodeRecord,
    PlanData,
    Thresholds,
)
from planning.suggestions.rules.texts import money
from planning.suggestions.rules.wanted import wanted_suggestions

THRESHOLDS = Thresholds.from_settings(
    {"info": 0.25, "warning": 0.5, "critical": 1.0}, {"info": 2, "warning": 5}, year=2026
)
CODE = CodeRecord(
    id="c0000000-0000-0000-0000-000000000001",
    code="363.2",
    name="Flat roof waterproofing",
    unit="m2",
    unit_cost=Decimal("100.00"),
    service_life_years=25,
    keywords="roof,flat roof,membrane",
)


def node(
    node_id: str,
    *,
    kind: str = "component",
    building: str | None = None,
    root: str | None = None,
    name: str | None = None,
    code: str | None = None,
    quantity: str | None = None,
    install_year: int | None = None,
) -> NodeRecord:
    """`building` and `root`: the stored tree fields the sync loads (planning.tree)."""
    return NodeRecord(
        node_id,
        name or f"Node {node_id}",
        kind,
        code,
        Decimal(quantity) if quantity is not None else None,
        install_year,
        node_id if kind == "building" else building,
        root or node_id,
    )


def action(
    action_id: str,
    node_id: str,
    *,
    kind: str = "replacement",
    year: int = 2030,
    cost: str = "1000.00",
    status: str = "planned",
    project: str | None = None,
) -> ActionRecord:
    return ActionRecord(action_id, node_id, kind, year, Decimal(cost), status, project)


def data(nodes: list[NodeRecord], actions: list[ActionRecord], codes=(CODE,)) -> PlanData:
    return PlanData(
        nodes={n.id: n for n in nodes}, actions=tuple(actions), codes={c.id: c for c in codes}
    )


# --- missing_code ------------------------------------------------------------------------------
def test_component_without_code_and_no_live_action_is_info() -> None:
    wanted = missing_code_suggestions(data([node("n1")], []))
    suggestion = wanted["missing_code:n1"]
    assert suggestion.severity == "info"
    assert suggestion.suggestion_type == "missing_code"
    assert suggestion.structure_node_id == "n1"
    assert suggestion.recommended_action_json["action"] == "assign_code"


def test_component_without_code_with_live_action_is_warning() -> None:
    wanted = missing_code_suggestions(data([node("n1")], [action("a1", "n1", kind="repair")]))
    assert wanted["missing_code:n1"].severity == "warning"


@pytest.mark.parametrize("status", ["done", "cancelled"])
def test_done_or_cancelled_actions_do_not_make_missing_code_a_warning(status: str) -> None:
    wanted = missing_code_suggestions(data([node("n1")], [action("a1", "n1", status=status)]))
    assert wanted["missing_code:n1"].severity == "info"


def test_component_with_code_and_other_kinds_get_no_missing_code() -> None:
    nodes = [node("n1", code=CODE.id), node("b1", kind="building"), node("s1", kind="system")]
    assert missing_code_suggestions(data(nodes, [])) == {}


def test_prefill_ranks_codes_by_shared_words_up_to_three() -> None:
    codes = [
        CodeRecord("id-a", "100.1", "Flat roof membrane", "m2", None, None, "roof"),
        CodeRecord("id-b", "100.2", "Roof gutters", "m", None, None, "gutter"),
        CodeRecord("id-c", "100.3", "Windows", "m2", None, None, "window,glazing"),
        CodeRecord("id-d", "099.9", "Pitched roof", "m2", None, None, "tiles"),
        CodeRecord("id-e", "100.4", "Roof lights", "pcs", None, None, "skylight"),
    ]
    catalog = [(c, code_tokens(c)) for c in codes]
    # "flat", "roof", "membrane" -> a: 3; b, d, e: 1 each (ties by code: 099.9, 100.2, 100.4)
    assert prefill_code_ids("Flat roof membrane, east wing", catalog) == ["id-a", "id-d", "id-b"]


def test_prefill_is_empty_when_nothing_matches() -> None:
    catalog = [(CODE, code_tokens(CODE))]
    assert prefill_code_ids("Elevator", catalog) == []


# --- deviation: cost ---------------------------------------------------------------------------
def cost_case(cost: str) -> dict:
    # reference = 100.00 x 10 = 1000.00
    nodes = [node("n1", code=CODE.id, quantity="10")]
    return deviation_suggestions(data(nodes, [action("a1", "n1", cost=cost)]), THRESHOLDS)


@pytest.mark.parametrize(
    ("cost", "severity"),
    [
        ("1250.00", None),  # d = 0.25 exactly: no suggestion
        ("1250.01", "info"),  # just above 0.25
        ("749.99", "info"),  # below the reference counts the same
        ("1500.00", "info"),  # d = 0.5: still info
        ("1500.01", "warning"),
        ("2000.00", "warning"),  # d = 1.0: still warning
        ("2000.01", "critical"),
        ("1249.99", None),
        ("1000.00", None),
    ],
)
def test_cost_deviation_severity_at_its_thresholds(cost: str, severity: str | None) -> None:
    wanted = cost_case(cost)
    if severity is None:
        assert "deviation:cost:a1" not in wanted
    else:
        assert wanted["deviation:cost:a1"].severity == severity


def test_cost_deviation_recommended_action() -> None:
    suggestion = cost_case("1500.01")["deviation:cost:a1"]
    assert suggestion.suggestion_type == "deviation"
    assert suggestion.structure_node_id == "n1"
    assert suggestion.recommended_action_json == {
        "action": "review_action",
        "action_ids": ["a1"],
        "filter": {"structure_node_id": "n1", "year": 2030},
        "reference": {"expected_cost": "1000.00", "actual": "1500.01", "deviation": "0.5000"},
    }


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        ({"kind": "repair"}, "not a replacement"),
        ({"status": "done"}, "not live"),
        ({"status": "cancelled"}, "not live"),
    ],
)
def test_cost_deviation_only_for_live_replacements(change: dict, reason: str) -> None:
    nodes = [node("n1", code=CODE.id, quantity="10")]
    wanted = deviation_suggestions(
        data(nodes, [action("a1", "n1", cost="9000", **change)]), THRESHOLDS
    )
    assert wanted == {}, reason


@pytest.mark.parametrize("quantity", [None, "0"])
def test_cost_deviation_needs_a_positive_quantity(quantity: str | None) -> None:
    nodes = [node("n1", code=CODE.id, quantity=quantity)]
    wanted = deviation_suggestions(data(nodes, [action("a1", "n1", cost="9000")]), THRESHOLDS)
    assert "deviation:cost:a1" not in wanted


def test_cost_deviation_needs_a_unit_cost() -> None:
    code = CodeRecord(CODE.id, "1", "X", "m2", None, 25, "")
    nodes = [node("n1", code=CODE.id, quantity="10")]
    wanted = deviation_suggestions(
        data(nodes, [action("a1", "n1", cost="9000")], codes=(code,)), THRESHOLDS
    )
    assert wanted == {}


# --- deviation: timing -------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("year", "severity"),
    [
        (2030, None),  # due 2030 (2005 + 25)
        (2032, None),  # g = 2
        (2033, "info"),  # g = 3
        (2027, "info"),  # early counts the same
        (2035, "info"),  # g = 5
        (2036, "warning"),  # g = 6
        (2024, "warning"),
    ],
)
def test_timing_deviation_severity_at_its_thresholds(year: int, severity: str | None) -> None:
    nodes = [node("n1", code=CODE.id, install_year=2005)]
    wanted = deviation_suggestions(data(nodes, [action("a1", "n1", year=year)]), THRESHOLDS)
    if severity is None:
        assert "deviation:timing:a1" not in wanted
    else:
        assert wanted["deviation:timing:a1"].severity == severity


def test_timing_deviation_recommended_action() -> None:
    nodes = [node("n1", code=CODE.id, install_year=2005)]
    wanted = deviation_suggestions(data(nodes, [action("a1", "n1", year=2036)]), THRESHOLDS)
    assert wanted["deviation:timing:a1"].recommended_action_json["reference"] == {
        "due_year": 2030,
        "actual": 2036,
        "deviation": 6,
    }


def test_cost_and_timing_are_separate_suggestions() -> None:
    nodes = [node("n1", code=CODE.id, quantity="10", install_year=2005)]
    wanted = deviation_suggestions(
        data(nodes, [action("a1", "n1", year=2040, cost="3000")]), THRESHOLDS
    )
    assert set(wanted) == {"deviation:cost:a1", "deviation:timing:a1"}


def test_thresholds_come_from_settings_values() -> None:
    loose = Thresholds.from_settings(
        {"info": 2, "warning": 3, "critical": 4}, {"info": 10, "warning": 20}, year=2026
    )
    nodes = [node("n1", code=CODE.id, quantity="10", install_year=2005)]
    wanted = deviation_suggestions(data(nodes, [action("a1", "n1", year=2040, cost="3000")]), loose)
    assert wanted == {}


# --- project_grouping --------------------------------------------------------------------------
def tree() -> list[NodeRecord]:
    return [
        node("site", kind="site", name="Campus"),
        node("b1", kind="building", root="site", name="House A"),
        node("sys", kind="system", building="b1", root="site"),
        node("c1", building="b1", root="site"),
        node("c2", building="b1", root="site"),
        node("c3", root="site"),
        node("c4", root="site"),
    ]


def test_two_unprojected_actions_under_one_building_in_one_year_are_grouped() -> None:
    actions = [
        action("a2", "c2", kind="repair", cost="10.50"),
        action("a1", "c1", kind="inspection", cost="20.00"),
    ]
    wanted = project_grouping_suggestions(data(tree(), actions))
    suggestion = wanted["project_grouping:b1:2030"]
    assert suggestion.severity == "info"
    assert suggestion.structure_node_id == "b1"
    assert suggestion.recommended_action_json == {
        "action": "create_project",
        "group_item_ids": ["a1", "a2"],
        "proposed_project_name": "House A 2030",
        "year": 2030,
        "total_cost": "30.50",
    }


def test_a_single_action_is_not_grouped() -> None:
    wanted = project_grouping_suggestions(data(tree(), [action("a1", "c1")]))
    assert wanted == {}


def test_grouping_is_per_year() -> None:
    actions = [action("a1", "c1", year=2030), action("a2", "c2", year=2031)]
    assert project_grouping_suggestions(data(tree(), actions)) == {}


def test_nodes_without_a_building_ancestor_group_at_their_root() -> None:
    actions = [action("a3", "c3"), action("a4", "c4")]
    wanted = project_grouping_suggestions(data(tree(), actions))
    assert set(wanted) == {"project_grouping:site:2030"}


def test_actions_with_a_project_or_not_live_are_not_grouped() -> None:
    actions = [
        action("a1", "c1", project="p1"),
        action("a2", "c2", status="done"),
        action("a3", "c2", status="cancelled"),
        action("a4", "c2"),
    ]
    assert project_grouping_suggestions(data(tree(), actions)) == {}


def test_same_data_gives_identical_suggestions() -> None:
    nodes = [
        *tree(),
        node("c5", building="b1", root="site", code=CODE.id, quantity="3", install_year=1990),
    ]
    actions = [action("a1", "c1"), action("a2", "c2"), action("a5", "c5", cost="1")]
    first = wanted_suggestions(data(nodes, actions), THRESHOLDS)
    second = wanted_suggestions(data(list(reversed(nodes)), list(reversed(actions))), THRESHOLDS)
    assert first == second
    assert set(first) == {
        "missing_code:c1",
        "missing_code:c2",
        "missing_code:c3",
        "missing_code:c4",
        "deviation:cost:a5",
        "deviation:timing:a5",
        "project_grouping:b1:2030",
    }


@pytest.mark.parametrize(
    ("value", "text"),
    [
        ("0", "0.00"),
        ("1E+3", "1000.00"),
        ("12.345", "12.35"),
        ("0.005", "0.01"),
        ("1234.5", "1234.50"),
    ],
)
def test_money_is_a_plain_two_place_decimal_string(value: str, text: str) -> None:
    assert money(Decimal(value)) == text

from __future__ import annotations

import datetime
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from planning.models import (
    Code,
    Plan,
    PlanRole,
    planned_year_first,
)
from planning.plans.selectors import plan_access_get
from planning.plans.services.actions import action_create, action_mark_done
from planning.plans.services.plans import plan_create
from planning.transfer.imports.json_file import plan_import
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.tree.paths import DEPTH_MAX
from tests.factories import CodeFactory, PlanFactory, StructureNodeFactory, UserFactory
from tests.planning.conftest import db_counts

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"


def _node(ref: str, parent_ref: str | None = None, **fields: Any) -> dict[str, Any]:
    return {"ref": ref, "parent_ref": parent_ref, "name": f"Node {ref}", "kind": "site", **fields}


def _action(node_ref: str, **fields: Any) -> dict[str, Any]:
    return {
        "node_ref": node_ref,
        "title": "Replace it",
        "kind": "replacement",
        "planned_year": 2030,
        **fields,
    }


def _document(nodes: list[Any], actions: list[Any] | None = None, **extra: Any) -> str:
    return json.dumps({"name": "Imported", "nodes": nodes, "actions": actions or [], **extra})


def _import(owner: Any, document: str | bytes, **kwargs: Any) -> Plan:
    content = document.encode() if isinstance(document, str) else document
    return plan_import(owner=owner, content=content, filename="plan.json", **kwargs)


def _problems(owner: Any, document: str | bytes, **kwargs: Any) -> list[tuple[str, str]]:
    with pytest.raises(ImportRejected) as rejected:
        _import(owner, document, **kwargs)
    return [(problem.row, problem.field) for problem in rejected.value.problems]


def _messages(owner: Any, document: str | bytes, **kwargs: Any) -> list[str]:
    with pytest.raises(ImportRejected) as rejected:
        _import(owner, document, **kwargs)
    return [str(problem) for problem in rejected.value.problems]


# --- a valid file ----------------------------------------------------------------------------


def test_valid_import_creates_the_tree_with_codes_and_quantities(user: Any) -> None:
    roof_code = CodeFactory(code="R1")
    document = _document(
        [
            _node("S1"),
            _node("B1", "S1", kind="building", name="Main building"),
            _node(
                "C1",
                "B1",
                kind="component",
                name="Flat roof",
                code="R1",
                quantity=640.5,
                unit="m2",
                install_year=2001,
            ),
            _node("C2", "B1", kind="component", name="Radiators", code=None, quantity=None),
        ]
    )

    plan = _import(user, document)

    nodes = {node.name: node for node in plan.nodes.select_related("parent", "code")}
    assert set(nodes) == {"Node S1", "Main building", "Flat roof", "Radiators"}
    assert nodes["Node S1"].parent is None
    assert nodes["Main building"].parent == nodes["Node S1"]
    assert nodes["Flat roof"].parent == nodes["Main building"]
    assert nodes["Radiators"].parent == nodes["Main building"]
    assert nodes["Flat roof"].code == roof_code
    assert nodes["Flat roof"].quantity == Decimal("640.50")
    assert nodes["Flat roof"].unit == "m2"
    assert nodes["Flat roof"].install_year == 2001
    assert nodes["Radiators"].code is None
    assert nodes["Radiators"].quantity is None
    assert nodes["Main building"].kind == "building"


def test_valid_import_creates_the_actions_on_their_nodes(user: Any) -> None:
    document = _document(
        [_node("S1"), _node("C1", "S1", kind="component", name="Roof")],
        [
            _action("C1", title="Replace roof", planned_year=2031, estimated_cost=51200.25),
            _action("S1", title="Site walk", kind="inspection", planned_year=2026, status="done"),
        ],
    )

    plan = _import(user, document)

    actions = {action.title: action for action in plan.actions.select_related("node")}
    assert set(actions) == {"Replace roof", "Site walk"}
    roof = actions["Replace roof"]
    assert (roof.node.name, roof.kind, roof.planned_year) == ("Roof", "replacement", 2031)
    assert roof.estimated_cost == Decimal("51200.25")
    assert roof.status == "planned"
    assert actions["Site walk"].node.name == "Node S1"
    assert actions["Site walk"].status == "done"
    assert all(action.plan_id == plan.id for action in actions.values())


def test_action_without_cost_or_status_gets_zero_cost_and_planned(user: Any) -> None:
    plan = _import(user, _document([_node("S1")], [_action("S1")]))

    action = plan.actions.get()
    assert action.estimated_cost == Decimal("0.00")
    assert action.status == "planned"


def test_importer_becomes_the_owner_of_the_new_plan(user: Any) -> None:
    plan = _import(user, _document([_node("S1")]))

    assert plan.organisation == user.personal_organisation
    assert plan_access_get(user=user, number=plan.number).role == PlanRole.OWNER


def test_plan_takes_the_files_name_and_the_next_number(user: Any) -> None:
    earlier = plan_create(owner=user, name="Earlier")

    plan = _import(user, _document([_node("S1")]))

    assert plan.name == "Imported"
    assert plan.number == earlier.number + 1


def test_given_name_overrides_the_files_name(user: Any) -> None:
    plan = _import(user, _document([_node("S1")]), name="Chosen name")

    assert plan.name == "Chosen name"


def test_blank_given_name_means_the_files_name(user: Any) -> None:
    plan = _import(user, _document([_node("S1")]), name="  ")

    assert plan.name == "Imported"


def test_children_listed_before_their_parents_are_imported(user: Any) -> None:
    document = _document([_node("C", "B"), _node("B", "A"), _node("A")])

    plan = _import(user, document)

    child: Any = plan.nodes.get(name="Node C")
    assert child.parent.name == "Node B"
    assert child.parent.parent.name == "Node A"


@pytest.mark.usefixtures("suggestion_events_only")  # the import's own queries, not its events'
def test_import_writes_in_bulk_with_one_catalog_lookup(
    user: Any, django_assert_max_num_queries: Any
) -> None:
    codes = CodeFactory.create_batch(5)
    nodes = [_node("S1")] + [
        _node(f"C{index}", "S1", kind="component", code=codes[index % 5].code)
        for index in range(60)
    ]
    actions = [_action(f"C{index % 60}") for index in range(150)]

    # A handful for the plan, its number and its owner, and the write path's lock and version
    # (planning.core.writes), and an insert per batch (SQLite's parameter limit makes 61 nodes of 17
    # columns two), and the history's three (the import's actor handed to the database and
    # taken back, its one entry), the owner's organisation for its catalog and its latest
    # plan's currency (the file names none); a row-by-row write would be 200+.
    with django_assert_max_num_queries(24) as queries:
        plan = _import(user, _document(nodes, actions))

    catalog_reads = [q["sql"] for q in queries.captured_queries if '"planning_code"' in q["sql"]]
    assert len(catalog_reads) == 1, catalog_reads
    assert (plan.nodes.filter(code__isnull=False).count(), plan.actions.count()) == (60, 150)


def test_cost_with_more_than_cents_is_rounded(user: Any) -> None:
    plan = _import(user, _document([_node("S1")], [_action("S1", estimated_cost=10.005)]))

    assert plan.actions.get().estimated_cost == Decimal("10.01")


def test_example_plan_file_imports(user: Any) -> None:
    # The example uses codes of the starter catalog; make sure they exist whatever the catalog.
    for code in ("363.2", "334.2", "421.1"):
        Code.objects.get_or_create(code=code, defaults={"name": f"Example {code}"})

    plan = _import(user, (EXAMPLES / "plan.json").read_bytes())

    assert plan.name == "Riverside school"
    assert plan.nodes.count() == 8
    assert plan.actions.count() == 5
    roof: Any = plan.nodes.get(name="Flat roof")
    assert roof.code.code == "363.2"


# --- one test per kind of problem -------------------------------------------------------------


def test_unknown_code_is_reported(user: Any) -> None:
    assert _problems(user, _document([_node("S1", code="999.9")])) == [("node 1", "code")]


def test_parent_ref_that_does_not_exist_is_reported(user: Any) -> None:
    messages = _messages(user, _document([_node("S1"), _node("B1", "B9")]))

    assert messages == ['node 2 (ref "B1"): parent_ref: no node with ref "B9"']


def test_cycle_is_reported_once_on_its_first_node(user: Any) -> None:
    document = _document([_node("S1"), _node("A", "C"), _node("B", "A"), _node("C", "B")])

    with pytest.raises(ImportRejected) as rejected:
        _import(user, document)

    [problem] = rejected.value.problems
    assert (problem.row, problem.field) == ("node 2", "parent_ref")
    assert "cycle: A -> C -> B -> A" in problem.message


def test_node_that_is_its_own_parent_is_reported_as_a_cycle(user: Any) -> None:
    messages = _messages(user, _document([_node("A", "A")]))

    assert len(messages) == 1
    assert messages[0].startswith('node 1 (ref "A"): parent_ref: cycle: A -> A')


def test_a_tree_deeper_than_the_stored_paths_allow_is_reported_once_per_branch(
    user: Any,
) -> None:
    chain = [_node("L0")] + [_node(f"L{i}", f"L{i - 1}") for i in range(1, DEPTH_MAX + 3)]
    branch = _node("X", f"L{DEPTH_MAX}")  # as deep as L51, its first node too deep

    messages = _messages(user, _document([*chain, branch]))

    levels = DEPTH_MAX + 1
    assert messages == [
        f'node {DEPTH_MAX + 2} (ref "L{levels}"): parent_ref: A structure can be at most '
        f"{levels} levels deep.",
        f'node {DEPTH_MAX + 4} (ref "X"): parent_ref: A structure can be at most '
        f"{levels} levels deep.",
    ]


def test_duplicate_ref_is_reported_on_the_second_node(user: Any) -> None:
    messages = _messages(user, _document([_node("S1"), _node("B1", "S1"), _node("S1")]))

    assert messages == ['node 3: ref: duplicate ref "S1" (first at node 1)']


def test_install_year_out_of_range_is_reported(user: Any) -> None:
    document = _document([_node("S1", install_year=1850)])

    assert _problems(user, document) == [("node 1", "install_year")]


def test_planned_year_out_of_range_is_reported(user: Any) -> None:
    document = _document([_node("S1")], [_action("S1"), _action("S1", planned_year=2201)])

    assert _problems(user, document) == [("action 2", "planned_year")]


def test_negative_cost_is_reported(user: Any) -> None:
    messages = _messages(user, _document([_node("S1")], [_action("S1", estimated_cost=-5)]))

    assert messages == ["action 1: estimated_cost: Cannot be negative."]


def test_negative_quantity_is_reported(user: Any) -> None:
    assert _problems(user, _document([_node("S1", quantity=-1)])) == [("node 1", "quantity")]


def test_too_large_cost_is_reported(user: Any) -> None:
    document = _document([_node("S1")], [_action("S1", estimated_cost=1e15)])

    assert _problems(user, document) == [("action 1", "estimated_cost")]


def test_wrong_node_kind_is_reported(user: Any) -> None:
    messages = _messages(user, _document([_node("S1", kind="campus")]))

    assert messages == [
        'node 1 (ref "S1"): kind: “campus” is not one of: site, building, system, component.'
    ]


def test_wrong_action_kind_is_reported(user: Any) -> None:
    document = _document([_node("S1")], [_action("S1", kind="paint")])

    assert _problems(user, document) == [("action 1", "kind")]


def test_wrong_action_status_is_reported(user: Any) -> None:
    document = _document([_node("S1")], [_action("S1", status="maybe")])

    assert _problems(user, document) == [("action 1", "status")]


def test_missing_required_node_field_is_reported(user: Any) -> None:
    node = _node("S1")
    del node["name"]

    assert _messages(user, _document([node])) == ['node 1 (ref "S1"): name: is required']


def test_missing_required_action_field_is_reported(user: Any) -> None:
    action = _action("S1")
    del action["planned_year"]

    assert _problems(user, _document([_node("S1")], [action])) == [("action 1", "planned_year")]


def test_blank_required_text_is_reported_as_missing(user: Any) -> None:
    document = _document([_node("S1")], [_action("S1", title="   ")])

    assert _messages(user, document) == ["action 1: title: is required"]


def test_missing_plan_name_is_reported(user: Any) -> None:
    document = json.dumps({"nodes": [_node("S1")], "actions": []})

    assert _messages(user, document) == ["name: is required"]


def test_missing_plan_name_is_fine_when_a_name_is_given(user: Any) -> None:
    document = json.dumps({"nodes": [_node("S1")]})

    plan = _import(user, document, name="Given")

    assert plan.name == "Given"


def test_text_where_a_number_belongs_is_reported(user: Any) -> None:
    messages = _messages(user, _document([_node("S1", quantity="ten")]))

    assert messages == ['node 1 (ref "S1"): quantity: must be a number, got "ten"']


def test_year_given_as_text_is_reported(user: Any) -> None:
    document = _document([_node("S1")], [_action("S1", planned_year="2030")])

    assert _problems(user, document) == [("action 1", "planned_year")]


def test_number_where_text_belongs_is_reported(user: Any) -> None:
    messages = _messages(user, _document([_node("S1"), _node("S2", name=12)]))

    assert messages == ['node 2 (ref "S2"): name: must be a string, got 12']


def test_unknown_field_is_reported(user: Any) -> None:
    assert _problems(user, _document([_node("S1", instal_year=2001)])) == [
        ("node 1", "instal_year")
    ]


def test_action_on_a_missing_node_is_reported(user: Any) -> None:
    messages = _messages(user, _document([_node("S1")], [_action("S9")]))

    assert messages == ['action 1: node_ref: no node with ref "S9"']


def test_row_that_is_not_an_object_is_reported(user: Any) -> None:
    assert _problems(user, _document([_node("S1"), "S2"])) == [("node 2", "")]


def test_malformed_json_is_reported(user: Any) -> None:
    messages = _messages(user, '{"name": "x", "nodes": [')

    assert len(messages) == 1
    assert messages[0].startswith("plan.json: not valid JSON")


def test_json_nested_too_deeply_is_reported(user: Any) -> None:
    assert _messages(user, "[" * 100_000 + "]" * 100_000) == [
        "plan.json: nested more than 8 levels deep; a plan document needs 4"
    ]


def test_file_that_is_not_utf8_is_reported(user: Any) -> None:
    messages = _messages(user, b'{"name": "Caf\xe9", "nodes": []}')

    assert messages == ["plan.json: not UTF-8 text (byte 13 is invalid)"]


def test_file_that_is_not_an_object_is_reported(user: Any) -> None:
    assert _messages(user, "[1, 2]") == ["plan.json: must be a JSON object, got a list"]


def test_nodes_that_are_not_a_list_is_reported(user: Any) -> None:
    document = json.dumps({"name": "x", "nodes": {"ref": "S1"}})

    assert _messages(user, document) == ["nodes: must be a list, got an object"]


def test_file_too_large_is_reported(user: Any, settings: Any) -> None:
    settings.IMPORT_MAX_BYTES = 100
    document = _document([_node(f"S{index}") for index in range(10)])

    messages = _messages(user, document)

    assert messages == [f"plan.json: file too large ({len(document)} bytes; the limit is 100)"]


# --- all or nothing ---------------------------------------------------------------------------


def test_every_problem_is_reported_at_once_in_file_order(user: Any) -> None:
    CodeFactory(code="R1")
    document = _document(
        [
            _node("S1", code="R1"),
            _node("B1", "S9", kind="tower"),
            _node("S1", quantity=-2),
            _node("C1", "S1", code="X", install_year=3000),
        ],
        [_action("S1", planned_year=1800), _action("Z1", estimated_cost=-1, status="later")],
    )

    assert _problems(user, document) == [
        ("node 2", "kind"),
        ("node 2", "parent_ref"),
        ("node 3", "quantity"),
        ("node 3", "ref"),
        ("node 4", "install_year"),
        ("node 4", "code"),
        ("action 1", "planned_year"),
        ("action 2", "estimated_cost"),
        ("action 2", "status"),
        ("action 2", "node_ref"),
    ]


def test_rejected_import_writes_nothing(user: Any) -> None:
    other_user: Any = UserFactory()
    plan_create(owner=other_user, name="Existing")
    before = db_counts()
    document = _document([_node("S1"), _node("B1", "S1")], [_action("B1", kind="paint")])

    with pytest.raises(ImportRejected):
        _import(user, document)

    assert db_counts() == before


def test_more_nodes_than_a_plan_holds_is_one_problem_and_writes_nothing(
    user: Any, settings: Any
) -> None:
    settings.PLAN_MAX_NODES = 3
    before = db_counts()
    # The fourth node is also malformed: over the limit, no row is checked at all.
    document = _document([_node("S1"), _node("S2"), _node("S3"), _node("S4", kind="castle")])

    messages = _messages(user, document)

    assert messages == ["nodes: A plan can hold at most 3 nodes; this one has more."]
    assert db_counts() == before


def test_more_actions_than_a_plan_holds_is_one_problem_and_writes_nothing(
    user: Any, settings: Any
) -> None:
    settings.PLAN_MAX_ACTIONS = 2
    before = db_counts()
    document = _document([_node("S1")], [_action("S1"), _action("S1"), _action("S1")])

    messages = _messages(user, document)

    assert messages == ["actions: A plan can hold at most 2 actions; this one has more."]
    assert db_counts() == before


def test_a_plan_of_exactly_the_limits_is_imported(user: Any, settings: Any) -> None:
    settings.PLAN_MAX_NODES, settings.PLAN_MAX_ACTIONS = 2, 2
    document = _document([_node("S1"), _node("S2")], [_action("S1"), _action("S2")])

    plan = _import(user, document)

    assert (plan.nodes.count(), plan.actions.count()) == (2, 2)


def test_rejected_import_does_not_use_up_a_plan_number(user: Any) -> None:
    first = plan_create(owner=user, name="First")
    with pytest.raises(ImportRejected):
        _import(user, _document([_node("S1", kind="nope")]))

    plan = _import(user, _document([_node("S1")]))

    assert plan.number == first.number + 1


def test_problem_reads_as_row_field_and_message() -> None:
    assert str(ImportProblem("node 4", "parent_ref", "no node")) == "node 4: parent_ref: no node"
    assert str(ImportProblem("actions.csv line 4", "planned_year", "bad")) == (
        "actions.csv line 4: planned_year: bad"
    )
    assert str(ImportProblem("plan.json", "", "not valid JSON")) == "plan.json: not valid JSON"
    assert str(ImportProblem("", "name", "is required")) == "name: is required"


def test_rejection_message_lists_every_problem(user: Any) -> None:
    with pytest.raises(ImportRejected) as rejected:
        _import(user, _document([_node("S1", kind="x"), _node("S1")]))

    assert str(rejected.value).splitlines() == [
        "2 problems; nothing was imported",
        'node 1 (ref "S1"): kind: “x” is not one of: site, building, system, component.',
        'node 2: ref: duplicate ref "S1" (first at node 1)',
    ]


def test_rows_count_from_one_and_name_their_ref(user: Any) -> None:
    document = _document(
        [_node("S1"), _node("B1", "S9", kind="building")],
        [_action("S1"), _action("B1", planned_year=1500)],
    )

    assert _messages(user, document) == [
        'node 2 (ref "B1"): parent_ref: no node with ref "S9"',
        f"action 2: planned_year: Enter a planned year from {planned_year_first()} on (at most "
        "50 years back).",
    ]


def test_nodes_that_are_not_a_list_make_no_problem_of_every_action(user: Any) -> None:
    document = json.dumps({"name": "P", "nodes": {"S1": {}}, "actions": [_action("S1")]})

    assert _messages(user, document) == ["nodes: must be a list, got an object"]


# --- work done (docs/subsystems/imports.md "Work done") -------------------------------------
# Y and today as the code reads them: UTC.
Y = timezone.now().year
TODAY = timezone.now().date()


def _done(plan: Plan) -> list[tuple[Any, ...]]:
    """Each action with its completions: (title, status, planned_year, [(completed_on,
    actual_cost, estimated_cost, planned_year of the occurrence done)])."""
    return [
        (
            action.title,
            action.status,
            action.planned_year,
            [
                (c.completed_on, c.actual_cost, c.estimated_cost, c.planned_year)
                for c in action.completions.all()
            ],
        )
        for action in plan.actions.order_by("title")
    ]


def test_a_done_one_off_row_becomes_a_done_action_with_its_completion(user: Any) -> None:
    row = _action(
        "S1",
        title="Relay roof",
        planned_year=Y - 2,
        estimated_cost="900",
        status="done",
        completed_on=f"{Y - 2}-05-04",
        actual_cost="1040.5",
    )

    plan = _import(user, _document([_node("S1")], [row]))

    assert _done(plan) == [
        (
            "Relay roof",
            "done",
            Y - 2,
            [(datetime.date(Y - 2, 5, 4), Decimal("1040.50"), Decimal("900.00"), Y - 2)],
        )
    ]
    assert plan.actions.get().completions.get().by is None


def test_a_done_recurring_row_moves_on_as_mark_done_moves_it(user: Any) -> None:
    done_on = datetime.date(Y - 3, 6, 1)
    row = _action(
        "S1",
        title="Service boiler",
        planned_year=Y - 4,
        estimated_cost=120,
        interval_years=5,
        status="done",
        completed_on=done_on.isoformat(),
    )
    marked = action_create(
        plan=(node := StructureNodeFactory.create()).plan,
        node=node,
        title="Service boiler",
        kind="repair",
        planned_year=Y - 4,
        interval_years=5,
    )
    action_mark_done(action=marked, completed_on=done_on)

    plan = _import(user, _document([_node("S1")], [row]))

    imported = plan.actions.get()
    marked.refresh_from_db()
    assert (imported.status, imported.planned_year) == (marked.status, marked.planned_year)
    assert _done(plan) == [
        ("Service boiler", "planned", Y + 2, [(done_on, None, Decimal("120.00"), Y - 4)])
    ]


def test_a_done_row_without_a_date_is_done_on_31_december_of_its_year_never_after_today(
    user: Any,
) -> None:
    rows = [
        _action("S1", title="Last year", planned_year=Y - 1, status="done"),
        _action("S1", title="Next year", planned_year=Y + 1, status="done"),
    ]

    plan = _import(user, _document([_node("S1")], rows))

    dates = dict(plan.actions.values_list("title", "completions__completed_on"))
    assert dates == {"Last year": datetime.date(Y - 1, 12, 31), "Next year": TODAY}


def test_a_planned_row_with_a_completion_keeps_its_year_and_records_the_work(user: Any) -> None:
    """As the export writes an action marked done and moved on (or reopened)."""
    rows = [
        _action(
            "S1",
            title="Gutters",
            planned_year=Y + 1,
            interval_years=2,
            completed_on=f"{Y - 1}-09-30",
            actual_cost=80,
        ),
        _action("S1", title="Fence", planned_year=Y - 1, completed_on=f"{Y - 1}-03-01"),
    ]

    plan = _import(user, _document([_node("S1")], rows))

    assert _done(plan) == [
        ("Fence", "planned", Y - 1, [(datetime.date(Y - 1, 3, 1), None, Decimal("0.00"), Y - 1)]),
        (
            "Gutters",
            "planned",
            Y + 1,
            [(datetime.date(Y - 1, 9, 30), Decimal("80.00"), Decimal("0.00"), Y - 1)],
        ),
    ]


def test_problems_of_work_done_are_listed_with_row_and_field_and_nothing_is_written(
    user: Any,
) -> None:
    tomorrow = TODAY + datetime.timedelta(days=1)
    rows = [
        _action("S1", status="done", completed_on="1949-12-31"),
        _action("S1", status="done", completed_on=tomorrow.isoformat()),
        _action("S1", status="done", completed_on="04/05/2025"),
        _action("S1", status="done", actual_cost=-1),
        _action("S1", actual_cost=10),
        _action("S1", status="done", interval_years=5, completed_on="1951-01-01"),
    ]
    before = db_counts()

    messages = _messages(user, _document([_node("S1")], rows))

    assert messages == [
        "action 1: completed_on: Enter a date from 1950-01-01 on.",
        f"action 2: completed_on: Enter a date no later than today ({TODAY.isoformat()}).",
        'action 3: completed_on: must be a date as YYYY-MM-DD, got "04/05/2025"',
        "action 4: actual_cost: Cannot be negative.",
        "action 5: actual_cost: is the cost of work done: give its completed_on too, or the "
        "status done",
        "action 6: completed_on: moves the recurring action on to 1956 (the completion's year + "
        f"interval_years): Enter a planned year from {Y - 50} on (at most 50 years back).",
    ]
    assert db_counts() == before


# --- the plan's currency (docs/subsystems/imports.md "Currency") ------------------------------


def test_the_files_currency_comes_before_the_one_chosen(user: Any) -> None:
    plan = _import(user, _document([_node("S1")], currency="sek"), currency="NOK")

    assert plan.currency == "SEK"


def test_a_file_without_a_currency_takes_the_one_chosen(user: Any) -> None:
    plan = _import(user, _document([_node("S1")]), currency=" nok ")

    assert plan.currency == "NOK"


def test_without_a_choice_a_plan_takes_its_organisations_latest_currency(
    user: Any, settings: Any
) -> None:
    settings.PLAN_DEFAULT_CURRENCY = "CHF"
    first = _import(user, _document([_node("S1")]))
    PlanFactory.create(organisation=user.personal_organisation, currency="DKK")
    PlanFactory.create(currency="USD")  # another organisation's

    latest = _import(user, _document([_node("S1")]))

    assert (first.currency, latest.currency) == ("CHF", "DKK")


def test_a_chosen_currency_is_checked_as_the_plan_model_checks_it(user: Any) -> None:
    assert _messages(user, _document([_node("S1")], currency="EUR"), currency="E1R") == [
        "currency: Enter a 3-letter currency code such as EUR or USD."
    ]


def test_a_components_consequence_grade_is_imported(user: Any) -> None:
    component = _node("C1", "S1", kind="component", condition_grade=2, condition_consequence=3)
    plan = _import(user, _document([_node("S1"), component]))

    node = plan.nodes.get(ref="C1")
    assert (node.condition_grade, node.condition_consequence, node.condition_risk) == (2, 3, 6)


def test_a_consequence_grade_out_of_range_is_reported(user: Any) -> None:
    component = _node("C1", "S1", kind="component", condition_consequence=4)
    messages = _messages(user, _document([_node("S1"), component]))

    assert messages == [
        'node 2 (ref "C1"): condition_consequence: Enter a consequence grade from 0 to 3.'
    ]

from __future__ import annotations

import datetime
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from planning.models import Code, Plan, PlanRole, planned_year_last
from planning.plans.selectors import plan_access_get
from planning.transfer.imports.csv_pair import plan_import_csv
from planning.transfer.imports.problems import ImportRejected
from tests.factories import CodeFactory
from tests.planning.conftest import db_counts

pytestmark = pytest.mark.django_db

EXAMPLES = Path(__file__).resolve().parents[2] / "docs" / "examples"
NODES_HEADER = "ref,parent_ref,name,kind,code,quantity,unit,install_year\n"
ACTIONS_HEADER = "node_ref,title,kind,planned_year,estimated_cost,status\n"
NODES = NODES_HEADER + "S1,,Harbour site,site,,,,\nB1,S1,Warehouse,building,,,,\n"


def _import(nodes: str | bytes, actions: str | bytes, owner: Any, name: Any = "From CSV") -> Plan:
    return plan_import_csv(
        owner=owner,
        nodes_csv=nodes.encode() if isinstance(nodes, str) else nodes,
        actions_csv=actions.encode() if isinstance(actions, str) else actions,
        name=name,
    )


def _messages(
    nodes: str | bytes, actions: str | bytes, owner: Any, name: str | None = "x"
) -> list[str]:
    with pytest.raises(ImportRejected) as rejected:
        _import(nodes, actions, owner, name)
    return [str(problem) for problem in rejected.value.problems]


def test_csv_pair_creates_the_tree_and_the_actions(user: Any) -> None:
    code = CodeFactory(code="R1")
    nodes = NODES + "C1,B1,Pitched roof,component,R1,1200.5,m2,1978\n"
    actions = ACTIONS_HEADER + "C1,Retile roof,replacement,2028,114000,planned\n"

    plan = _import(nodes, actions, user)

    roof: Any = plan.nodes.select_related("parent__parent").get(name="Pitched roof")
    assert (roof.parent.name, roof.parent.parent.name) == ("Warehouse", "Harbour site")
    assert roof.code == code
    assert (roof.quantity, roof.unit, roof.install_year) == (Decimal("1200.50"), "m2", 1978)
    action = plan.actions.get()
    assert (action.node, action.title, action.kind) == (roof, "Retile roof", "replacement")
    assert (action.planned_year, action.estimated_cost) == (2028, Decimal("114000.00"))
    assert plan.name == "From CSV"
    assert plan_access_get(user=user, number=plan.number).role == PlanRole.OWNER


def test_empty_cells_mean_none(user: Any) -> None:
    actions = ACTIONS_HEADER + "B1,Check,inspection,2026,,\n"

    plan = _import(NODES, actions, user)

    site = plan.nodes.get(name="Harbour site")
    assert (site.parent, site.code, site.quantity, site.install_year) == (None, None, None, None)
    action = plan.actions.get()
    assert (action.estimated_cost, action.status) == (Decimal("0.00"), "planned")


def test_optional_columns_may_be_left_out(user: Any) -> None:
    nodes = "ref,name,kind\nS1,Site,site\n"
    actions = "node_ref,title,kind,planned_year\nS1,Walk,inspection,2027\n"

    plan = _import(nodes, actions, user)

    assert plan.nodes.get().name == "Site"
    assert plan.actions.get().title == "Walk"


def test_excel_byte_order_mark_and_blank_lines_are_accepted(user: Any) -> None:
    nodes = "\ufeff" + NODES + ",,,,,,,\n\n"

    plan = _import(nodes, ACTIONS_HEADER, user)

    assert plan.nodes.count() == 2


def test_example_csv_files_import(user: Any) -> None:
    for code in ("363.1", "334.4", "445.1"):
        Code.objects.get_or_create(code=code, defaults={"name": f"Example {code}"})

    plan = _import(
        (EXAMPLES / "nodes.csv").read_bytes(), (EXAMPLES / "actions.csv").read_bytes(), user
    )

    assert plan.nodes.count() == 5
    assert plan.actions.count() == 4


def test_problem_names_the_file_line_and_column(user: Any) -> None:
    actions = ACTIONS_HEADER + "B1,Paint,repair,2030,100,\nB1,Paint again,repair,2300,100,\n"

    messages = _messages(NODES, actions, user)

    assert messages == [
        f"actions.csv line 3: planned_year: Enter a planned year up to {planned_year_last()} (at "
        "most 100 years ahead)."
    ]


def test_text_in_a_number_column_is_reported(user: Any) -> None:
    nodes = NODES + "C1,B1,Roof,component,,lots,,\n"

    assert _messages(nodes, ACTIONS_HEADER, user) == [
        'nodes.csv line 4 (ref "C1"): quantity: must be a number, got "lots"'
    ]


def test_missing_required_column_is_reported(user: Any) -> None:
    nodes = "ref,parent_ref,name\nS1,,Site\n"

    assert _messages(nodes, ACTIONS_HEADER, user) == [
        "nodes.csv line 1: kind: required column is missing"
    ]


def test_unknown_column_is_reported(user: Any) -> None:
    actions = "node_ref,title,kind,planned_year,cost\n"

    messages = _messages(NODES, actions, user)

    assert len(messages) == 1
    assert messages[0].startswith("actions.csv line 1: cost: unknown column")


def test_a_misspelt_header_cell_is_one_problem_with_no_follow_on(user: Any) -> None:
    nodes = NODES.replace("ref,parent_ref,", "reff,parent_ref,", 1)
    actions = ACTIONS_HEADER + "B1,Paint,repair,2030,,\n"

    messages = _messages(nodes, actions, user)

    # not also "ref: required column is missing", nor "no node with ref B1" for the action
    assert messages == ['nodes.csv line 1: reff: unknown column; did you mean "ref"?']


def test_file_without_header_row_is_reported(user: Any) -> None:
    assert _messages("", ACTIONS_HEADER, user) == ["nodes.csv: is empty; a header row is required"]


def test_file_that_is_not_utf8_is_reported(user: Any) -> None:
    actions = ACTIONS_HEADER.encode() + b"B1,R\xe9paration,repair,2030,,\n"

    messages = _messages(NODES, actions, user)

    assert len(messages) == 1
    assert messages[0].startswith("actions.csv: not UTF-8 text")


def test_file_too_large_is_reported(user: Any, settings: Any) -> None:
    settings.IMPORT_MAX_BYTES = 80

    messages = _messages(NODES, ACTIONS_HEADER, user)

    assert messages == [f"nodes.csv: file too large ({len(NODES)} bytes; the limit is 80)"]


def test_more_nodes_than_a_plan_holds_is_one_problem_and_writes_nothing(
    user: Any, settings: Any
) -> None:
    settings.PLAN_MAX_NODES = 2
    before = db_counts()
    nodes = NODES + "C1,B1,Roof,component,,,,\n"

    messages = _messages(nodes, ACTIONS_HEADER, user)

    assert messages == ["nodes: A plan can hold at most 2 nodes; this one has more."]
    assert db_counts() == before


def test_more_actions_than_a_plan_holds_is_one_problem_and_writes_nothing(
    user: Any, settings: Any
) -> None:
    settings.PLAN_MAX_ACTIONS = 2
    before = db_counts()
    rows = "B1,Check,inspection,2026,,\nB1,Paint,repair,2027,,\nS1,Fence,repair,2028,,\n"

    messages = _messages(NODES, ACTIONS_HEADER + rows, user)

    assert messages == ["actions: A plan can hold at most 2 actions; this one has more."]
    assert db_counts() == before


def test_row_with_more_cells_than_columns_is_reported(user: Any) -> None:
    nodes = NODES + "C1,B1,Roof,component,,,,,surplus\n"

    assert _messages(nodes, ACTIONS_HEADER, user) == [
        "nodes.csv line 4: has 9 cells but the header has 8 columns"
    ]


def test_problems_of_both_files_are_reported_together(user: Any) -> None:
    nodes = NODES + "C1,B9,Roof,component,,,,\nB1,S1,Again,building,,,,\n"
    actions = ACTIONS_HEADER + "C1,Fix,mend,2030,-3,\nX1,Fix,repair,2030,,\n"

    messages = _messages(nodes, actions, user)

    assert messages == [
        'nodes.csv line 4 (ref "C1"): parent_ref: no node with ref "B9"',
        'nodes.csv line 5: ref: duplicate ref "B1" (first at nodes.csv line 3)',
        "actions.csv line 2: kind: “mend” is not one of: inspection, repair, replacement.",
        "actions.csv line 2: estimated_cost: Cannot be negative.",
        'actions.csv line 3: node_ref: no node with ref "X1"',
    ]


def test_empty_plan_name_is_reported(user: Any) -> None:
    assert _messages(NODES, ACTIONS_HEADER, user, name="  ") == ["name: is required"]


def test_missing_plan_name_is_reported_with_the_other_problems(user: Any) -> None:
    nodes = NODES + "C1,B1,Roof,tower,,,,\n"

    messages = _messages(nodes, ACTIONS_HEADER, user, name=None)

    assert messages == [
        "name: is required",
        'nodes.csv line 4 (ref "C1"): kind: “tower” is not one of: site, building, system, '
        "component.",
    ]


def test_rejected_csv_import_writes_nothing(user: Any) -> None:
    before = db_counts()
    actions = ACTIONS_HEADER + "B1,Fix,repair,2030,,\nB1,Fix,repair,1700,,\n"

    with pytest.raises(ImportRejected):
        _import(NODES, actions, user)

    assert db_counts() == before


@pytest.mark.parametrize("separator", [";", "\t"])
def test_a_csv_pair_with_semicolons_or_tabs_is_read_like_one_with_commas(
    user: Any, separator: str
) -> None:
    from planning.transfer.imports.csv_pair import plan_import_csv

    nodes = "ref;parent_ref;name;kind\nS;;Campus;site\nB;S;Hall 2;building\n"
    actions = "node_ref;title;kind;planned_year;estimated_cost\nB;Paint;repair;2031;1200.50\n"

    plan = plan_import_csv(
        owner=user,
        nodes_csv=nodes.replace(";", separator).encode(),
        actions_csv=actions.replace(";", separator).encode(),
        name="Excel export",
    )

    assert sorted(plan.nodes.values_list("name", flat=True)) == ["Campus", "Hall 2"]
    assert str(plan.actions.get().estimated_cost) == "1200.50"


# --- work done (docs/subsystems/imports.md "Work done") -------------------------------------
Y = timezone.now().year  # as the code reads it: UTC
WORK_HEADER = "node_ref,title,kind,planned_year,estimated_cost,status,interval_years," + (
    "completed_on,actual_cost\n"
)


def test_done_rows_of_a_csv_pair_become_completions(user: Any) -> None:
    actions = WORK_HEADER + (
        f"B1,Relay roof,replacement,{Y - 2},900,done,,{Y - 2}-05-04,1040.5\n"
        f"B1,Service boiler,repair,{Y - 4},120,Done,5,{Y - 3}-06-01,\n"
    )

    plan = _import(NODES, actions, user)

    rows = [
        (
            action.title,
            action.status,
            action.planned_year,
            list(action.completions.values_list("completed_on", "actual_cost", "planned_year")),
        )
        for action in plan.actions.order_by("title")
    ]
    assert rows == [
        ("Relay roof", "done", Y - 2, [(datetime.date(Y - 2, 5, 4), Decimal("1040.50"), Y - 2)]),
        ("Service boiler", "planned", Y + 2, [(datetime.date(Y - 3, 6, 1), None, Y - 4)]),
    ]


def test_a_semicolon_csv_reads_an_actual_cost_with_a_decimal_comma(user: Any) -> None:
    actions = WORK_HEADER.replace(",", ";") + f"B1;Paint;repair;{Y - 1};900;done;;;1.040,50\n"

    plan = _import(NODES.replace(",", ";"), actions, user)

    assert plan.actions.get().completions.get().actual_cost == Decimal("1040.50")


def test_a_bad_completion_in_a_csv_pair_names_its_line_and_column(user: Any) -> None:
    actions = WORK_HEADER + (
        f"B1,Paint,repair,{Y - 1},900,done,,1949-12-31,\nB1,Paint,repair,{Y - 1},900,done,,,lots\n"
    )

    assert _messages(NODES, actions, user) == [
        "actions.csv line 2: completed_on: Enter a date from 1950-01-01 on.",
        'actions.csv line 3: actual_cost: must be a number, got "lots"',
    ]


# --- the plan file: name, currency, prices (docs/subsystems/imports.md "Currency") ------------


def _with_plan_file(plan_csv: str, owner: Any, **kwargs: Any) -> Plan:
    return plan_import_csv(
        owner=owner,
        nodes_csv=NODES.encode(),
        actions_csv=ACTIONS_HEADER.encode(),
        plan_csv=plan_csv.encode(),
        **kwargs,
    )


def test_the_plan_file_gives_the_name_the_currency_and_the_prices(user: Any) -> None:
    plan_csv = (
        "field,value\nname,Harbour depot\ncurrency,sek\nIndex rate percent,2.5\n"
        "price_base_year,2025\n"
    )

    plan = _with_plan_file(plan_csv, user, name=None, filename="nodes.csv", currency="NOK")

    assert (plan.name, plan.currency, plan.index_rate_percent, plan.price_base_year) == (
        "Harbour depot",
        "SEK",
        Decimal("2.5"),
        2025,
    )


def test_a_semicolon_plan_file_reads_a_decimal_comma(user: Any) -> None:
    plan = _with_plan_file("currency;DKK\nannual_budget;1.250.000,50\n", user, name="Depot")

    assert (plan.currency, plan.annual_budget) == ("DKK", Decimal("1250000.50"))


def test_without_a_currency_in_the_plan_file_the_one_chosen_is_taken(user: Any) -> None:
    plan = _with_plan_file("name,Depot\n", user, name=None, currency="NOK")

    assert (plan.name, plan.currency) == ("Depot", "NOK")


def test_a_csv_pair_without_a_plan_file_takes_the_one_chosen(user: Any) -> None:
    plan = plan_import_csv(
        owner=user,
        nodes_csv=NODES.encode(),
        actions_csv=ACTIONS_HEADER.encode(),
        name=None,
        filename="Harbour depot.csv",
        currency="sek",
    )

    assert (plan.name, plan.currency) == ("Harbour depot", "SEK")


def test_problems_of_the_plan_file_are_listed_with_its_line(user: Any) -> None:
    plan_csv = "field,value\ncurency,SEK\ncurrency,S3K\nvat_percent,lots\n"

    with pytest.raises(ImportRejected) as rejected:
        _with_plan_file(plan_csv, user, name="Depot")

    assert [str(problem) for problem in rejected.value.problems] == [
        "plan.csv line 2: curency: unknown plan field (the fields are: name, description, "
        "currency, price_base_year, index_rate_percent, markups, overhead_percent, vat_percent, "
        "annual_budget)",
        'plan.csv: vat_percent: must be a number, got "lots"',
        "plan.csv: currency: Enter a 3-letter currency code such as EUR or USD.",
    ]

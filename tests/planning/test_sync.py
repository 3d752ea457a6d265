"""The suggestion sync: every transition, idempotence, query count, the log line."""

from __future__ import annotations

import dataclasses
import gc
import logging
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from planning.core.writes import plan_write
from planning.models import (
    Action,
    ActionKind,
    Code,
    NodeKind,
    Plan,
    PlanChange,
    StructureNode,
    Suggestion,
    SuggestionStatus,
)
from planning.plans.services.nodes import node_create, node_rename
from planning.suggestions.rules.records import WantedSuggestion
from planning.suggestions.selectors import suggestions_open
from planning.suggestions.services.apply import suggestion_apply_code, suggestion_apply_project
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.suggestions.sync.reconcile import suggestions_create
from planning.suggestions.sync.run import suggestion_sync
from planning.tree.paths import node_prefix
from tests.factories import ActionFactory, CodeFactory, PlanFactory, StructureNodeFactory

pytestmark = pytest.mark.django_db

WRITES = ("INSERT", "UPDATE", "DELETE")


def writes(queries: CaptureQueriesContext) -> list[str]:
    return [
        q["sql"] for q in queries.captured_queries if q["sql"].lstrip().upper().startswith(WRITES)
    ]


def stored(plan: Plan) -> dict[str, Suggestion]:
    return {s.fingerprint: s for s in Suggestion.objects.filter(plan=plan)}


@pytest.fixture
def plan() -> Plan:
    return PlanFactory.create()


def test_first_sync_creates_open_suggestions(plan: Plan) -> None:
    node = StructureNodeFactory.create(plan=plan, name="Heating boiler")
    result = suggestion_sync(plan=plan)
    assert (result.created, result.updated, result.resolved, result.reopened) == (1, 0, 0, 0)
    suggestion = stored(plan)[f"missing_code:{node.pk}"]
    assert suggestion.status == SuggestionStatus.OPEN
    assert suggestion.structure_node_id == node.pk
    assert [s["id"] for s in suggestions_open(plan=plan)] == [str(suggestion.id)]


def test_names_with_copy_escapes_are_stored_as_written(plan: Plan) -> None:
    # PostgreSQL's COPY text format reads backslash, tab, newline and carriage return specially.
    name = 'Back\\slash\ttab\nnew\rline "quoted" é'
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name=name)
    for _ in range(2):
        ActionFactory.create(
            node=StructureNodeFactory.create(plan=plan, parent=building, code=CodeFactory.create())
        )
    StructureNodeFactory.create(plan=plan, parent=building, name=name)

    assert suggestion_sync(plan=plan).created == 2

    by_fingerprint = stored(plan)
    grouping = by_fingerprint[f"project_grouping:{building.pk}:2030"]
    assert grouping.recommended_action_json["proposed_project_name"] == f"{name} 2030"
    assert f" in {name} in 2030 " in grouping.title
    missing = next(s for fp, s in by_fingerprint.items() if fp.startswith("missing_code:"))
    assert f"“{name}” in {name}" in missing.title and f"“{name}” in {name}" in missing.body
    full = suggestion_sync(plan=plan, full=True)
    assert (full.created, full.updated, full.resolved, full.reopened) == (0, 0, 0, 0)


def test_first_sync_sets_last_synced_at_even_without_suggestions(plan: Plan) -> None:
    suggestion_sync(plan=plan)
    plan.refresh_from_db()
    assert plan.last_synced_at is not None
    assert Suggestion.objects.filter(plan=plan).count() == 0


def test_second_sync_without_data_change_writes_nothing(plan: Plan) -> None:
    StructureNodeFactory.create(plan=plan)
    code = CodeFactory.create(unit_cost=Decimal("10.00"))
    node = StructureNodeFactory.create(
        plan=plan, code=code, quantity=Decimal("10"), install_year=1990
    )
    ActionFactory.create(node=node, kind=ActionKind.REPLACEMENT, estimated_cost=Decimal("999"))
    suggestion_sync(plan=plan)
    plan.refresh_from_db()
    synced_at = plan.last_synced_at
    before = {s.id: s.updated_at for s in Suggestion.objects.filter(plan=plan)}
    assert len(before) == 3

    with CaptureQueriesContext(connection) as queries:
        result = suggestion_sync(plan=plan)

    assert writes(queries) == []
    assert (result.created, result.updated, result.resolved, result.reopened) == (0, 0, 0, 0)
    assert {s.id: s.updated_at for s in Suggestion.objects.filter(plan=plan)} == before
    plan.refresh_from_db()
    assert plan.last_synced_at == synced_at


def test_changed_data_updates_the_open_suggestion_in_place(plan: Plan) -> None:
    node = StructureNodeFactory.create(plan=plan, name="Boiler")
    suggestion_sync(plan=plan)
    first = stored(plan)[f"missing_code:{node.pk}"]
    ActionFactory.create(node=node)  # a live action makes it a warning
    StructureNode.objects.filter(pk=node.pk).update(name="Gas boiler")

    result = suggestion_sync(plan=plan)

    assert (result.created, result.updated) == (0, 1)
    second = stored(plan)[f"missing_code:{node.pk}"]
    assert second.id == first.id
    assert second.created_at == first.created_at
    assert second.updated_at > first.updated_at
    assert second.severity == "warning"
    assert "Gas boiler" in second.title


def test_dismissed_suggestion_stays_dismissed(plan: Plan, user: Any) -> None:
    node = StructureNodeFactory.create(plan=plan)
    suggestion_sync(plan=plan)
    suggestion = stored(plan)[f"missing_code:{node.pk}"]
    suggestions_dismiss(
        plan=plan, suggestion_ids=[suggestion.pk], user=user, reason="accepted", comment="fine"
    )
    ActionFactory.create(node=node)  # would change its severity

    result = suggestion_sync(plan=plan)

    suggestion.refresh_from_db()
    assert suggestion.status == SuggestionStatus.DISMISSED
    assert suggestion.severity == "info"
    assert (result.created, result.updated, result.reopened) == (0, 0, 0)
    assert suggestions_open(plan=plan) == []


def test_suggestion_no_longer_wanted_is_resolved_automatically(plan: Plan) -> None:
    node = StructureNodeFactory.create(plan=plan)
    suggestion_sync(plan=plan)
    StructureNode.objects.filter(pk=node.pk).update(code=CodeFactory.create())

    result = suggestion_sync(plan=plan)

    suggestion = stored(plan)[f"missing_code:{node.pk}"]
    assert result.resolved == 1
    assert suggestion.status == SuggestionStatus.RESOLVED
    assert suggestion.resolution == "auto"
    assert suggestion.resolved_at is not None


def test_resolved_suggestion_wanted_again_is_reopened_with_the_same_id(plan: Plan) -> None:
    code = CodeFactory.create()
    node = StructureNodeFactory.create(plan=plan)
    suggestion_sync(plan=plan)
    first = stored(plan)[f"missing_code:{node.pk}"]
    StructureNode.objects.filter(pk=node.pk).update(code=code)
    suggestion_sync(plan=plan)
    StructureNode.objects.filter(pk=node.pk).update(code=None)

    result = suggestion_sync(plan=plan)

    again = stored(plan)[f"missing_code:{node.pk}"]
    assert result.reopened == 1
    assert again.id == first.id
    assert again.created_at == first.created_at
    assert again.status == SuggestionStatus.OPEN
    assert again.resolution == ""
    assert again.resolved_at is None


def test_dismissed_suggestion_no_longer_wanted_stays_dismissed(plan: Plan, user: Any) -> None:
    node = StructureNodeFactory.create(plan=plan)
    suggestion_sync(plan=plan)
    suggestions_dismiss(
        plan=plan,
        suggestion_ids=[stored(plan)[f"missing_code:{node.pk}"].pk],
        user=user,
        reason="accepted",
    )
    StructureNode.objects.filter(pk=node.pk).update(code=CodeFactory.create())

    result = suggestion_sync(plan=plan)

    assert result.resolved == 0
    assert stored(plan)[f"missing_code:{node.pk}"].status == SuggestionStatus.DISMISSED


def test_applied_code_stays_resolved_as_applied(plan: Plan) -> None:
    code = CodeFactory.create(name="Zyxwidget unit", keywords="zyxwidget")
    node = StructureNodeFactory.create(plan=plan, name="Zyxwidget")
    suggestion_sync(plan=plan)
    suggestion = stored(plan)[f"missing_code:{node.pk}"]
    assert suggestion.recommended_action_json["prefill_code_ids"] == [str(code.pk)]

    suggestion_apply_code(suggestion=suggestion, code_id=str(code.pk))
    result = suggestion_sync(plan=plan)

    node.refresh_from_db()
    suggestion.refresh_from_db()
    assert node.code_id == code.pk
    assert (suggestion.status, suggestion.resolution) == ("resolved", "applied")
    assert result.resolved == 0
    assert suggestions_open(plan=plan) == []


def test_applied_grouping_creates_the_project_and_stays_resolved(plan: Plan) -> None:
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House A")
    first = ActionFactory.create(
        node=StructureNodeFactory.create(plan=plan, parent=building, code=CodeFactory.create())
    )
    second = ActionFactory.create(
        node=StructureNodeFactory.create(plan=plan, parent=building, code=CodeFactory.create())
    )
    suggestion_sync(plan=plan)
    suggestion = stored(plan)[f"project_grouping:{building.pk}:2030"]

    _, project = suggestion_apply_project(suggestion=suggestion)
    suggestion_sync(plan=plan)

    assert project.name == "House A 2030"
    assert project.year == 2030
    assert set(project.actions.values_list("pk", flat=True)) == {first.pk, second.pk}
    suggestion.refresh_from_db()
    assert (suggestion.status, suggestion.resolution) == ("resolved", "applied")
    assert suggestions_open(plan=plan) == []


def test_open_suggestions_are_ordered_by_severity_then_created_at_then_id(
    plan: Plan, monkeypatch: pytest.MonkeyPatch
) -> None:
    code = CodeFactory.create(unit_cost=Decimal("100"), service_life_years=None)
    critical_node = StructureNodeFactory.create(plan=plan, code=code, quantity=Decimal("1"))
    ActionFactory.create(
        node=critical_node, kind=ActionKind.REPLACEMENT, estimated_cost=Decimal("500")
    )
    for _ in range(12):  # info, all created by one sync: only the id orders them
        StructureNodeFactory.create(plan=plan)
    warning_node = StructureNodeFactory.create(plan=plan)
    ActionFactory.create(node=warning_node)  # a live action on an uncoded component: warning
    suggestion_sync(plan=plan)
    first_open = suggestions_open(plan=plan)
    later_node = StructureNodeFactory.create(plan=plan)  # info, created by a later sync
    # The smallest id there is: were the id to come before created_at, it would sort first.
    monkeypatch.setattr(
        "planning.suggestions.sync.write.new_ids", lambda count: [uuid.UUID(int=0)] * count
    )

    result = suggestion_sync(plan=plan)

    assert result.created == 1
    severities = [s["severity"] for s in suggestions_open(plan=plan)]
    assert severities == ["critical", "warning"] + ["info"] * 13
    assert suggestions_open(plan=plan)[1]["structure_node_id"] == str(warning_node.pk)
    infos = suggestions_open(plan=plan)[2:14]
    assert len({s["created_at"] for s in infos}) == 1
    ids = [s["id"] for s in infos]
    assert ids == sorted(ids)  # 1 in 12! to hold by chance
    assert {s["id"] for s in infos} == {s["id"] for s in first_open if s["severity"] == "info"}
    newest = suggestions_open(plan=plan)[-1]
    assert (newest["id"], newest["structure_node_id"]) == (
        str(uuid.UUID(int=0)),
        str(later_node.pk),
    )
    assert newest["created_at"] > infos[0]["created_at"]


def test_sync_reads_the_cost_thresholds_from_settings(plan: Plan, settings: Any) -> None:
    code = CodeFactory.create(unit_cost=Decimal("100"), service_life_years=None)
    node = StructureNodeFactory.create(plan=plan, code=code, quantity=Decimal("1"))
    action = ActionFactory.create(
        node=node, kind=ActionKind.REPLACEMENT, estimated_cost=Decimal("500")
    )  # 400 above the reference of 100: a deviation of 4.0
    fingerprint = f"deviation:cost:{action.pk}"
    suggestion_sync(plan=plan)
    assert stored(plan)[fingerprint].severity == "critical"  # the defaults: critical above 1.0

    settings.SUGGESTION_COST_THRESHOLDS = {"info": 3, "warning": 5, "critical": 6}
    suggestion_sync(plan=plan)
    assert stored(plan)[fingerprint].severity == "info"

    settings.SUGGESTION_COST_THRESHOLDS = {"info": 5, "warning": 6, "critical": 7}
    result = suggestion_sync(plan=plan)

    assert result.resolved == 1
    assert (stored(plan)[fingerprint].status, stored(plan)[fingerprint].resolution) == (
        SuggestionStatus.RESOLVED,
        "auto",
    )
    assert suggestions_open(plan=plan) == []


def test_sync_logs_one_line_with_counts(plan: Plan, caplog: pytest.LogCaptureFixture) -> None:
    StructureNodeFactory.create(plan=plan)
    with caplog.at_level(logging.INFO, logger="maintplan.sync"):
        suggestion_sync(plan=plan)
    records = [r for r in caplog.records if r.name == "maintplan.sync"]
    assert len(records) == 1
    record = records[0].__dict__
    assert (record["plan_number"], record["created_count"], record["updated_count"]) == (
        plan.number,
        1,
        0,
    )
    assert (record["resolved_count"], record["reopened_count"]) == (0, 0)
    assert 0 <= record["duration_ms"] <= record["total_ms"]  # the events and commit after


# --- query count -------------------------------------------------------------------------------
def big_plan(nodes: int) -> Plan:
    """A plan of `nodes` components under one building, every other one with a replacement
    that deviates in cost and timing, the rest without a code."""
    plan = PlanFactory.create()
    code = CodeFactory.create(unit_cost=Decimal("10"), service_life_years=20)
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING)
    components = [
        StructureNode(
            id=uuid.uuid4(),
            plan=plan,
            parent=building,
            name=f"Component {i}",
            kind=NodeKind.COMPONENT,
            code=code if i % 2 else None,
            quantity=Decimal("5"),
            install_year=2000,
            path=node_prefix(path=building.path, node_id=building.pk),
            building=building,
        )
        for i in range(nodes - 1)
    ]
    StructureNode.objects.bulk_create(components)
    Action.objects.bulk_create(
        Action(
            plan=plan,
            node=component,
            title=f"Replace {i}",
            kind=ActionKind.REPLACEMENT,
            planned_year=2030 + i % 3,
            estimated_cost=Decimal("500"),
        )
        for i, component in enumerate(components)
        if i % 2
    )
    return plan


def count_queries(plan: Plan) -> int:
    with CaptureQueriesContext(connection) as queries:
        suggestion_sync(plan=plan)
    return len(queries.captured_queries)


def test_unchanged_sync_query_count_is_the_same_for_10_and_2000_nodes(
    django_assert_max_num_queries: Any,
) -> None:
    small, big = big_plan(10), big_plan(2000)
    suggestion_sync(plan=small)
    suggestion_sync(plan=big)
    assert Suggestion.objects.filter(plan=big).count() > 2000
    assert count_queries(small) == count_queries(big)
    with django_assert_max_num_queries(8):
        suggestion_sync(plan=big)


def test_resolving_sync_query_count_is_the_same_for_10_and_2000_nodes() -> None:
    small, big = big_plan(10), big_plan(2000)
    suggestion_sync(plan=small)
    suggestion_sync(plan=big)
    Action.objects.filter(plan__in=[small, big]).update(status="done")
    StructureNode.objects.filter(plan__in=[small, big]).update(code=CodeFactory.create())
    assert count_queries(small) == count_queries(big)
    assert not Suggestion.objects.filter(plan=big, status="open").exists()


@pytest.mark.postgres
@pytest.mark.usefixtures("suggestion_events_only")  # the sync's own queries, not its events'
def test_first_sync_query_count_is_the_same_for_10_and_2000_nodes(
    requires_postgres: None, django_assert_max_num_queries: Any
) -> None:
    """On PostgreSQL a bulk insert and a bulk update are one query each, whatever the rows;
    SQLite caps the parameters of a statement, so there Django splits them in batches."""
    small, big = big_plan(10), big_plan(2000)
    assert count_queries(small) == count_queries(big)
    Action.objects.filter(plan__in=[small, big]).update(estimated_cost=Decimal("400"))
    assert count_queries(small) == count_queries(big)  # bulk update of every deviation
    third = big_plan(2000)
    # 18: one checks the stored tree fields (planning.tree.paths.tree_repair), one reads the
    # buildings' labels the texts name (planning.tree.selectors.building_labels), the last four are
    # the webhooks' outbox: whether any endpoint covers the plan, the plan's number, the changed
    # suggestions, and one INSERT of every event (written with or without an endpoint, for
    # the events API).
    with django_assert_max_num_queries(18):
        suggestion_sync(plan=third)


def test_a_first_sync_stores_what_a_full_re_derive_of_its_data_keeps() -> None:
    """A plan's first sync writes each rule's suggestions while the next rule derives its own
    (planning.suggestions.sync.reconcile.suggestions_create); what it stores is what the full
    re-derive, which compares every stored suggestion with the wanted one, keeps unchanged."""
    plan = big_plan(300)
    Plan.objects.filter(pk=plan.pk).update(annual_budget=Decimal("1000"))
    plan.refresh_from_db()
    overdue = StructureNode.objects.filter(plan=plan, code__isnull=False).first()
    assert overdue is not None
    ActionFactory.create(node=overdue, planned_year=2001, kind=ActionKind.REPAIR)

    first = suggestion_sync(plan=plan)

    kinds = set(Suggestion.objects.filter(plan=plan).values_list("suggestion_type", flat=True))
    assert kinds == {"missing_code", "deviation", "project_grouping", "overdue", "budget_peak"}
    assert first.created == Suggestion.objects.filter(plan=plan, status="open").count() > 300
    again = suggestion_sync(plan=plan, full=True)
    assert (again.created, again.updated, again.resolved, again.reopened) == (0, 0, 0, 0)


def test_a_first_sync_writes_a_fingerprint_two_parts_share_once(plan: Plan) -> None:
    node = StructureNodeFactory.create(plan=plan)
    want = WantedSuggestion(
        fingerprint=f"missing_code:{node.pk}",
        suggestion_type="missing_code",
        severity="info",
        title="first",
        body="",
        structure_node_id=str(node.pk),
        recommended_action_json={},
    )
    other = dataclasses.replace(want, title="second")

    with plan_write(plan_id=plan.pk, data_changed=False) as write:
        result = suggestions_create(
            write=write,
            plan=plan,
            parts=[{want.fingerprint: want}, {want.fingerprint: other}],
            started=0,
        )

    assert result.created == 1
    assert list(Suggestion.objects.filter(plan=plan).values_list("title", flat=True)) == ["first"]


# --- incremental -------------------------------------------------------------------------------
def test_unchanged_sync_reads_the_lock_and_the_pending_changes_and_writes_nothing() -> None:
    plan = big_plan(200)
    suggestion_sync(plan=plan)
    with CaptureQueriesContext(connection) as queries:
        result = suggestion_sync(plan=plan)
    sql = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(sql) == 2, sql  # the plan row lock, the count of pending changes
    assert writes(queries) == []
    assert not result.full


def test_sync_after_one_change_query_count_is_the_same_for_10_and_2000_nodes() -> None:
    small, big = big_plan(10), big_plan(2000)
    suggestion_sync(plan=small)
    suggestion_sync(plan=big)
    changed = []
    for plan in (small, big):
        # In a year with several actions in both plans: its project group changes total too.
        action = Action.objects.filter(plan=plan, planned_year=2031).order_by("pk").first()
        assert action is not None
        # 5 units at 10 each: the estimate now meets the reference, the deviation goes.
        Action.objects.filter(pk=action.pk).update(estimated_cost=Decimal("50"))
        changed.append(action)
    assert count_queries(small) == count_queries(big)
    for action in changed:
        assert stored(action.plan)[f"deviation:cost:{action.pk}"].status == "resolved"


def test_a_change_made_with_raw_sql_is_seen_by_the_next_sync(plan: Plan) -> None:
    node = StructureNodeFactory.create(plan=plan)
    code = CodeFactory.create()
    suggestion_sync(plan=plan)
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {StructureNode._meta.db_table} SET code_id = %s WHERE id = %s",  # noqa: S608
            [
                StructureNode._meta.get_field("code").get_db_prep_value(code.pk, connection),
                StructureNode._meta.get_field("id").get_db_prep_value(node.pk, connection),
            ],
        )

    result = suggestion_sync(plan=plan)

    assert (result.resolved, result.full) == (1, False)
    assert stored(plan)[f"missing_code:{node.pk}"].resolution == "auto"


def test_a_code_figure_change_re_derives_exactly_the_nodes_that_use_it() -> None:
    plan = big_plan(10)
    other = PlanFactory.create()
    StructureNodeFactory.create(plan=other, name="Unrelated")
    suggestion_sync(plan=plan)
    suggestion_sync(plan=other)
    Code.objects.filter(nodes__plan=plan).update(unit_cost=Decimal("100"))  # reference 500

    result = suggestion_sync(plan=plan)

    assert not result.full
    assert result.resolved > 0  # the cost deviations are gone (estimated 500 == reference)
    assert not Suggestion.objects.filter(
        plan=plan, status="open", fingerprint__startswith="deviation:cost:"
    ).exists()
    assert not PlanChange.objects.filter(plan_id=other.pk).exists()
    assert suggestion_sync(plan=plan, full=True).changed is False


def test_a_code_renamed_re_derives_every_plan_that_can_see_it() -> None:
    plan = big_plan(3)
    suggestion_sync(plan=plan)
    Code.objects.filter(nodes__plan=plan).update(name="Renamed")

    result = suggestion_sync(plan=plan)

    assert result.full


def test_moving_a_node_regroups_its_subtree_before_and_after(plan: Plan) -> None:
    first, second = (
        StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name=name)
        for name in ("House A", "House B")
    )
    system = StructureNodeFactory.create(plan=plan, parent=first, kind=NodeKind.SYSTEM)
    for _ in range(2):
        component = StructureNodeFactory.create(plan=plan, parent=system)
        ActionFactory.create(node=component, planned_year=2030)
    suggestion_sync(plan=plan)
    before = stored(plan)[f"project_grouping:{first.pk}:2030"]
    StructureNode.objects.filter(pk=system.pk).update(parent=second)

    result = suggestion_sync(plan=plan)

    assert not result.full
    before.refresh_from_db()
    assert (before.status, before.resolution) == ("resolved", "auto")
    assert stored(plan)[f"project_grouping:{second.pk}:2030"].status == "open"
    assert suggestion_sync(plan=plan, full=True).changed is False


# --- names: a text names the building, and stays right when a name changes ---------------------
def _houses(plan: Plan) -> dict[str, StructureNode]:
    """Two sites with a building each, each with a component without a code and a grade 3
    (missing_code and condition) and two actions of 2030 (project_grouping)."""
    found: dict[str, StructureNode] = {}
    for site_name, house_name in (("Block A", "House 3"), ("Block B", "House 1")):
        site = node_create(plan=plan, name=site_name, kind=NodeKind.SITE)
        house = node_create(plan=plan, name=house_name, kind=NodeKind.BUILDING, parent=site)
        windows = node_create(plan=plan, name="Windows", kind=NodeKind.COMPONENT, parent=house)
        StructureNode.objects.filter(pk=windows.pk).update(condition_grade=3)
        for title in ("Paint", "Seal"):
            ActionFactory.create(
                node=windows, title=title, kind=ActionKind.INSPECTION, planned_year=2030
            )
        found[site_name], found[house_name] = site, house
        found[f"{house_name} windows"] = windows
    return found


def _open_texts(plan: Plan) -> list[str]:
    return [
        f"{s.title} | {s.body}"
        for s in Suggestion.objects.filter(plan=plan, status=SuggestionStatus.OPEN)
    ]


def test_a_renamed_building_renames_its_open_suggestions_at_the_next_sync(plan: Plan) -> None:
    nodes = _houses(plan)
    suggestion_sync(plan=plan)
    windows = nodes["House 3 windows"]
    missing = stored(plan)[f"missing_code:{windows.pk}"]
    assert missing.title == "Assign a classification code to “Windows” in House 3"

    node_rename(node=nodes["House 3"], name="Harbour house")
    result = suggestion_sync(plan=plan)

    assert not result.full
    missing.refresh_from_db()
    assert (missing.id, missing.status) == (stored(plan)[missing.fingerprint].id, "open")
    assert missing.title == "Assign a classification code to “Windows” in Harbour house"
    by_fingerprint = stored(plan)
    assert "in Harbour house by" in by_fingerprint[f"condition:{windows.pk}"].title
    house = nodes["House 3"]
    grouping = by_fingerprint[f"project_grouping:{house.pk}:2030"]
    assert grouping.title == "Group 2 actions in Harbour house in 2030 into a project"
    assert grouping.recommended_action_json["proposed_project_name"] == "Harbour house 2030"
    assert not any("House 3" in text for text in _open_texts(plan))
    assert suggestion_sync(plan=plan, full=True).changed is False


def test_a_building_renamed_to_anothers_name_relabels_both(plan: Plan) -> None:
    """ "House 1" becomes a second "House 3": both are labelled with their sites from then on,
    though the other building did not change; and back again."""
    nodes = _houses(plan)
    suggestion_sync(plan=plan)
    other = stored(plan)[f"missing_code:{nodes['House 3 windows'].pk}"]

    node_rename(node=nodes["House 1"], name="House 3")
    assert not suggestion_sync(plan=plan).full

    other.refresh_from_db()
    renamed = stored(plan)[f"missing_code:{nodes['House 1 windows'].pk}"]
    assert other.title == "Assign a classification code to “Windows” in House 3 (Block A)"
    assert renamed.title == "Assign a classification code to “Windows” in House 3 (Block B)"
    assert suggestion_sync(plan=plan, full=True).changed is False

    node_rename(node=nodes["House 1"], name="House 1")
    suggestion_sync(plan=plan)

    other.refresh_from_db()
    assert other.title == "Assign a classification code to “Windows” in House 3"
    assert suggestion_sync(plan=plan, full=True).changed is False


def test_a_renamed_site_relabels_the_buildings_that_share_a_name(plan: Plan) -> None:
    nodes = _houses(plan)
    node_rename(node=nodes["House 1"], name="House 3")
    suggestion_sync(plan=plan)

    StructureNode.objects.filter(pk=nodes["Block A"].pk).update(name="North")  # any path
    assert not suggestion_sync(plan=plan).full

    missing = stored(plan)[f"missing_code:{nodes['House 3 windows'].pk}"]
    assert missing.title == "Assign a classification code to “Windows” in House 3 (North)"
    assert suggestion_sync(plan=plan, full=True).changed is False


def test_a_renamed_root_renames_the_texts_outside_every_building(plan: Plan) -> None:
    site = node_create(plan=plan, name="Block A", kind=NodeKind.SITE)
    fence = node_create(plan=plan, name="Fence", kind=NodeKind.COMPONENT, parent=site)
    suggestion_sync(plan=plan)

    node_rename(node=site, name="Harbour site")
    suggestion_sync(plan=plan)

    missing = stored(plan)[f"missing_code:{fence.pk}"]
    assert missing.title == "Assign a classification code to “Fence” in Harbour site"
    assert suggestion_sync(plan=plan, full=True).changed is False


def test_sync_leaves_the_cycle_collector_as_it_found_it(plan: Plan) -> None:
    StructureNodeFactory.create(plan=plan)
    assert gc.isenabled()
    suggestion_sync(plan=plan)
    assert gc.isenabled()
    gc.disable()
    try:
        suggestion_sync(plan=plan, full=True)
        assert not gc.isenabled()
    finally:
        gc.enable()

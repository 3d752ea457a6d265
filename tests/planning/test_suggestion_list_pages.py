"""Filters and keyset pages of GET /api/v1/platform/plans/{planNumber}/suggestions
(docs/subsystems/integrator-api.md "Integrator API"), on a generated plan."""

from __future__ import annotations

import itertools
from decimal import Decimal
from typing import Any

import pytest
from django.db.models import F
from django.test import Client
from django.utils import timezone

from planning.management.commands.generate_plan import synthetic_plan_document
from planning.models import Action, ActionKind, Code, NodeKind, Plan, StructureNode, Suggestion
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.transfer.imports.plan_document import plan_import_document
from planning.tree.selectors import node_subtree_ids

pytestmark = pytest.mark.django_db

SEVERITY_FILTERS = [None, "critical", "info", "critical,warning"]
TYPE_FILTERS = [None, "missing_code", "project_grouping", "deviation,missing_code"]
NODE_KINDS = [None, NodeKind.BUILDING, NodeKind.SYSTEM, NodeKind.COMPONENT]


@pytest.fixture
def plan(api_user: Any, starter_catalog: None) -> Plan:
    """A generated plan of 60 nodes and 150 actions, a few of them priced far over the
    reference so that every severity occurs."""
    document = synthetic_plan_document(
        nodes=60,
        actions=150,
        seed=3,
        year=timezone.localdate().year,
        codes=list(Code.objects.order_by("code")),
    )
    plan = plan_import_document(owner=api_user, document=document)
    # Replacements (only they are checked against the reference), picked by title: the ids
    # are random, and twelve random coded actions held no replacement now and then.
    priced = Action.objects.filter(
        plan=plan, node__code__isnull=False, kind=ActionKind.REPLACEMENT
    ).order_by("title")[:12]
    Action.objects.filter(pk__in=list(priced.values_list("pk", flat=True))).update(
        estimated_cost=F("estimated_cost") * 20 + Decimal("100000")
    )
    return plan


def get_list(client: Client, key: str, plan: Plan, **params: Any) -> dict[str, Any]:
    query = {name: value for name, value in params.items() if value is not None}
    response = client.get(
        f"/api/v1/platform/plans/{plan.number}/suggestions",
        query,
        headers={"Authorization": f"Bearer {key}"},
    )
    assert response.status_code == 200, response.content
    data: dict[str, Any] = response.json()["data"]
    return data


def all_pages(client: Client, key: str, plan: Plan, limit: int, **filters: Any) -> list[Any]:
    """Every page's `data`, following next_cursor to the end."""
    pages = [get_list(client, key, plan, limit=limit, **filters)]
    while pages[-1]["next_cursor"] is not None:
        cursor = pages[-1]["next_cursor"]
        pages.append(get_list(client, key, plan, limit=limit, cursor=cursor, **filters))
        assert len(pages) < 200, "next_cursor never ends"
    return pages


def node_of_kind(plan: Plan, kind: str | None) -> str | None:
    if kind is None:
        return None
    return str(StructureNode.objects.filter(plan=plan, kind=kind).order_by("name").first().pk)  # type: ignore[union-attr]


def test_the_generated_plan_has_every_severity_and_type(
    client: Client, raw_key: str, plan: Plan
) -> None:
    suggestions = get_list(client, raw_key, plan)["suggestions"]

    assert {s["severity"] for s in suggestions} == {"critical", "warning", "info"}
    assert {s["suggestion_type"] for s in suggestions} == {
        "missing_code",
        "deviation",
        "project_grouping",
    }


def test_filters_keep_exactly_the_matching_suggestions(
    client: Client, raw_key: str, plan: Plan
) -> None:
    everything = get_list(client, raw_key, plan)["suggestions"]
    building = StructureNode.objects.get(plan=plan, kind=NodeKind.BUILDING, name="Building 1")
    subtree = {str(node_id) for node_id in node_subtree_ids(plan=plan, node_id=building.pk)}

    data = get_list(
        client,
        raw_key,
        plan,
        severity="warning,info",
        suggestion_type="deviation",
        structure_node_id=str(building.pk),
    )

    expected = [
        s
        for s in everything
        if s["severity"] in {"warning", "info"}
        and s["suggestion_type"] == "deviation"
        and s["structure_node_id"] in subtree
    ]
    assert expected
    assert data["suggestions"] == expected
    assert data["open_count"] == len(expected)
    assert "next_cursor" not in data


def test_repeated_filter_parameters_merge(client: Client, raw_key: str, plan: Plan) -> None:
    merged = get_list(client, raw_key, plan, severity=["critical", "info"])
    joined = get_list(client, raw_key, plan, severity="info,critical")

    assert merged["suggestions"] == joined["suggestions"]
    assert {s["severity"] for s in merged["suggestions"]} == {"critical", "info"}


def test_a_component_filter_lists_the_suggestions_on_that_component(
    client: Client, raw_key: str, plan: Plan
) -> None:
    get_list(client, raw_key, plan)  # the first list runs the first sync
    suggestion = Suggestion.objects.filter(plan=plan, structure_node__kind=NodeKind.COMPONENT)[0]
    node_id = str(suggestion.structure_node_id)

    suggestions = get_list(client, raw_key, plan, structure_node_id=node_id)["suggestions"]

    assert suggestions
    assert {s["structure_node_id"] for s in suggestions} == {node_id}


def test_unknown_parameters_are_ignored(client: Client, raw_key: str, plan: Plan) -> None:
    plain = get_list(client, raw_key, plan)

    assert get_list(client, raw_key, plan, sort="title", page="2") == plain


def test_pages_concatenated_equal_the_unpaged_list_for_every_filter_combination(
    client: Client, raw_key: str, plan: Plan
) -> None:
    combinations = list(
        itertools.product(
            SEVERITY_FILTERS, TYPE_FILTERS, [node_of_kind(plan, kind) for kind in NODE_KINDS]
        )
    )
    for severity, suggestion_type, node_id in combinations:
        filters = {
            "severity": severity,
            "suggestion_type": suggestion_type,
            "structure_node_id": node_id,
        }
        unpaged = get_list(client, raw_key, plan, **filters)

        pages = all_pages(client, raw_key, plan, 7, **filters)

        assert [s for page in pages for s in page["suggestions"]] == unpaged["suggestions"]
        assert {page["open_count"] for page in pages} == {unpaged["open_count"]}
        assert all(len(page["suggestions"]) == 7 for page in pages[:-1]), filters


def test_open_count_is_the_same_on_every_page(client: Client, raw_key: str, plan: Plan) -> None:
    pages = all_pages(client, raw_key, plan, 10)

    total = sum(len(page["suggestions"]) for page in pages)
    assert len(pages) > 3
    assert [page["open_count"] for page in pages] == [total] * len(pages)


def test_a_full_last_page_has_no_next_cursor(client: Client, raw_key: str, plan: Plan) -> None:
    total = get_list(client, raw_key, plan, suggestion_type="missing_code")["open_count"]

    only_page = get_list(client, raw_key, plan, suggestion_type="missing_code", limit=total)

    assert len(only_page["suggestions"]) == total
    assert only_page["next_cursor"] is None


def test_a_limit_over_the_count_gives_one_page(client: Client, raw_key: str, plan: Plan) -> None:
    data = get_list(client, raw_key, plan, limit=1000)

    assert len(data["suggestions"]) == data["open_count"]
    assert data["next_cursor"] is None


def test_a_filter_nothing_matches_gives_an_empty_page(
    client: Client, raw_key: str, plan: Plan
) -> None:
    get_list(client, raw_key, plan)  # the first list runs the first sync
    component = Suggestion.objects.filter(plan=plan, suggestion_type="missing_code")[0]

    data = get_list(
        client,
        raw_key,
        plan,
        structure_node_id=str(component.structure_node_id),
        severity="critical",
        limit=5,
    )

    assert data["suggestions"] == []
    assert data["open_count"] == 0
    assert data["next_cursor"] is None


def test_a_suggestion_resolved_between_pages_shifts_no_other_one(
    client: Client, raw_key: str, plan: Plan, api_user: Any
) -> None:
    everything = [s["id"] for s in get_list(client, raw_key, plan)["suggestions"]]
    first = get_list(client, raw_key, plan, limit=10)
    seen = [s["id"] for s in first["suggestions"]]
    # Dismiss one already seen and one still to come: neither may move the others.
    for suggestion_id in (seen[3], everything[15]):
        suggestions_dismiss(
            plan=plan,
            suggestion_ids=[suggestion_id],
            user=api_user,
            reason="false_positive",
        )

    cursor = first["next_cursor"]
    later: list[str] = []
    counts = set()
    while cursor is not None:
        page = get_list(client, raw_key, plan, limit=10, cursor=cursor)
        later.extend(s["id"] for s in page["suggestions"])
        counts.add(page["open_count"])
        cursor = page["next_cursor"]

    assert seen + later == [s for s in everything if s != everything[15]]
    assert counts == {len(everything) - 2}

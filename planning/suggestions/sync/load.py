"""Reads of the sync (step 3 of planning.suggestions.sync.run): the plan's rows as the plain
records the rules take, the labels and names its texts give the anchors, and its stored
suggestions. Every read is a fixed number of queries (long id lists are sent in chunks, so the
count grows with what changed, never with the size of the plan)."""

from __future__ import annotations

from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from datetime import datetime
from decimal import Decimal
from itertools import starmap
from typing import Any, cast
from uuid import UUID

from django.db import connection
from django.db.models import (
    BigIntegerField,
    Case,
    F,
    Q,
    QuerySet,
    Sum,
    TextField,
    Value,
    When,
    Window,
)
from django.db.models.functions import Cast, Substr

from core.chunks import IN_LIST_SIZE, chunked
from planning.core.money import cents_of
from planning.figures.occurrences import cents_column, live_in_range, occurrence_years, year_cents
from planning.models import Action, ActionKind, ActionStatus, Plan, StructureNode, Suggestion
from planning.plans.selectors import catalog_codes
from planning.suggestions.rules.budget_peak import FIGURE_YEARS, BudgetFigures, budget_peak_years
from planning.suggestions.rules.records import ActionRecord, CodeRecord, NodeRecord
from planning.tree.paths import HEX_LENGTH, below_q, node_prefix, root_id
from planning.tree.selectors import building_labels

ROOTS_PER_QUERY = 50  # one range condition each


def _ids(*names: str) -> list[Any]:
    """UUID columns as they are best read: PostgreSQL casts them to text itself, which spares
    building (and then printing) a Python UUID per value; elsewhere the ORM's UUIDs, which
    `str()` below turns into the same canonical text."""
    if connection.vendor == "postgresql":
        return [Cast(name, output_field=TextField()) for name in names]
    return list(names)


def _node_records(nodes: QuerySet[StructureNode]) -> Iterator[NodeRecord]:
    node_id_col, code_col, building_col = _ids("id", "code_id", "building_id")
    rows = nodes.order_by().values_list(
        node_id_col,
        "name",
        "kind",
        code_col,
        "quantity",
        "install_year",
        building_col,
        "path",
        "condition_grade",
    )
    for node_id, name, kind, code_id, quantity, install_year, building_id, path, grade in rows:
        yield NodeRecord(
            str(node_id),
            name,
            kind,
            str(code_id) if code_id else None,
            quantity,
            install_year,
            str(building_id) if building_id else None,
            str(root_id(path=path, node_id=node_id)),
            grade,
        )


def nodes_load(*, plan_id: UUID) -> dict[str, NodeRecord]:
    """Every node of the plan (one query; the full sync)."""
    return {node.id: node for node in _node_records(StructureNode.objects.filter(plan_id=plan_id))}


def nodes_of(*, plan_id: UUID, node_ids: Collection[str]) -> dict[str, NodeRecord]:
    """These nodes (those that still exist), by id."""
    found: dict[str, NodeRecord] = {}
    for chunk in chunked(node_ids, IN_LIST_SIZE):
        nodes = StructureNode.objects.filter(plan_id=plan_id, pk__in=chunk)
        found.update((node.id, node) for node in _node_records(nodes))
    return found


def region_of(*, plan_id: UUID, anchors: Collection[NodeRecord]) -> dict[str, NodeRecord]:
    """The nodes anchored at these anchors
    (planning.suggestions.rules.project_grouping.anchor_node_id): a building's are the nodes it
    is the building of, a root's those of its tree in no building; every anchor is in its own
    region. Read from the stored fields, never the whole plan."""
    buildings: list[Any] = [anchor.id for anchor in anchors if anchor.building_id == anchor.id]
    roots = [a.id for a in anchors if a.building_id is None and a.root_id == a.id]
    found: dict[str, NodeRecord] = {}
    for chunk in chunked(buildings, IN_LIST_SIZE):
        nodes = StructureNode.objects.filter(plan_id=plan_id, building_id__in=chunk)
        found.update((node.id, node) for node in _node_records(nodes))
    for some_roots in chunked(roots, ROOTS_PER_QUERY):
        inside = Q()
        for root in some_roots:
            inside |= Q(pk=root) | below_q(node_prefix(path="", node_id=root))
        nodes = StructureNode.objects.filter(inside, plan_id=plan_id, building__isnull=True)
        found.update((node.id, node) for node in _node_records(nodes))
    return found


def labels_load(*, plan: Plan) -> dict[str, str]:
    """Every building's label (planning.tree.selectors.building_labels), by id as text."""
    return {
        str(node_id): label
        for node_id, label in building_labels(plan=plan, building_ids=None).items()
    }


def places_load(
    *, plan_id: UUID, labels: dict[str, str], nodes: dict[str, NodeRecord]
) -> dict[str, str]:
    """How the texts name the anchors of these nodes (rules.records.PlanData.places): every
    building's label, and the names of the roots outside every building, read when not loaded
    already."""
    places = dict(labels)
    roots = {node.root_id for node in nodes.values() if node.building_id is None}
    places.update((root, nodes[root].name) for root in roots if root in nodes)
    missing = roots - nodes.keys()
    if missing:
        places.update(
            (root, node.name) for root, node in nodes_of(plan_id=plan_id, node_ids=missing).items()
        )
    return places


def codes_load(*, organisation_id: Any, currency: str) -> dict[str, CodeRecord]:
    """The plan's organisation's effective catalog (planning.plans.selectors.catalog_codes; one
    query: it is small), for a plan in `currency`: a unit cost in another currency is left out,
    so the cost check passes over it (docs/subsystems/code-catalog.md "Currency")."""
    catalog = (
        catalog_codes(organisation_id=organisation_id)
        .order_by()
        .values_list(
            "id",
            "code",
            "name",
            "unit",
            "ref_unit_cost",
            "ref_unit_cost_currency",
            "ref_service_life_years",
            "keywords",
        )
    )
    return {
        str(code_id): CodeRecord(
            str(code_id),
            code,
            name,
            unit,
            unit_cost if unit_cost_currency == currency else None,
            life,
            keywords,
        )
        for code_id, code, name, unit, unit_cost, unit_cost_currency, life, keywords in catalog
    }


def budget_figures(
    *, plan_id: UUID, budget: Decimal, year: int, labels: Mapping[str, str]
) -> BudgetFigures:
    """What rule 6 reads (rules.budget_peak.BudgetFigures), in grouped queries, never a row per
    action: the live occurrences' cents per planned year and interval, spread over the years
    Y .. Y + 14 (planning.figures.occurrences); then, only when some year is over the budget,
    for those years: the cents per anchor (rows: anchors x years x intervals) and the anchors' names
    (a building's label from `labels`, every building's), and the one-off repairs and
    replacements planned in them that can be candidates (a running sum in the database cuts each
    year's list where it reaches the excess)."""
    first, last = year, year + FIGURE_YEARS - 1
    years = list(range(first, last + 1))
    live = live_in_range(Action.objects.filter(plan_id=plan_id), year_from=first, year_to=last)
    cents_per_year = dict(
        zip(years, year_cents(live, key=None, years=years).cents[None], strict=True)
    )
    budget_cents = cents_of(budget)
    peaks = budget_peak_years(cents_per_year, budget_cents, year)
    anchor_cents: dict[int, dict[str, int]] = {y: {} for y in peaks}
    if peaks:
        # An anchor is the node's building, else the root of its tree: the first id of its
        # path, or the node itself when it is a root (rules.project_grouping.anchor_node_id).
        # Only the actions that occur in a year over the budget are read.
        grouped = (
            live.filter(
                Q(planned_year__in=peaks)
                | Q(interval_years__isnull=False, planned_year__lt=max(peaks))
            )
            .order_by()
            .values_list(
                "node__building_id",
                Substr("node__path", 1, HEX_LENGTH),
                Case(When(node__path="", then=F("node_id"))),
                "planned_year",
                "interval_years",
            )
            .annotate(cents=Sum(cents_column()))
        )
        for building_id, root_hex, root, planned_year, interval, cents in grouped:
            if building_id is not None:
                anchor = str(UUID(str(building_id)))
            elif root_hex:
                anchor = str(UUID(hex=root_hex))
            else:
                anchor = str(UUID(str(root)))
            for y in occurrence_years(
                planned_year=planned_year, interval_years=interval, first=first, last=last
            ):
                if y in anchor_cents:
                    per_anchor = anchor_cents[y]
                    per_anchor[anchor] = per_anchor.get(anchor, 0) + int(cents)
    anchor_ids = {anchor for y in peaks for anchor in anchor_cents[y]}
    names = {anchor: labels[anchor] for anchor in anchor_ids if anchor in labels}
    for chunk in chunked(anchor_ids - names.keys(), IN_LIST_SIZE):
        names.update(
            (str(node_id), name)
            for node_id, name in StructureNode.objects.filter(pk__in=chunk).values_list(
                "id", "name"
            )
        )
    candidates: dict[int, list[tuple[str, int]]] = {y: [] for y in peaks}
    if peaks:
        # Only the prefix the rule can take leaves the database: in each year, by cost
        # descending then id, the rows whose predecessors' costs do not yet reach the excess
        # (rules._move_candidates then takes the same rows).
        cents = cents_column()
        before = (
            Window(
                Sum(cents),
                partition_by=[F("planned_year")],
                order_by=[cents.desc(), F("id").asc()],
            )
            - cents
        )
        excess = Case(
            *(When(planned_year=y, then=Value(cents_per_year[y] - budget_cents)) for y in peaks),
            output_field=BigIntegerField(),
        )
        movable = (
            live.filter(
                interval_years__isnull=True,
                kind__in=[ActionKind.REPAIR, ActionKind.REPLACEMENT],
                planned_year__in=peaks,
            )
            .annotate(cents=cents, before=before, excess=excess)
            .filter(before__lt=F("excess"))
        )
        (action_id_col,) = _ids("id")
        for action_id, planned_year, action_cents in movable.order_by().values_list(
            action_id_col, "planned_year", "cents"
        ):
            candidates[planned_year].append((str(action_id), int(action_cents)))
    return BudgetFigures(
        budget_cents=budget_cents,
        year_cents=cents_per_year,
        anchor_cents=anchor_cents,
        anchor_names=names,
        candidates=candidates,
    )


def _action_records(actions: QuerySet[Action]) -> Iterator[ActionRecord]:
    action_id_col, node_col, project_col = _ids("id", "node_id", "project_id")
    rows = actions.order_by().values_list(
        action_id_col, node_col, "kind", "planned_year", "estimated_cost", "status", project_col
    )
    if connection.vendor == "postgresql":
        # Every id is text already (`_ids`), each row exactly the record's fields: the whole
        # plan's actions are read here, so no per-row Python beyond the record itself.
        yield from starmap(ActionRecord, rows)
        return
    for action_id, node_id, kind, planned_year, estimated_cost, status, project_id in rows:
        yield ActionRecord(
            str(action_id),
            str(node_id),
            kind,
            planned_year,
            estimated_cost,
            status,
            str(project_id) if project_id else None,
        )


def actions_load(*, plan_id: UUID) -> tuple[ActionRecord, ...]:
    """Every action of the plan (the full sync)."""
    return tuple(_action_records(Action.objects.filter(plan_id=plan_id)))


def actions_of(
    *, plan_id: UUID, node_ids: Collection[str], action_ids: Collection[str]
) -> dict[str, ActionRecord]:
    """The actions on these nodes, and these actions, by id."""
    found: dict[str, ActionRecord] = {}
    for ids, lookup in ((node_ids, "node_id__in"), (action_ids, "pk__in")):
        for chunk in chunked(ids, IN_LIST_SIZE):
            actions = Action.objects.filter(Q(plan_id=plan_id), Q(**{lookup: chunk}))
            found.update((record.id, record) for record in _action_records(actions))
    return found


def group_candidates(
    *, plan_id: UUID, node_ids: Collection[str], years: Collection[int]
) -> list[ActionRecord]:
    """Live actions without a project, on these nodes and in these years: everything a
    project-grouping suggestion of those nodes and years is made of."""
    found: list[ActionRecord] = []
    for chunk in chunked(cast("Collection[Any]", node_ids), IN_LIST_SIZE):  # ids as text
        actions = Action.objects.filter(
            plan_id=plan_id,
            node_id__in=chunk,
            planned_year__in=list(years),
            status=ActionStatus.PLANNED,
            project__isnull=True,
        )
        found.extend(_action_records(actions))
    return found


@dataclass(frozen=True, slots=True)
class StoredSuggestion:
    id: UUID
    fingerprint: str
    status: str
    suggestion_type: str
    severity: str
    title: str
    body: str
    structure_node_id: str
    recommended_action_json: dict[str, Any]
    created_at: datetime


def _stored(suggestions: QuerySet[Suggestion]) -> Iterable[StoredSuggestion]:
    rows = suggestions.order_by().values_list(
        "id",
        "fingerprint",
        "status",
        "suggestion_type",
        "severity",
        "title",
        "body",
        "structure_node_id",
        "recommended_action_json",
        "created_at",
    )
    for row in rows:
        yield StoredSuggestion(*row[:7], str(row[7]), *row[8:])  # type: ignore[arg-type]


def stored_load(*, plan_id: UUID, fingerprints: Collection[str] | None) -> list[StoredSuggestion]:
    """The plan's stored suggestions (any status): all, or those with these fingerprints."""
    if fingerprints is None:
        return list(_stored(Suggestion.objects.filter(plan_id=plan_id)))
    found: list[StoredSuggestion] = []
    for chunk in chunked(fingerprints, IN_LIST_SIZE):
        found.extend(_stored(Suggestion.objects.filter(plan_id=plan_id, fingerprint__in=chunk)))
    return found

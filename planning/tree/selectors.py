"""Reads of a plan's structure, all from the stored paths and buildings (planning.tree.paths),
for pages that must stay small at any plan size (docs/subsystems/web-app.md: a 20,000-node plan
is never rendered whole).

- `tree_overview`: the tree as the plan page opens it: sites expanded, everything from the
  buildings down collapsed, each node with how many nodes lie below it.
- `tree_children`: the children of one node, fetched when the user expands it.
- `node_search`: nodes whose name or code contains every word of a query, with their path.
- `node_ancestors`: the path from the root to each of a few nodes.
- `node_subtree`: a node and everything below it, as a query others filter with.
- `building_labels`: the names of buildings, made unique within their plan.
- `building_sites`: the site each building belongs to (its nearest site ancestor).
- `place_labels`: where a person finds a node: its building's label, else its root's name.

The subtree counts group the plan's paths by their first elements (one query, no walk).
"""

from __future__ import annotations

import uuid
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, Q, QuerySet
from django.db.models.functions import Substr

from core.text_order import natural_key
from planning.models import NodeKind, Plan, StructureNode, condition_q
from planning.tree.paths import (
    HEX_LENGTH,
    STEP,
    below_q,
    node_prefix,
    path_ids,
    root_id,
    subtree_q,
)

# At most this many children of one node are listed; the rest are counted ("and 40 more: search
# the structure"). The whole opened tree holds at most OVERVIEW_LIMIT nodes.
LEVEL_LIMIT = 200
OVERVIEW_LIMIT = 500
SEARCH_LIMIT = 50
# Sites open by default; a building and everything below it opens on request.
EXPANDED_KINDS = frozenset({NodeKind.SITE.value})


@dataclass
class TreeEntry:
    id: uuid.UUID
    name: str
    kind: str
    code: str | None
    code_name: str | None
    below: int  # nodes below this one, all levels
    children: list[TreeEntry] = field(default_factory=list)
    expanded: bool = False
    more: int = 0  # children not listed (LEVEL_LIMIT)

    @property
    def kind_label(self) -> str:
        return NodeKind(self.kind).label if self.kind in NodeKind.values else self.kind

    @property
    def missing_code(self) -> bool:
        return self.kind == NodeKind.COMPONENT and self.code is None


_ROW_FIELDS = ("id", "parent_id", "kind", "name", "code__code", "code__name")


# How many matches, in the database's order, a search ranks before it keeps `limit` of them.
RANK_WINDOW = 500


def _natural(rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """Rows by name as people read them ("Building 2" before "Building 10"), then id."""
    return sorted(rows, key=lambda row: (natural_key(row[3]), str(row[0])))


def _counts_by_level(nodes: QuerySet[StructureNode], *, start: int) -> dict[tuple[str, str], int]:
    """Nodes per (path element at `start`, the element after it), "" where a path ends: the
    number of nodes below each node of one level and below each of its children."""
    return {
        (first, second): count
        for first, second, count in nodes.order_by()
        .values_list(
            Substr("path", start + 1, HEX_LENGTH), Substr("path", start + STEP + 1, HEX_LENGTH)
        )
        .annotate(count=Count("id"))
    }


def _entry(row: tuple[Any, ...], *, below: int) -> TreeEntry:
    node_id, _, kind, name, code, code_name = row
    return TreeEntry(id=node_id, name=name, kind=kind, code=code, code_name=code_name, below=below)


@dataclass
class TreeOverview:
    roots: list[TreeEntry]
    more: int
    node_count: int


def tree_overview(*, plan: Plan) -> TreeOverview:
    """The roots, each root site opened on its children while the opened tree stays within
    OVERVIEW_LIMIT nodes; buildings and what lies below them stay closed. Two queries: the
    subtree counts (the plan's paths grouped by their first two elements) and the rows of the
    shown nodes."""
    counts = _counts_by_level(StructureNode.objects.filter(plan=plan), start=0)
    below_root: dict[str, int] = defaultdict(int)
    below_child: dict[str, int] = {}
    for (root, child), count in counts.items():
        if root:
            below_root[root] += count
        if child:
            below_child[child] = count
    rows = _natural(
        list(
            StructureNode.objects.filter(plan=plan)
            .filter(
                Q(parent__isnull=True)
                | Q(parent__parent__isnull=True, parent__kind__in=EXPANDED_KINDS)
            )
            .values_list(*_ROW_FIELDS)
        )
    )
    children: dict[Any, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        children[row[1]].append(row)
    root_rows = children.get(None, [])

    roots = [_entry(row, below=below_root.get(row[0].hex, 0)) for row in root_rows[:LEVEL_LIMIT]]
    shown = len(roots)
    for entry in roots:
        kids = children.get(entry.id, [])
        if entry.kind not in EXPANDED_KINDS or not kids:
            continue
        if shown + min(len(kids), LEVEL_LIMIT) > OVERVIEW_LIMIT:
            continue
        entry.children = [
            _entry(row, below=below_child.get(row[0].hex, 0)) for row in kids[:LEVEL_LIMIT]
        ]
        entry.more = max(len(kids) - LEVEL_LIMIT, 0)
        entry.expanded = True
        shown += len(entry.children)
    return TreeOverview(
        roots=roots,
        more=max(len(root_rows) - LEVEL_LIMIT, 0),
        node_count=sum(counts.values()),
    )


def tree_children(*, plan: Plan, node_id: Any) -> tuple[list[TreeEntry], int] | None:
    """The children of a node of the plan (at most LEVEL_LIMIT, by name) with their subtree
    counts, and how many more were left out; None when the plan has no such node."""
    path = StructureNode.objects.filter(plan=plan, pk=node_id).values_list("path", flat=True)
    found = path.first()
    if found is None:
        return None
    prefix = node_prefix(path=found, node_id=node_id)
    counts = _counts_by_level(
        StructureNode.objects.filter(below_q(prefix)), start=len(prefix) - STEP
    )
    # Below the node every path continues with the node's own id, then a child's or nothing.
    per_child = {child: count for (_node, child), count in counts.items()}
    # Every child's name and id (cheap), in natural order, before the first LEVEL_LIMIT are
    # taken: the database's text order would pick "Building 10" before "Building 2".
    rows = _natural(
        list(StructureNode.objects.filter(plan=plan, parent_id=node_id).values_list(*_ROW_FIELDS))
    )[:LEVEL_LIMIT]
    entries = [_entry(row, below=per_child.get(row[0].hex, 0)) for row in rows]
    return entries, max(per_child.get("", 0) - LEVEL_LIMIT, 0)


@dataclass(frozen=True)
class PathStep:
    id: uuid.UUID
    name: str
    kind: str


def node_ancestors(
    *, plan: Plan, nodes: Iterable[StructureNode]
) -> dict[uuid.UUID, list[PathStep]]:
    """For each node, its ancestors from the root down to its parent, read from its stored path
    (one query, however many nodes; none when they are all roots)."""
    by_node = {node.pk: path_ids(node.path) for node in nodes}
    wanted = {ancestor for ids in by_node.values() for ancestor in ids}
    steps = {
        node_id: PathStep(id=node_id, name=name, kind=kind)
        for node_id, name, kind in (
            StructureNode.objects.filter(plan=plan, pk__in=wanted).values_list("id", "name", "kind")
            if wanted
            else ()
        )
    }
    return {node_id: [steps[a] for a in ids if a in steps] for node_id, ids in by_node.items()}


@dataclass
class NodeMatch:
    node: StructureNode
    path: list[PathStep]

    @property
    def path_text(self) -> str:
        return " \u203a ".join(step.name for step in self.path)


def node_search_queryset(
    *, plan: Plan, query: str, kind: str | None = None, condition: str = ""
) -> Any:
    nodes = StructureNode.objects.filter(plan=plan)
    for word in query.split()[:10]:
        nodes = nodes.filter(Q(name__icontains=word) | Q(code__code__icontains=word))
    if kind:
        nodes = nodes.filter(kind=kind)
    if condition:
        nodes = nodes.filter(condition_q(condition))
    return nodes.select_related("code").order_by("name", "id")


def node_search(
    *,
    plan: Plan,
    query: str,
    kind: str | None = None,
    condition: str = "",
    limit: int = SEARCH_LIMIT,
) -> tuple[list[NodeMatch], bool]:
    """Up to `limit` nodes matching every word of `query` (name or code) and the `condition`
    filter (planning.models.CONDITION_FILTERS), each with its path;
    and whether more matched. Ranked as a person expects from a picker: the exact name first,
    then names that start with the query, then the rest, each group in natural order ("Building
    12" before "Building 112"); the ranking looks at the first RANK_WINDOW matches by name."""
    window = list(
        node_search_queryset(plan=plan, query=query, kind=kind, condition=condition)[
            : max(limit + 1, RANK_WINDOW)
        ]
    )
    typed = query.strip().casefold()

    def rank(node: StructureNode) -> tuple[int, Any, str]:
        name = node.name.casefold()
        group = 0 if name == typed else 1 if name.startswith(typed) else 2
        return group, natural_key(node.name), str(node.pk)

    more = len(window) > limit
    found = sorted(window, key=rank)[:limit]
    paths = node_ancestors(plan=plan, nodes=found)
    return [NodeMatch(node=node, path=paths.get(node.pk, [])) for node in found], more


def node_subtree(*, node_id: Any) -> QuerySet[StructureNode]:
    """The node and every node below it (empty when there is no such node): its stored path is
    read here, so the query that uses this one reads an index range of paths."""
    path = StructureNode.objects.filter(pk=node_id).values_list("path", flat=True).first()
    if path is None:
        return StructureNode.objects.none()
    return StructureNode.objects.filter(subtree_q(node_id=node_id, path=path))


def node_subtree_ids(*, plan: Plan, node_id: Any) -> set[uuid.UUID]:
    """Ids of the node and all its descendants (one query after the node's path)."""
    return set(node_subtree(node_id=node_id).filter(plan=plan).values_list("id", flat=True))


def building_labels(*, plan: Plan, building_ids: Collection[Any] | None) -> dict[uuid.UUID, str]:
    """Each building's name, made unique within the plan: a name that two buildings share
    gains the names of the building's ancestors ("House (North site)"), and where those agree
    too, the start of the building's id ("House (North site, 3f2a9c01)"). A building keeps its
    label whichever others are asked; `building_ids` None asks for every building of the plan.
    One query (the plan's buildings: a few hundred rows where
    there are 20,000 nodes), two when a name is shared."""
    buildings = list(
        StructureNode.objects.filter(plan=plan, kind=NodeKind.BUILDING).values_list(
            "id", "name", "path"
        )
    )
    wanted = (
        {node_id for node_id, _name, _path in buildings}
        if building_ids is None
        else {uuid.UUID(str(i)) for i in building_ids}
    )
    labels = {node_id: name for node_id, name, _path in buildings if node_id in wanted}
    named = Counter(name for _id, name, _path in buildings)
    twins = [row for row in buildings if named[row[1]] > 1]
    if not any(node_id in wanted for node_id, _name, _path in twins):
        return labels
    ancestors = {a for _id, _name, path in twins for a in path_ids(path)}
    names = dict(
        StructureNode.objects.filter(plan=plan, pk__in=ancestors).values_list("id", "name")
    )
    where = {
        node_id: " / ".join(names.get(a, "") for a in path_ids(path)) for node_id, _n, path in twins
    }
    clashes = Counter((name, where[node_id]) for node_id, name, _path in twins)
    for node_id, name, _path in twins:
        if node_id not in wanted:
            continue
        parts = [where[node_id]] if where[node_id] else []
        if clashes[(name, where[node_id])] > 1:
            parts.append(node_id.hex[:8])
        labels[node_id] = f"{name} ({', '.join(parts)})"
    return labels


@dataclass(frozen=True)
class Site:
    id: uuid.UUID
    name: str


def building_sites(*, plan: Plan, building_ids: Collection[Any]) -> dict[uuid.UUID, Site | None]:
    """The site of each of these buildings: its nearest ancestor of kind site, None when it has
    none. Two queries: the buildings' stored paths, then the sites among their ancestors."""
    paths = dict(
        StructureNode.objects.filter(
            plan=plan, kind=NodeKind.BUILDING, pk__in=[uuid.UUID(str(i)) for i in building_ids]
        ).values_list("id", "path")
    )
    ancestors = {a for path in paths.values() for a in path_ids(path)}
    sites = {
        site_id: Site(site_id, name)
        for site_id, name in StructureNode.objects.filter(
            plan=plan, kind=NodeKind.SITE, pk__in=ancestors
        ).values_list("id", "name")
    }
    return {
        building_id: next((sites[a] for a in reversed(path_ids(path)) if a in sites), None)
        for building_id, path in paths.items()
    }


def place_labels(*, plan: Plan, nodes: Iterable[StructureNode]) -> dict[uuid.UUID, str]:
    """Where a person finds each node, as the suggestion texts name it (planning.suggestions.rules
    `place_of`): its building's label (`building_labels`), else, outside every building, its
    root's name. Two or three queries whatever the number of nodes."""
    nodes = list(nodes)
    labels = building_labels(
        plan=plan, building_ids={node.building_id for node in nodes if node.building_id}
    )
    roots = {
        node.pk: root_id(path=node.path, node_id=node.pk)
        for node in nodes
        if node.building_id is None
    }
    root_names = dict(
        StructureNode.objects.filter(plan=plan, pk__in=set(roots.values())).values_list(
            "id", "name"
        )
        if roots
        else ()
    )
    return {
        node.pk: labels.get(node.building_id, "")
        if node.building_id
        else root_names.get(roots[node.pk], "")
        for node in nodes
    }

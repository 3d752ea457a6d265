"""Reads of a plan's structure for pages that must stay small at any plan size (DESIGN.md "Web
app": a 20,000-node plan is never rendered whole).

- `tree_overview`: the tree as the plan page opens it: sites expanded, everything from the
  buildings down collapsed, each node with how many nodes lie below it.
- `tree_children`: the children of one node, fetched when the user expands it.
- `node_search`: nodes whose name or code contains every word of a query, with their path.
- `node_ancestors`: the path from the root to each of a few nodes, which also names the building
  an action's node belongs to.

The overview and the children read one row per node of the plan (id, parent, kind, name, code),
a single query, and count the subtrees here: cheap next to rendering (a 20,000-node plan's rows
load in tens of milliseconds), and the query count stays the same at any size. The ancestor walk
is a recursive query the database runs (the same SQL on SQLite and PostgreSQL) for only the
nodes asked about.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db import connection
from django.db.models import Q
from django.db.models.expressions import RawSQL

from planning.models import NodeKind, Plan, StructureNode

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
    child_count: int
    children: list[TreeEntry] = field(default_factory=list)
    expanded: bool = False
    more: int = 0  # children not listed (LEVEL_LIMIT)

    @property
    def kind_label(self) -> str:
        return NodeKind(self.kind).label if self.kind in NodeKind.values else self.kind

    @property
    def missing_code(self) -> bool:
        return self.kind == NodeKind.COMPONENT and self.code is None


@dataclass
class _Structure:
    rows: dict[Any, tuple[Any, ...]]  # id -> (id, parent_id, kind, name, code, code name)
    children: dict[Any, list[Any]]  # parent id (None: roots) -> child ids, by name
    below: dict[Any, int]


def _structure(plan: Plan) -> _Structure:
    rows = {
        row[0]: row
        for row in StructureNode.objects.filter(plan=plan)
        .order_by("name", "id")
        .values_list("id", "parent_id", "kind", "name", "code__code", "code__name")
    }
    children: dict[Any, list[Any]] = defaultdict(list)
    for node_id, parent_id, *_ in rows.values():
        # A parent outside the plan cannot happen through the services; show it as a root.
        children[parent_id if parent_id in rows else None].append(node_id)
    below: dict[Any, int] = {}
    # Post-order without recursion: a node's count is known once its children's are.
    stack: list[tuple[Any, bool]] = [(root, False) for root in children.get(None, [])]
    while stack:
        node_id, done = stack.pop()
        if node_id in below:
            continue
        kids = children.get(node_id, [])
        if done:
            below[node_id] = sum(below.get(kid, 0) + 1 for kid in kids)
        else:
            stack.append((node_id, True))
            stack.extend((kid, False) for kid in kids if kid not in below)
    return _Structure(rows=rows, children=children, below=below)


def _entry(structure: _Structure, node_id: Any) -> TreeEntry:
    _, _, kind, name, code, code_name = structure.rows[node_id]
    return TreeEntry(
        id=node_id,
        name=name,
        kind=kind,
        code=code,
        code_name=code_name,
        below=structure.below.get(node_id, 0),
        child_count=len(structure.children.get(node_id, [])),
    )


def _level(structure: _Structure, parent_id: Any) -> tuple[list[TreeEntry], int]:
    ids = structure.children.get(parent_id, [])
    return [_entry(structure, i) for i in ids[:LEVEL_LIMIT]], max(len(ids) - LEVEL_LIMIT, 0)


@dataclass
class TreeOverview:
    roots: list[TreeEntry]
    more: int
    node_count: int


def tree_overview(*, plan: Plan) -> TreeOverview:
    """The roots, with every site opened (breadth first, while the opened tree stays within
    OVERVIEW_LIMIT nodes); buildings and what lies below them stay closed."""
    structure = _structure(plan)
    roots, more = _level(structure, None)
    shown = len(roots)
    queue = list(roots)
    while queue:
        entry = queue.pop(0)
        if entry.kind not in EXPANDED_KINDS or not entry.child_count:
            continue
        if shown + min(entry.child_count, LEVEL_LIMIT) > OVERVIEW_LIMIT:
            continue
        entry.children, entry.more = _level(structure, entry.id)
        entry.expanded = True
        shown += len(entry.children)
        queue.extend(entry.children)
    return TreeOverview(roots=roots, more=more, node_count=len(structure.rows))


def tree_children(*, plan: Plan, node_id: Any) -> tuple[list[TreeEntry], int] | None:
    """The children of a node of the plan (and how many more were left out); None when the
    plan has no such node."""
    structure = _structure(plan)
    if node_id not in structure.rows:
        return None
    return _level(structure, node_id)


@dataclass(frozen=True)
class PathStep:
    id: uuid.UUID
    name: str
    kind: str


_ANCESTORS_SQL = """
WITH RECURSIVE up(start_id, id, parent_id, name, kind, depth) AS (
    SELECT id, id, parent_id, name, kind, 0 FROM {node} WHERE plan_id = %s AND id IN ({ids})
    UNION ALL
    SELECT up.start_id, n.id, n.parent_id, n.name, n.kind, up.depth + 1
    FROM {node} n JOIN up ON n.id = up.parent_id
    WHERE up.depth < 200
)
SELECT start_id, id, name, kind, depth FROM up WHERE depth > 0
"""


def _as_uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def node_ancestors(*, plan: Plan, node_ids: list[Any]) -> dict[uuid.UUID, list[PathStep]]:
    """For each node, its ancestors from the root down to its parent (one query, however many
    nodes; a root maps to an empty path)."""
    ids = list(dict.fromkeys(_as_uuid(i) for i in node_ids))
    paths: dict[uuid.UUID, list[tuple[int, PathStep]]] = {i: [] for i in ids}
    if not ids:
        return {}
    id_field = StructureNode._meta.get_field("id")
    params = [
        Plan._meta.get_field("id").get_db_prep_value(plan.pk, connection),
        *(id_field.get_db_prep_value(i, connection) for i in ids),
    ]
    sql = _ANCESTORS_SQL.format(
        node=connection.ops.quote_name(StructureNode._meta.db_table),
        ids=", ".join(["%s"] * len(ids)),
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        for start_id, node_id, name, kind, depth in cursor.fetchall():
            paths[_as_uuid(start_id)].append(
                (depth, PathStep(id=_as_uuid(node_id), name=name, kind=kind))
            )
    # The deepest step is the root: root first.
    return {
        i: [step for _, step in sorted(steps, key=lambda s: -s[0])] for i, steps in paths.items()
    }


def building_name(*, path: list[PathStep], node: StructureNode) -> str:
    """The name of the building a node is in (itself if it is one), else ""."""
    if node.kind == NodeKind.BUILDING:
        return node.name
    buildings = [step.name for step in path if step.kind == NodeKind.BUILDING]
    return buildings[-1] if buildings else ""


@dataclass
class NodeMatch:
    node: StructureNode
    path: list[PathStep]

    @property
    def path_text(self) -> str:
        return " \u203a ".join(step.name for step in self.path)


def node_search_queryset(*, plan: Plan, query: str, kind: str | None = None) -> Any:
    nodes = StructureNode.objects.filter(plan=plan)
    for word in query.split()[:10]:
        nodes = nodes.filter(Q(name__icontains=word) | Q(code__code__icontains=word))
    if kind:
        nodes = nodes.filter(kind=kind)
    return nodes.select_related("code").order_by("name", "id")


def node_search(
    *, plan: Plan, query: str, kind: str | None = None, limit: int = SEARCH_LIMIT
) -> tuple[list[NodeMatch], bool]:
    """Up to `limit` nodes matching every word of `query` (name or code), by name, each with
    its path; and whether more matched."""
    found = list(node_search_queryset(plan=plan, query=query, kind=kind)[: limit + 1])
    more = len(found) > limit
    found = found[:limit]
    paths = node_ancestors(plan=plan, node_ids=[node.pk for node in found])
    return [NodeMatch(node=node, path=paths.get(node.pk, [])) for node in found], more


_SUBTREE_SQL = """
WITH RECURSIVE subtree(id) AS (
    SELECT id FROM {node} WHERE id = %s
    UNION
    SELECT child.id FROM {node} child JOIN subtree ON child.parent_id = subtree.id
)
SELECT id FROM subtree
"""


def node_subtree_sql(node_id: Any) -> RawSQL:
    """The ids of a node and of every node below it, as a subquery the database walks itself
    (the same SQL on SQLite and PostgreSQL): no id list however large the subtree, and only the
    subtree's rows are read. UNION, not UNION ALL, so even a cycle written by raw SQL ends."""
    prepared = StructureNode._meta.get_field("id").get_db_prep_value(node_id, connection)
    # The table name is ours; the node id travels as a parameter.
    return RawSQL(_SUBTREE_SQL.format(node=StructureNode._meta.db_table), [prepared])  # noqa: S611

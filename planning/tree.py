"""Reads of a plan's structure for pages that must stay small at any plan size
(docs/design.md "Web app": a 20,000-node plan is never rendered whole).

- `tree_overview`: the tree as the plan page opens it: sites expanded, everything from the
  buildings down collapsed, each node with how many nodes lie below it.
- `tree_children`: the children of one node, fetched when the user expands it.
- `node_search`: nodes whose name or code contains every word of a query, with their path.
- `node_ancestors`: the path from the root to each of a few nodes, which also names the building
  an action's node belongs to.

The subtree counts are a recursive query the database runs (the same SQL on SQLite and
PostgreSQL) that returns one row per shown node, and only the shown nodes' rows are read: loading
every node of a 20,000-node plan and counting in Python took 300 ms of the plan page (PostgreSQL),
the recursive count takes about 25 ms. The ancestor walk is also a recursive query, for only the
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
    children: list[TreeEntry] = field(default_factory=list)
    expanded: bool = False
    more: int = 0  # children not listed (LEVEL_LIMIT)

    @property
    def kind_label(self) -> str:
        return NodeKind(self.kind).label if self.kind in NodeKind.values else self.kind

    @property
    def missing_code(self) -> bool:
        return self.kind == NodeKind.COMPONENT and self.code is None


# Counts every node below the starting nodes, per starting node (`top_id`) and per child of it
# (`second_id`, the starting node's own row has none). `CASE WHEN 1 = 0` is a NULL of the id
# column's type, which PostgreSQL needs in a recursive query and SQLite accepts.
_COUNTS_SQL = """
WITH RECURSIVE walk(id, top_id, second_id) AS (
    SELECT id, id, CASE WHEN 1 = 0 THEN id END FROM {node} WHERE plan_id = %s AND {start}
    UNION ALL
    SELECT n.id, walk.top_id, COALESCE(walk.second_id, n.id)
    FROM {node} n JOIN walk ON n.parent_id = walk.id
    WHERE n.plan_id = %s
)
SELECT top_id, second_id, COUNT(*) FROM walk GROUP BY top_id, second_id
"""
_ROW_FIELDS = ("id", "parent_id", "kind", "name", "code__code", "code__name")


def _below_counts(plan: Plan, *, parent_id: Any | None) -> dict[uuid.UUID, dict[Any, int]]:
    """For each child of `parent_id` (each root when None): {None: nodes in its subtree, itself
    included, child id: nodes in that child's subtree}."""
    plan_id = Plan._meta.get_field("id").get_db_prep_value(plan.pk, connection)
    if parent_id is None:
        start, params = "parent_id IS NULL", [plan_id]
    else:
        prepared = StructureNode._meta.get_field("id").get_db_prep_value(parent_id, connection)
        start, params = "parent_id = %s", [plan_id, prepared]
    sql = _COUNTS_SQL.format(
        node=connection.ops.quote_name(StructureNode._meta.db_table), start=start
    )
    counts: dict[uuid.UUID, dict[Any, int]] = defaultdict(dict)
    with connection.cursor() as cursor:
        cursor.execute(sql, [*params, plan_id])
        for top_id, second_id, count in cursor.fetchall():
            per_top = counts[_as_uuid(top_id)]
            per_top[None] = per_top.get(None, 0) + count
            if second_id is not None:
                per_top[_as_uuid(second_id)] = count
    return counts


def _entry(row: tuple[Any, ...], *, size: int) -> TreeEntry:
    node_id, _, kind, name, code, code_name = row
    return TreeEntry(
        id=node_id,
        name=name,
        kind=kind,
        code=code,
        code_name=code_name,
        below=max(size - 1, 0),
    )


@dataclass
class TreeOverview:
    roots: list[TreeEntry]
    more: int
    node_count: int


def tree_overview(*, plan: Plan) -> TreeOverview:
    """The roots, each root site opened on its children while the opened tree stays within
    OVERVIEW_LIMIT nodes; buildings and what lies below them stay closed. Two queries: the
    subtree counts (the database walks the tree) and the rows of the shown nodes."""
    counts = _below_counts(plan, parent_id=None)
    rows = list(
        StructureNode.objects.filter(plan=plan)
        .filter(
            Q(parent__isnull=True) | Q(parent__parent__isnull=True, parent__kind__in=EXPANDED_KINDS)
        )
        .order_by("name", "id")
        .values_list(*_ROW_FIELDS)
    )
    children: dict[Any, list[tuple[Any, ...]]] = defaultdict(list)
    for row in rows:
        children[row[1]].append(row)
    root_rows = children.get(None, [])

    roots = []
    for row in root_rows[:LEVEL_LIMIT]:
        per_root = counts.get(_as_uuid(row[0]), {})
        roots.append(_entry(row, size=per_root.get(None, 1)))
    shown = len(roots)
    for entry in roots:
        kids = children.get(entry.id, [])
        if entry.kind not in EXPANDED_KINDS or not kids:
            continue
        if shown + min(len(kids), LEVEL_LIMIT) > OVERVIEW_LIMIT:
            continue
        per_root = counts.get(_as_uuid(entry.id), {})
        entry.children = [
            _entry(row, size=per_root.get(_as_uuid(row[0]), 1)) for row in kids[:LEVEL_LIMIT]
        ]
        entry.more = max(len(kids) - LEVEL_LIMIT, 0)
        entry.expanded = True
        shown += len(entry.children)
    node_count = sum(per_root.get(None, 0) for per_root in counts.values())
    return TreeOverview(
        roots=roots, more=max(len(root_rows) - LEVEL_LIMIT, 0), node_count=node_count
    )


def tree_children(*, plan: Plan, node_id: Any) -> tuple[list[TreeEntry], int] | None:
    """The children of a node of the plan (at most LEVEL_LIMIT, by name) with their subtree
    counts, and how many more were left out; None when the plan has no such node."""
    if not StructureNode.objects.filter(plan=plan, pk=node_id).exists():
        return None
    counts = _below_counts(plan, parent_id=node_id)
    rows = (
        StructureNode.objects.filter(plan=plan, parent_id=node_id)
        .order_by("name", "id")
        .values_list(*_ROW_FIELDS)[:LEVEL_LIMIT]
    )
    entries = []
    for row in rows:
        per_child = counts.get(_as_uuid(row[0]), {})
        entries.append(_entry(row, size=per_child.get(None, 1)))
    return entries, max(len(counts) - LEVEL_LIMIT, 0)


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

"""The stored tree fields of a structure node and the one place that writes them
(docs/subsystems/structure-tree.md).

- `path`: the node's ancestors, root first, each as its id in 32 lowercase hex digits (the UUID
  without dashes) followed by "/": "" for a root, "<root>/<parent>/" two levels down. The nodes
  below X are exactly those whose path starts with X's `node_prefix` (its path, its id, "/"):
  an index range on both databases (`below_q`). The root of a node's tree is the first element.
- `building`: the node itself if it is a building, else its nearest building ancestor, else null.

Who keeps them: `node_place` fills a new node's fields from its parent's, `subtree_refresh`
carries a changed parent or kind to the node and everything below it in a few set-based
updates (the node services and the admin call both, the services under the plan lock), the
import computes them while writing parents first. A write that changes a parent or a kind any
other way (raw SQL, `QuerySet.update()`, a bulk insert that leaves them out) leaves them stale:
not a supported way to change the tree. The suggestion sync repairs them before it derives
anything (`tree_repair`: a check of the changed nodes, or of the whole plan on a full sync,
and a rebuild of the plan's fields from the parent pointers when one disagrees), so after any
change followed by a sync the stored fields are right again.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Collection
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection
from django.db.models import Max, Q, Value
from django.db.models.functions import Concat, Length, Substr
from django.utils import timezone

from core.chunks import IN_LIST_SIZE, chunked
from planning.models import NodeKind, StructureNode

logger = logging.getLogger("maintplan.tree")

HEX_LENGTH = 32
STEP = HEX_LENGTH + 1  # one ancestor in a path: its hex id and "/"
# Ancestors a node may have. Keeps a path (at most 50 x 33 characters) well inside PostgreSQL's
# limit on an index entry (about 2,700 bytes).
DEPTH_MAX = 50
DEPTH_MESSAGE = f"A structure can be at most {DEPTH_MAX + 1} levels deep."


def id_hex(node_id: Any) -> str:
    return node_id.hex if isinstance(node_id, uuid.UUID) else uuid.UUID(str(node_id)).hex


def node_prefix(*, path: str, node_id: Any) -> str:
    """What the paths of every node below this one start with."""
    return f"{path}{id_hex(node_id)}/"


def path_ids(path: str) -> list[uuid.UUID]:
    """The ancestors' ids, root first."""
    return [uuid.UUID(hex=path[i : i + HEX_LENGTH]) for i in range(0, len(path), STEP)]


def path_depth(path: str) -> int:
    """How many ancestors the path names."""
    return len(path) // STEP


def root_id(*, path: str, node_id: Any) -> uuid.UUID:
    """The root of the node's tree: the first ancestor, or the node itself."""
    return uuid.UUID(hex=path[:HEX_LENGTH]) if path else uuid.UUID(str(node_id))


def below_q(prefix: str, *, field: str = "path") -> Q:
    """The nodes whose `field` (a path) starts with `prefix` (a `node_prefix`), as a condition
    an index on the path can answer: LIKE 'prefix%' on PostgreSQL (its index has the pattern
    operator class, whatever the database's collation), a range elsewhere (SQLite compares text
    byte by byte, and "0" is the character after "/")."""
    if connection.vendor == "postgresql":
        return Q(**{f"{field}__startswith": prefix})
    return Q(**{f"{field}__gte": prefix, f"{field}__lt": prefix[:-1] + "0"})


def subtree_q(*, node_id: Any, path: str, relation: str = "") -> Q:
    """The node and every node below it; `relation` ("node__") reaches them from another model."""
    return Q(**{f"{relation}id": node_id}) | below_q(
        node_prefix(path=path, node_id=node_id), field=f"{relation}path"
    )


def child_fields(
    *, node_id: Any, kind: str, parent_id: Any | None, parent_path: str, parent_building: Any
) -> tuple[str, Any]:
    """(path, building id) of a node with this kind under this parent (None: a root)."""
    if parent_id is None:
        path, inherited = "", None
    else:
        path, inherited = node_prefix(path=parent_path, node_id=parent_id), parent_building
    return path, node_id if kind == NodeKind.BUILDING else inherited


def _stored(node_id: Any) -> tuple[str, Any]:
    return StructureNode.objects.filter(pk=node_id).values_list("path", "building_id").get()


def node_place(node: StructureNode) -> None:
    """Sets `path` and `building` of a node about to be inserted, from its parent's stored
    fields (read here: the caller's copy of the parent may be older than the plan lock).
    Raises ValidationError when the node would be deeper than DEPTH_MAX allows."""
    parent_path, parent_building = ("", None) if node.parent_id is None else _stored(node.parent_id)
    node.path, node.building_id = child_fields(
        node_id=node.pk,
        kind=node.kind,
        parent_id=node.parent_id,
        parent_path=parent_path,
        parent_building=parent_building,
    )
    if path_depth(node.path) > DEPTH_MAX:
        raise ValidationError({"parent": DEPTH_MESSAGE})


def move_check(*, node: StructureNode, parent: StructureNode | None) -> None:
    """Raises ValidationError when moving `node` under `parent` would make it its own ancestor
    or the structure too deep. The cycle check walks the parent pointers up from `parent` (a
    few rows), not the stored paths: stale paths must never let a cycle in."""
    if parent is None:
        return
    if node.pk in tree_ancestor_ids(node_id=parent.pk):
        raise ValidationError(
            {"parent": "A node cannot be moved under itself or one of its descendants."}
        )
    node_path = _stored(node.pk)[0]
    deepest = StructureNode.objects.filter(
        below_q(node_prefix(path=node_path, node_id=node.pk))
    ).aggregate(longest=Max(Length("path")))["longest"]
    levels_below = 0 if deepest is None else (deepest - len(node_path)) // STEP
    if path_depth(_stored(parent.pk)[0]) + 1 + levels_below > DEPTH_MAX:
        raise ValidationError({"parent": DEPTH_MESSAGE})


_ANCESTORS_SQL = """
WITH RECURSIVE up(id, parent_id, depth) AS (
    SELECT id, parent_id, 0 FROM {node} WHERE id = %s
    UNION ALL
    SELECT n.id, n.parent_id, up.depth + 1 FROM {node} n JOIN up ON n.id = up.parent_id
    WHERE up.depth <= %s
)
SELECT id FROM up
"""


def tree_ancestor_ids(*, node_id: Any) -> set[uuid.UUID]:
    """The node and its ancestors by the parent pointers (the truth the stored fields are
    derived from), at most DEPTH_MAX + 2 of them, so even a cycle written by raw SQL ends."""
    sql = _ANCESTORS_SQL.format(node=connection.ops.quote_name(StructureNode._meta.db_table))
    with connection.cursor() as cursor:
        cursor.execute(sql, [_db_id(node_id), DEPTH_MAX + 1])
        return {_as_uuid(row[0]) for row in cursor.fetchall()}


def subtree_refresh(*, node_id: Any) -> None:
    """After a node's parent or kind changed (and was saved): its stored fields from its
    parent's and its own kind, and the change carried to every node below it, in at most three
    UPDATEs however large the subtree. Needs the node's and its subtree's stored fields as they
    were before the change (every supported write keeps them so), and the plan lock."""
    parent_id, kind, old_path, old_building = (
        StructureNode.objects.filter(pk=node_id)
        .values_list("parent_id", "kind", "path", "building_id")
        .get()
    )
    parent_path, parent_building = ("", None) if parent_id is None else _stored(parent_id)
    path, building = child_fields(
        node_id=node_id,
        kind=kind,
        parent_id=parent_id,
        parent_path=parent_path,
        parent_building=parent_building,
    )
    old_prefix = node_prefix(path=old_path, node_id=node_id)
    new_prefix = node_prefix(path=path, node_id=node_id)
    # A node whose path or building changes is changed as the API shows it: each write moves
    # its `updated_at` (the nodes list's `updated_since`), which `update()` sets only when named.
    now = timezone.now()
    if old_prefix != new_prefix:
        StructureNode.objects.filter(below_q(old_prefix)).update(
            path=Concat(Value(new_prefix), Substr("path", len(old_prefix) + 1)), updated_at=now
        )
    if old_building != building:
        # What the node's subtree inherits is the node's own `building`; the nodes below that
        # carried the old one are those outside any building nested in the subtree.
        StructureNode.objects.filter(below_q(new_prefix), building_id=old_building).update(
            building_id=building, updated_at=now
        )
    if (old_path, old_building) != (path, building):
        StructureNode.objects.filter(pk=node_id).update(
            path=path, building_id=building, updated_at=now
        )


# --- repair ------------------------------------------------------------------------------------

_HEX_SQL = "REPLACE(CAST({column} AS TEXT), '-', '')"  # SQLite stores UUIDs as 32 hex digits
_CHECK_SQL = """
SELECT id FROM (
    SELECT n.id, n.path, n.building_id,
        CASE WHEN p.id IS NULL THEN '' ELSE p.path || {parent_hex} || '/' END AS want_path,
        CASE WHEN n.kind = %s THEN n.id ELSE p.building_id END AS want_building
    FROM {node} n LEFT JOIN {node} p ON p.id = n.parent_id
    WHERE n.plan_id = %s {nodes}
) checked
WHERE path <> want_path
   OR NOT COALESCE(building_id = want_building, building_id IS NULL AND want_building IS NULL)
LIMIT 1
"""
_REBUILD_SQL = """
WITH RECURSIVE walk(id, path, building_id) AS (
    SELECT id, CAST('' AS TEXT), CASE WHEN kind = %s THEN id END
    FROM {node} WHERE plan_id = %s AND parent_id IS NULL
    UNION ALL
    SELECT c.id, walk.path || {walk_hex} || '/',
        CASE WHEN c.kind = %s THEN c.id ELSE walk.building_id END
    FROM {node} c JOIN walk ON c.parent_id = walk.id
)
UPDATE {node} SET path = walk.path, building_id = walk.building_id, updated_at = %s FROM walk
WHERE {node}.id = walk.id AND (
    {node}.path <> walk.path
    OR NOT COALESCE(
        {node}.building_id = walk.building_id,
        {node}.building_id IS NULL AND walk.building_id IS NULL
    )
)
"""


def _db_id(value: Any) -> Any:
    return StructureNode._meta.get_field("id").get_db_prep_value(value, connection)


def _as_uuid(value: Any) -> uuid.UUID:
    return value if isinstance(value, uuid.UUID) else uuid.UUID(str(value))


def _table() -> str:
    return connection.ops.quote_name(StructureNode._meta.db_table)


def _stale(plan_id: Any, node_ids: Collection[Any] | None) -> bool:
    """Whether a node (of `node_ids` or a child of one; any node of the plan when None) has
    stored fields that disagree with its parent's. When none does, all are right: the root's
    are, and each node's follow from its parent's."""
    sql = _CHECK_SQL
    table = _table()
    plan = StructureNode._meta.get_field("plan").get_db_prep_value(plan_id, connection)
    batches: list[list[Any]] = [[]] if node_ids is None else []
    ids = [_db_id(node_id) for node_id in node_ids or ()]
    batches += chunked(ids, IN_LIST_SIZE // 2)  # each id is named twice
    with connection.cursor() as cursor:
        for batch in batches:
            marks = ", ".join(["%s"] * len(batch))
            nodes = f"AND (n.id IN ({marks}) OR n.parent_id IN ({marks}))" if batch else ""
            cursor.execute(
                sql.format(node=table, parent_hex=_HEX_SQL.format(column="p.id"), nodes=nodes),
                [NodeKind.BUILDING.value, plan, *batch, *batch],
            )
            if cursor.fetchone() is not None:
                return True
    return False


def tree_rebuild(*, plan_id: Any) -> int:
    """Recomputes every stored path and building of the plan from the parent pointers (one
    statement) and writes the rows that differ, moving their `updated_at` as `subtree_refresh`
    does; returns how many. Nodes on a cycle (only raw SQL can make one) are unreachable from a
    root and keep theirs."""
    table = _table()
    plan = StructureNode._meta.get_field("plan").get_db_prep_value(plan_id, connection)
    now = StructureNode._meta.get_field("updated_at").get_db_prep_value(timezone.now(), connection)
    sql = _REBUILD_SQL.format(node=table, walk_hex=_HEX_SQL.format(column="walk.id"))
    with connection.cursor() as cursor:
        cursor.execute(sql, [NodeKind.BUILDING.value, plan, NodeKind.BUILDING.value, now])
        return int(cursor.rowcount)


def tree_repair(*, plan_id: Any, node_ids: Collection[Any] | None = None) -> int:
    """Checks the stored fields of `node_ids` and their children (all the plan's nodes when
    None) and, should one be stale, rebuilds the plan's; returns how many rows were written.
    The check suffices: the rows a change did not touch keep their parent and fields, so only a
    changed node or a child of one can disagree with its parent."""
    if node_ids is not None and not node_ids:
        return 0
    if not _stale(plan_id, node_ids):
        return 0
    written = tree_rebuild(plan_id=plan_id)
    logger.warning(
        "stored tree fields of plan %s were stale (a change outside the node services); "
        "%s node(s) rebuilt",
        plan_id,
        written,
        extra={"plan_id": str(plan_id), "nodes_rebuilt": written},
    )
    return written

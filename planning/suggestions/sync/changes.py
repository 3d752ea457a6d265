"""What changed since a plan's last sync, and which suggestions that can touch.

The rows come from the change triggers of migration 0006 (`PlanChange`). A sync claims its
plan's rows with one `DELETE ... RETURNING` inside its transaction: a row that commits later is
left for the next sync, and a rolled-back sync gives its rows back. On PostgreSQL every trigger
also takes a KEY SHARE lock on the plan's row, which the sync's `FOR UPDATE` waits for: while a
sync runs, no change to the plan can commit, so what it claims and what it reads agree, and the
"before" values of the rows it claims describe exactly the data the stored suggestions were
derived from. (SQLite runs one writer at a time and gives a transaction one snapshot.)

Scopes, every rule being local (docs/design.md "Sync" > "Scopes"):
- missing_code of a node: the node and whether it has a live action;
- deviation of an action: the action, its node and the node's code;
- project_grouping of (anchor, year): the live actions without a project anchored there.
A changed node re-derives its own missing_code, the deviations of its actions and, since a
move or a kind change re-anchors everything below it, the groups of every action in its
subtree, before and after; a changed action re-derives its deviations, the missing_code of its
node(s) and its group(s) before and after.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from uuid import UUID

from django.db import connection
from django.db.models import Count, Q

from planning.models import NodeKind, PlanChange
from planning.suggestions.rules import ActionRecord, NodeRecord, anchor_node_id


@dataclass(frozen=True, slots=True)
class Pending:
    count: int
    catalog: bool


@dataclass
class ChangeSet:
    # node id -> its (parent id, kind) before the first change of this batch; None: a new node
    nodes_before: dict[str, tuple[str | None, str] | None] = field(default_factory=dict)
    # (action id, node id, planned year), before and after each change
    actions: list[tuple[str, str, int]] = field(default_factory=list)


@dataclass(frozen=True)
class Scopes:
    missing_code_nodes: frozenset[str]
    deviation_actions: frozenset[str]
    groups: frozenset[tuple[str, int]]

    def fingerprints(self) -> set[str]:
        return {
            *(f"missing_code:{node_id}" for node_id in self.missing_code_nodes),
            *(
                f"deviation:{check}:{action_id}"
                for action_id in self.deviation_actions
                for check in ("cost", "timing")
            ),
            *(f"project_grouping:{anchor}:{year}" for anchor, year in self.groups),
        }


def changes_pending(*, plan_id: UUID) -> Pending:
    counts = PlanChange.objects.filter(plan_id=plan_id).aggregate(
        count=Count("id"), catalog=Count("id", filter=Q(catalog=True))
    )
    return Pending(count=counts["count"], catalog=counts["catalog"] > 0)


def changes_discard(*, plan_id: UUID) -> None:
    """Drops the plan's rows: a full sync, or a new plan's import, needs none of them."""
    PlanChange.objects.filter(plan_id=plan_id).delete()


def _canonical(value: object) -> str | None:
    return None if value is None else str(UUID(str(value)))


def changes_claim(*, plan_id: UUID) -> ChangeSet:
    """Takes the plan's rows (deleting them in this transaction) and sums them up."""
    column = PlanChange._meta.get_field("plan_id")
    with connection.cursor() as cursor:
        cursor.execute(
            f"DELETE FROM {PlanChange._meta.db_table} WHERE plan_id = %s "  # noqa: S608
            "RETURNING id, node_id, action_id, year, old_parent_id, old_kind",
            [column.get_db_prep_value(plan_id, connection)],
        )
        rows = sorted(cursor.fetchall())
    changes = ChangeSet()
    for _id, node_id, action_id, year, old_parent_id, old_kind in rows:
        node = _canonical(node_id)
        assert node is not None
        if action_id is not None:
            changes.actions.append((str(_canonical(action_id)), node, year))
        elif node not in changes.nodes_before:  # the first row of a node tells its old state
            changes.nodes_before[node] = (
                None if old_kind is None else (_canonical(old_parent_id), old_kind)
            )
    return changes


def _tree_before(nodes: Mapping[str, NodeRecord], changes: ChangeSet) -> dict[str, NodeRecord]:
    """The tree as the last sync saw it (parents and kinds: what anchors depend on)."""
    before = dict(nodes)
    for node_id, old in changes.nodes_before.items():
        if old is None:
            before.pop(node_id, None)
        else:
            parent_id, kind = old
            before[node_id] = NodeRecord(node_id, parent_id, "", kind, None, None, None)
    return before


def _below(
    nodes: Mapping[str, NodeRecord], roots: Collection[str], *, through_buildings: bool
) -> set[str]:
    """The roots and the nodes below them (not below a building, unless `through_buildings`)."""
    children: dict[str, list[str]] = defaultdict(list)
    for node in nodes.values():
        if node.parent_id is not None:
            children[node.parent_id].append(node.id)
    found: set[str] = set()
    stack = [root for root in roots if root in nodes]
    while stack:
        current = stack.pop()
        if current in found:
            continue
        found.add(current)
        stack.extend(
            child
            for child in children.get(current, ())
            if through_buildings or nodes[child].kind != NodeKind.BUILDING
        )
    return found


def scopes_of(
    changes: ChangeSet,
    *,
    nodes: Mapping[str, NodeRecord],
    actions_of: Callable[[set[str], set[str]], Mapping[str, ActionRecord]],
    subtree_limit: int,
) -> tuple[Scopes, Mapping[str, ActionRecord]] | None:
    """The scopes the changes touch, with the current actions read on the way (those on the
    changed nodes, their subtrees and the changed actions' nodes, and the changed actions).
    None when the changed subtrees hold more than `subtree_limit` nodes: a full sync is then
    the cheaper way."""
    changed_nodes = set(changes.nodes_before)
    subtree = _below(nodes, changed_nodes, through_buildings=True)
    if len(subtree) > subtree_limit:
        return None
    changed_actions = {action_id for action_id, _node, _year in changes.actions}
    missing_code_nodes = changed_nodes | {node for _action, node, _year in changes.actions}
    actions = actions_of(subtree | missing_code_nodes, changed_actions)

    before = _tree_before(nodes, changes)
    anchors_now: dict[str, str] = {}
    anchors_before: dict[str, str] = {}
    groups: set[tuple[str, int]] = set()

    def group_keys(node_id: str, year: int) -> None:
        if node_id in nodes:
            groups.add((anchor_node_id(node_id, nodes, anchors_now), year))
        if node_id in before:
            groups.add((anchor_node_id(node_id, before, anchors_before), year))

    for _action, node_id, year in changes.actions:
        group_keys(node_id, year)
    for action in actions.values():
        if action.node_id in subtree:
            group_keys(action.node_id, action.planned_year)
    deviation_actions = changed_actions | {
        action.id for action in actions.values() if action.node_id in changed_nodes
    }
    scopes = Scopes(
        missing_code_nodes=frozenset(missing_code_nodes),
        deviation_actions=frozenset(deviation_actions),
        groups=frozenset(groups),
    )
    return scopes, actions


def group_region(nodes: Mapping[str, NodeRecord], anchors: Collection[str]) -> set[str]:
    """The nodes whose project groups may anchor at `anchors` (each anchor and what lies below
    it down to the next building): where a group's actions can be."""
    return _below(nodes, anchors, through_buildings=False)

"""What changed since a plan's last sync, and which suggestions that can touch.

The rows come from the change-log triggers of planning.db (`PlanChange`). A sync claims its
plan's rows with one `DELETE ... RETURNING` inside its transaction: a row that commits later is
left for the next sync, and a rolled-back sync gives its rows back. On PostgreSQL every trigger
also takes a KEY SHARE lock on the plan's row, which the sync's `FOR UPDATE` waits for: while a
sync runs, no change to the plan can commit, so what it claims and what it reads agree, and the
"before" values of the rows it claims describe exactly the data the stored suggestions were
derived from. (SQLite runs one writer at a time and gives a transaction one snapshot.)

Scopes, every rule being local (docs/subsystems/sync.md "Scopes"):
- missing_code and condition of a node: the node and its live actions;
- deviation and overdue of an action: the action, its node and the node's code;
- project_grouping of (anchor, year): the live actions without a project anchored there.
A changed node re-derives its own missing_code, the deviations of its actions, and the groups
of its actions before and after; when it is an anchor, every group anchored at it. The texts
name each node's anchor (its building's label, else its root's name), so a region whose place
may read differently now is re-derived whole: that of a building whose label changed (the sync
compares the labels with those the texts were derived under: a rename, of the building, of one
with the same name or of an ancestor) and that of a changed root outside every building.
Anchors come from the stored tree fields (planning.tree), and each node row carries the node's
stored building and path before the change, so the groups a node belonged to at the last sync
are known without the old tree: a move or a kind change rewrites the stored fields of every
node it re-anchors, and each of those writes leaves its own row. A changed action re-derives
its deviations, the missing_code of its node(s) and its group(s) before and after.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from uuid import UUID

from django.db import connection
from django.db.models import Count, Q

from planning.models import PlanChange
from planning.suggestions.rules.project_grouping import anchor_node_id
from planning.suggestions.rules.records import ActionRecord, NodeRecord
from planning.tree.paths import root_id


@dataclass(frozen=True, slots=True)
class Pending:
    count: int
    catalog: bool


@dataclass
class ChangeSet:
    # node id -> its anchor before the first change of this batch; None: a new node
    nodes_before: dict[str, str | None] = field(default_factory=dict)
    # (action id, node id, planned year), before and after each change
    actions: list[tuple[str, str, int]] = field(default_factory=list)

    def merge(self, later: ChangeSet) -> None:
        """Takes in rows claimed after these (a node keeps its earliest state)."""
        for node_id, before in later.nodes_before.items():
            self.nodes_before.setdefault(node_id, before)
        self.actions.extend(later.actions)


@dataclass(frozen=True)
class Scopes:
    missing_code_nodes: frozenset[str]
    deviation_actions: frozenset[str]
    groups: frozenset[tuple[str, int]]

    def fingerprints(self) -> set[str]:
        return {
            *(f"missing_code:{node_id}" for node_id in self.missing_code_nodes),
            *(f"condition:{node_id}" for node_id in self.missing_code_nodes),
            *(f"overdue:{action_id}" for action_id in self.deviation_actions),
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
            "RETURNING id, node_id, action_id, year, old_kind, old_building_id, old_path",
            [column.get_db_prep_value(plan_id, connection)],
        )
        rows = sorted(cursor.fetchall())
    changes = ChangeSet()
    for _id, node_id, action_id, year, old_kind, old_building_id, old_path in rows:
        node = _canonical(node_id)
        assert node is not None
        if action_id is not None:
            changes.actions.append((str(_canonical(action_id)), node, year))
        elif node not in changes.nodes_before:  # the first row of a node tells its old state
            changes.nodes_before[node] = (
                None
                if old_kind is None
                else _canonical(old_building_id) or str(root_id(path=old_path or "", node_id=node))
            )
    return changes


def scopes_of(
    changes: ChangeSet,
    *,
    nodes_of: Callable[[set[str]], Mapping[str, NodeRecord]],
    region_of: Callable[[list[NodeRecord]], Mapping[str, NodeRecord]],
    actions_of: Callable[[set[str], set[str]], Mapping[str, ActionRecord]],
    subtree_limit: int,
    relabelled: Collection[str] = (),
) -> tuple[Scopes, Mapping[str, ActionRecord], dict[str, NodeRecord]] | None:
    """The scopes the changes touch, with what was read on the way: the current actions (those
    on the changed nodes, on the nodes a changed anchor anchors and on the changed actions'
    nodes, and the changed actions) and the current records of those nodes. `relabelled`: the
    buildings whose label changed, whose regions are re-derived whole, as are those of the
    changed roots outside every building. None when the changed nodes and those regions hold
    more than `subtree_limit` nodes: a full sync is then the cheaper way."""
    changed_nodes = set(changes.nodes_before)
    action_nodes = {node for _action, node, _year in changes.actions}
    nodes = dict(nodes_of(changed_nodes | action_nodes | set(relabelled)))
    anchors = [
        nodes[n]
        for n in changed_nodes | set(relabelled)
        if n in nodes and anchor_node_id(nodes[n]) == n
    ]
    region = region_of(anchors) if anchors else {}
    touched = changed_nodes | set(region)
    if len(touched) > subtree_limit:
        return None
    nodes.update(region)
    renamed = {a.id for a in anchors if a.id in relabelled or a.building_id is None}
    named = {n for n, node in region.items() if anchor_node_id(node) in renamed}
    changed_actions = {action_id for action_id, _node, _year in changes.actions}
    missing_code_nodes = changed_nodes | action_nodes | named
    actions = actions_of(touched | missing_code_nodes, changed_actions)

    groups: set[tuple[str, int]] = set()

    def group_keys(node_id: str, year: int) -> None:
        node = nodes.get(node_id)
        if node is not None:
            groups.add((anchor_node_id(node), year))
        before = (
            changes.nodes_before[node_id]
            if node_id in changes.nodes_before
            else (anchor_node_id(node) if node is not None else None)
        )
        if before is not None:
            groups.add((before, year))

    for _action, node_id, year in changes.actions:
        group_keys(node_id, year)
    for action in actions.values():
        if action.node_id in touched:
            group_keys(action.node_id, action.planned_year)
    deviation_actions = changed_actions | {
        action.id
        for action in actions.values()
        if action.node_id in changed_nodes or action.node_id in named
    }
    scopes = Scopes(
        missing_code_nodes=frozenset(missing_code_nodes),
        deviation_actions=frozenset(deviation_actions),
        groups=frozenset(groups),
    )
    return scopes, actions, nodes

"""Writes of a plan's structure nodes: creation, renaming, their figures (details, a
building's data, a component's condition), moves, deletion and their catalog code. Each is one
`plan_write` (planning.core.writes) that checks the node's rules (`validated`) first and its
relations (same plan, still there) under the plan's lock; the stored path and building follow
every change of a parent or kind (planning.tree.paths). Each write names `updated_at` (a
`save(update_fields=...)` sets it only then): the nodes list's `updated_since` reads it."""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.core.exceptions import ValidationError

from planning.core.validation import plan_size_check, validated
from planning.core.writes import plan_write
from planning.models import BUILDING_FIELDS, COMPONENT_FIELDS, Code, Plan, StructureNode
from planning.tree.paths import move_check, node_place, subtree_refresh
from planning.tree.selectors import node_subtree


def _node_parent_check(*, plan: Plan, parent: StructureNode | None) -> None:
    """A parent belongs to the same plan and still exists (checked under the plan lock, so a
    concurrent delete cannot slip in between)."""
    if parent is None:
        return
    if parent.plan_id != plan.pk:
        raise ValidationError({"parent": "The parent node belongs to another plan."})
    if not StructureNode.objects.filter(pk=parent.pk, plan=plan).exists():
        raise ValidationError({"parent": "The parent node no longer exists."})


def node_create(
    *,
    plan: Plan,
    name: str,
    kind: str,
    parent: StructureNode | None = None,
    code: Code | None = None,
    quantity: Decimal | None = None,
    unit: str = "",
    install_year: int | None = None,
) -> StructureNode:
    node = StructureNode(
        plan=plan,
        parent=parent,
        name=(name or "").strip(),
        kind=kind,
        code=code,
        quantity=quantity,
        unit=(unit or "").strip(),
        install_year=install_year,
    )
    validated(node)
    _code_visible_check(plan=plan, code=code)
    with plan_write(plan_id=plan.pk, data_changed=True):
        # counted under the lock, so two concurrent additions cannot both fit
        plan_size_check(nodes=StructureNode.objects.filter(plan=plan).count() + 1)
        _node_parent_check(plan=plan, parent=parent)
        node_place(node)  # its stored path and building, from the parent's
        node.save(force_insert=True)
    return node


def node_rename(*, node: StructureNode, name: str) -> StructureNode:
    node.name = (name or "").strip()
    validated(node)
    with plan_write(plan_id=node.plan_id, data_changed=True):
        node.save(update_fields=["name", "updated_at"])
    return node


def node_details_update(
    *,
    node: StructureNode,
    kind: str,
    quantity: Decimal | None,
    unit: str,
    install_year: int | None,
) -> StructureNode:
    """Kind, quantity, unit and install year: the figures the suggestion rules compare with.
    A new kind re-places the node and its subtree (to or from being a building)."""
    kind_changed = node.kind != kind
    node.kind = kind
    node.quantity = quantity
    node.unit = (unit or "").strip()
    node.install_year = install_year
    validated(node)
    with plan_write(plan_id=node.plan_id, data_changed=True):
        node.save(update_fields=["kind", "quantity", "unit", "install_year", "updated_at"])
        if kind_changed:  # the subtree's stored fields change with it (planning.tree)
            subtree_refresh(node_id=node.pk)
            node.refresh_from_db(fields=["path", "building"])
    return node


def node_building_update(
    *,
    node: StructureNode,
    address: str,
    gross_floor_area_m2: Decimal | None,
    year_built: int | None,
    replacement_value: Decimal | None = None,
) -> StructureNode:
    """A building's address, gross floor area (m2, the key figures divide by it), year built
    and replacement value (the FCI divides by it); refused on a node that is not a building."""
    node.address = (address or "").strip()
    node.gross_floor_area_m2 = gross_floor_area_m2
    node.year_built = year_built
    node.replacement_value = replacement_value
    validated(node)
    with plan_write(plan_id=node.plan_id, data_changed=True):
        node.save(update_fields=[*BUILDING_FIELDS, "updated_at"])
    return node


def node_condition_update(
    *,
    node: StructureNode,
    condition_grade: int | None,
    condition_assessed_on: datetime.date | None,
) -> StructureNode:
    """A component's condition grade (0-3) and when it was assessed; refused on a node that is
    not a component."""
    node.condition_grade = condition_grade
    node.condition_assessed_on = condition_assessed_on
    validated(node)
    with plan_write(plan_id=node.plan_id, data_changed=True):
        node.save(update_fields=[*COMPONENT_FIELDS, "updated_at"])
    return node


def node_move(*, node: StructureNode, parent: StructureNode | None) -> StructureNode:
    """Moves `node` (with its subtree) under `parent`, or makes it a root when `parent` is None;
    the subtree's stored paths and buildings follow in a few set-based updates."""
    with plan_write(plan_id=node.plan_id, data_changed=True):
        _node_parent_check(plan=node.plan, parent=parent)
        move_check(node=node, parent=parent)
        node.parent = parent
        node.save(update_fields=["parent", "updated_at"])
        subtree_refresh(node_id=node.pk)
        node.refresh_from_db(fields=["path", "building"])
    return node


def node_delete(*, node: StructureNode) -> int:
    """Deletes the node, its whole subtree and their actions; returns how many nodes went."""
    with plan_write(plan_id=node.plan_id, data_changed=True):
        deleted = node_subtree(node_id=node.pk).filter(plan=node.plan).delete()[1]
    return deleted.get(StructureNode._meta.label, 0)


def _code_visible_check(*, plan: Plan, code: Code | None) -> None:
    """A node takes a starter code or one of its plan's organisation's own codes."""
    if code is not None and code.organisation_id not in (None, plan.organisation_id):
        raise ValidationError({"code": "No catalog code matches."})


def node_code_assign(*, node: StructureNode, code: Code) -> StructureNode:
    _code_visible_check(plan=node.plan, code=code)
    with plan_write(plan_id=node.plan_id, data_changed=True):
        node.code = code
        node.save(update_fields=["code", "updated_at"])
    return node


def node_code_clear(*, node: StructureNode) -> StructureNode:
    with plan_write(plan_id=node.plan_id, data_changed=True):
        node.code = None
        node.save(update_fields=["code", "updated_at"])
    return node

"""Writes of the planning domain."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import IntegrityError, models, transaction
from django.db.models import F

from accounts.models import User
from accounts.selectors import user_get_by_email
from planning.catalog import STARTER_CATALOG
from planning.models import (
    MAX_YEAR,
    MIN_YEAR,
    Action,
    ActionKind,
    ActionStatus,
    Code,
    NodeKind,
    Plan,
    PlanMembership,
    PlanNumberCounter,
    PlanRole,
    Project,
    StructureNode,
)
from planning.selectors import node_subtree_ids


@transaction.atomic
def plan_number_allocate() -> int:
    """The next plan number: sequential, never reused, safe under concurrent creation.

    The UPDATE takes the counter row's lock until the surrounding transaction ends, so a
    concurrent creator waits for it and then reads the next value; a rolled-back creation
    gives its number back (no gap), a deleted plan does not (no reuse).
    """
    counter = PlanNumberCounter.objects.filter(pk=1)
    if not counter.update(last_number=F("last_number") + 1):
        # The row comes from a migration; should it be gone (a flushed database), put it back
        # above every existing number. ON CONFLICT DO NOTHING lets concurrent creators race
        # here safely: one inserts, the others find its row, and the UPDATE orders them all.
        highest = Plan.objects.aggregate(highest=models.Max("number"))["highest"] or 0
        PlanNumberCounter.objects.bulk_create(
            [PlanNumberCounter(pk=1, last_number=highest)], ignore_conflicts=True
        )
        counter.update(last_number=F("last_number") + 1)
    return counter.values_list("last_number", flat=True).get()


@transaction.atomic
def plan_create(*, owner: User, name: str, description: str = "") -> Plan:
    """A new plan with the next number; its creator becomes its owner."""
    plan = Plan.objects.create(
        number=plan_number_allocate(),
        name=_require_name(name),
        description=(description or "").strip(),
    )
    PlanMembership.objects.create(plan=plan, user=owner, role=PlanRole.OWNER)
    return plan


# --- validation helpers -----------------------------------------------------------------------


def _require_name(value: str, *, field: str = "name", max_length: int = 200) -> str:
    cleaned = (value or "").strip()
    if not cleaned:
        raise ValidationError({field: "This field cannot be blank."})
    if len(cleaned) > max_length:
        raise ValidationError({field: f"At most {max_length} characters."})
    return cleaned


def _require_choice(value: str, choices: type[models.TextChoices], *, field: str) -> str:
    if value not in choices.values:
        allowed = ", ".join(choices.values)
        raise ValidationError({field: f"“{value}” is not one of: {allowed}."})
    return value


def _require_year(value: int | None, *, field: str, required: bool = True) -> int | None:
    if value is None:
        if required:
            raise ValidationError({field: "This field is required."})
        return None
    if not MIN_YEAR <= value <= MAX_YEAR:
        raise ValidationError({field: f"Enter a year between {MIN_YEAR} and {MAX_YEAR}."})
    return value


def _require_not_negative(value: Decimal | None, *, field: str) -> Decimal | None:
    if value is not None and value < 0:
        raise ValidationError({field: "Cannot be negative."})
    return value


def _plan_lock(plan: Plan) -> None:
    """Serialises structure changes of one plan (two concurrent moves could close a cycle)."""
    Plan.objects.select_for_update().filter(pk=plan.pk).values_list("pk", flat=True).first()


def _node_parent_check(
    *, plan: Plan, node: StructureNode | None, parent: StructureNode | None
) -> None:
    """A parent belongs to the same plan, still exists (checked under the plan lock, so a
    concurrent delete cannot slip in between) and is neither the node nor one of its
    descendants."""
    if parent is None:
        return
    if parent.plan_id != plan.pk:
        raise ValidationError({"parent": "The parent node belongs to another plan."})
    if node is None:
        if not StructureNode.objects.filter(pk=parent.pk, plan=plan).exists():
            raise ValidationError({"parent": "The parent node no longer exists."})
        return
    parents = dict(StructureNode.objects.filter(plan=plan).values_list("id", "parent_id"))
    if parent.pk not in parents:
        raise ValidationError({"parent": "The parent node no longer exists."})
    ancestor: Any = parent.pk
    while ancestor is not None:
        if ancestor == node.pk:
            raise ValidationError(
                {"parent": "A node cannot be moved under itself or one of its descendants."}
            )
        ancestor = parents.get(ancestor)


# --- structure nodes --------------------------------------------------------------------------


@transaction.atomic
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
    _plan_lock(plan)
    _node_parent_check(plan=plan, node=None, parent=parent)
    return StructureNode.objects.create(
        plan=plan,
        parent=parent,
        name=_require_name(name),
        kind=_require_choice(kind, NodeKind, field="kind"),
        code=code,
        quantity=_require_not_negative(quantity, field="quantity"),
        unit=(unit or "").strip()[:20],
        install_year=_require_year(install_year, field="install_year", required=False),
    )


@transaction.atomic
def node_rename(*, node: StructureNode, name: str) -> StructureNode:
    node.name = _require_name(name)
    node.save(update_fields=["name"])
    return node


@transaction.atomic
def node_details_update(
    *,
    node: StructureNode,
    kind: str,
    quantity: Decimal | None,
    unit: str,
    install_year: int | None,
) -> StructureNode:
    """Kind, quantity, unit and install year: the figures the suggestion rules compare with."""
    node.kind = _require_choice(kind, NodeKind, field="kind")
    node.quantity = _require_not_negative(quantity, field="quantity")
    node.unit = (unit or "").strip()[:20]
    node.install_year = _require_year(install_year, field="install_year", required=False)
    node.save(update_fields=["kind", "quantity", "unit", "install_year"])
    return node


@transaction.atomic
def node_move(*, node: StructureNode, parent: StructureNode | None) -> StructureNode:
    """Moves `node` (with its subtree) under `parent`, or makes it a root when `parent` is None."""
    _plan_lock(node.plan)
    _node_parent_check(plan=node.plan, node=node, parent=parent)
    node.parent = parent
    node.save(update_fields=["parent"])
    return node


@transaction.atomic
def node_delete(*, node: StructureNode) -> int:
    """Deletes the node, its whole subtree and their actions; returns how many nodes went."""
    _plan_lock(node.plan)
    subtree = node_subtree_ids(plan=node.plan, node_id=node.pk)
    deleted = StructureNode.objects.filter(pk__in=subtree).delete()[1]
    return deleted.get(StructureNode._meta.label, 0)


@transaction.atomic
def node_code_assign(*, node: StructureNode, code: Code) -> StructureNode:
    node.code = code
    node.save(update_fields=["code"])
    return node


@transaction.atomic
def node_code_clear(*, node: StructureNode) -> StructureNode:
    node.code = None
    node.save(update_fields=["code"])
    return node


# --- actions ----------------------------------------------------------------------------------


def _action_fields_check(
    *,
    plan: Plan,
    node: StructureNode,
    title: str,
    kind: str,
    planned_year: int | None,
    estimated_cost: Decimal | None,
    project: Project | None,
) -> dict[str, Any]:
    errors: dict[str, str] = {}
    checks: list[tuple[str, Any]] = [
        ("title", lambda: _require_name(title, field="title")),
        ("kind", lambda: _require_choice(kind, ActionKind, field="kind")),
        ("planned_year", lambda: _require_year(planned_year, field="planned_year")),
        (
            "estimated_cost",
            lambda: _require_not_negative(estimated_cost, field="estimated_cost") or Decimal(0),
        ),
    ]
    values: dict[str, Any] = {}
    for field, check in checks:
        try:
            values[field] = check()
        except ValidationError as error:
            errors.update({key: value[0] for key, value in error.message_dict.items()})
    if node.plan_id != plan.pk:
        errors["node"] = "The node belongs to another plan."
    else:
        _plan_lock(plan)  # a concurrent node_delete waits, or has already happened:
        if not StructureNode.objects.filter(pk=node.pk).exists():
            errors["node"] = "The node no longer exists."
    if project is not None and project.plan_id != plan.pk:
        errors["project"] = "The project belongs to another plan."
    if errors:
        raise ValidationError(errors)
    return {**values, "node": node, "project": project}


@transaction.atomic
def action_create(
    *,
    plan: Plan,
    node: StructureNode,
    title: str,
    kind: str,
    planned_year: int,
    estimated_cost: Decimal = Decimal(0),
    project: Project | None = None,
    status: str = ActionStatus.PLANNED,
) -> Action:
    fields = _action_fields_check(
        plan=plan,
        node=node,
        title=title,
        kind=kind,
        planned_year=planned_year,
        estimated_cost=estimated_cost,
        project=project,
    )
    return Action.objects.create(
        plan=plan, status=_require_choice(status, ActionStatus, field="status"), **fields
    )


@transaction.atomic
def action_update(
    *,
    action: Action,
    node: StructureNode,
    title: str,
    kind: str,
    planned_year: int,
    estimated_cost: Decimal,
    project: Project | None = None,
) -> Action:
    fields = _action_fields_check(
        plan=action.plan,
        node=node,
        title=title,
        kind=kind,
        planned_year=planned_year,
        estimated_cost=estimated_cost,
        project=project,
    )
    for name, value in fields.items():
        setattr(action, name, value)
    action.save()
    return action


@transaction.atomic
def action_cancel(*, action: Action) -> Action:
    action.status = ActionStatus.CANCELLED
    action.save(update_fields=["status", "updated_at"])
    return action


@transaction.atomic
def action_mark_done(*, action: Action) -> Action:
    action.status = ActionStatus.DONE
    action.save(update_fields=["status", "updated_at"])
    return action


# --- memberships ------------------------------------------------------------------------------


def _owner_count_locked(plan: Plan) -> int:
    _plan_lock(plan)
    return PlanMembership.objects.filter(plan=plan, role=PlanRole.OWNER).count()


@transaction.atomic
def membership_add(*, plan: Plan, email: str, role: str) -> PlanMembership:
    """Adds the user with this email (an existing account) to the plan."""
    role = _require_choice(role, PlanRole, field="role")
    user = user_get_by_email(email=email)
    if user is None:
        raise ValidationError(
            {"email": "No account uses this email address. Ask them to register first."}
        )
    already = ValidationError({"email": "This person is already a member of the plan."})
    if PlanMembership.objects.filter(plan=plan, user=user).exists():
        raise already
    try:
        with transaction.atomic():  # the unique constraint decides a race between two adds
            return PlanMembership.objects.create(plan=plan, user=user, role=role)
    except IntegrityError:
        raise already from None


@transaction.atomic
def membership_role_set(*, membership: PlanMembership, role: str) -> PlanMembership:
    role = _require_choice(role, PlanRole, field="role")
    if (
        membership.role == PlanRole.OWNER
        and role != PlanRole.OWNER
        and _owner_count_locked(membership.plan) <= 1
    ):
        raise ValidationError({"role": "A plan always keeps at least one owner."})
    membership.role = role
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def membership_remove(*, membership: PlanMembership) -> None:
    if membership.role == PlanRole.OWNER and _owner_count_locked(membership.plan) <= 1:
        raise ValidationError({"role": "A plan always keeps at least one owner."})
    membership.delete()


# --- code catalog -----------------------------------------------------------------------------


@transaction.atomic
def code_catalog_defaults_load() -> int:
    """Adds the starter catalog's codes that are missing (the same rows as migration 0003);
    codes already present keep their edited figures. Returns how many were added."""
    existing = set(
        Code.objects.filter(code__in=[row[0] for row in STARTER_CATALOG]).values_list(
            "code", flat=True
        )
    )
    missing = [
        Code(
            code=code,
            name=name,
            unit=unit,
            unit_cost=Decimal(unit_cost),
            service_life_years=service_life_years,
            keywords=keywords,
            is_default=True,
        )
        for code, name, unit, unit_cost, service_life_years, keywords in STARTER_CATALOG
        if code not in existing
    ]
    Code.objects.bulk_create(missing, ignore_conflicts=True)
    return len(missing)

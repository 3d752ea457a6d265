"""Writes of the planning domain."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from decimal import Decimal
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction
from django.db.models import F
from django.utils import timezone

from accounts.models import User
from organisations.models import Invitation, Organisation
from organisations.selectors import membership_of, personal_membership
from planning.catalog.starter import STARTER_CATALOG
from planning.core.actor import history_context, history_quiet
from planning.core.writes import plan_lock, plan_write
from planning.figures.prices import Markup, markups_columns
from planning.models import (
    BUILDING_FIELDS,
    COMPONENT_FIELDS,
    Action,
    ActionStatus,
    Code,
    Completion,
    HistoryEntry,
    Plan,
    PlanNumberCounter,
    Project,
    StructureNode,
    today,
)
from planning.suggestions.sync.changes import changes_discard
from planning.tree import move_check, node_place, node_subtree, subtree_refresh


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


NOT_A_PLANNER = "You cannot add plans to this organisation (planners, admins and owners can)."


@transaction.atomic
def plan_create(
    *,
    owner: User,
    name: str,
    description: str = "",
    organisation: Organisation | None = None,
    currency: str | None = None,
) -> Plan:
    """A new plan with the next number in `organisation` (by default the personal organisation
    of `owner`, who makes it and must be a member who may change its plans), in `currency`
    (by default PLAN_DEFAULT_CURRENCY)."""
    membership = (
        personal_membership(user=owner)
        if organisation is None
        else membership_of(user=owner, organisation_id=organisation.pk)
    )
    if membership is None or not membership.can_edit:
        raise ValidationError(NOT_A_PLANNER)
    organisation = membership.organisation
    plan = Plan(
        name=(name or "").strip(),
        description=(description or "").strip(),
        organisation=organisation,
    )
    if currency is not None:
        plan.currency = currency
    validated(plan, exclude=["number"])
    with transaction.atomic(savepoint=False), history_context():
        plan.number = plan_number_allocate()
        plan.save(force_insert=True)
    return plan


def plan_update(*, plan: Plan, name: str, description: str, currency: str) -> Plan:
    """Renames the plan, changes its description and the currency its amounts are shown in
    (a label: no amount is converted; the catalog's figures count only in their own currency,
    so a change re-derives the suggestions: docs/design.md "Code catalog" > "Currency")."""
    plan.name = (name or "").strip()
    plan.description = (description or "").strip()
    plan.currency = (currency or "").strip().upper()
    validated(plan, exclude=["number"])
    with plan_write(plan_id=plan.pk, data_changed=True):
        plan.save(update_fields=["name", "description", "currency", "updated_at"])
    return plan


MONEY_FIELDS = (
    "price_base_year",
    "index_rate_percent",
    "markups",
    "overhead_percent",
    "vat_percent",
    "annual_budget",
)


def plan_money_update(
    *,
    plan: Plan,
    price_base_year: int,
    index_rate_percent: Decimal,
    annual_budget: Decimal | None,
    markups: Sequence[Markup] | None = None,
    overhead_percent: Decimal | None = None,
    vat_percent: Decimal | None = None,
) -> Plan:
    """The plan's price index, markups and annual budget (docs/design.md "Money"): every
    nominal figure of the plan follows them; no estimated cost changes. `markups` are named
    percentages in the order they apply; `overhead_percent` and `vat_percent` instead (an older
    client's or file's two markups) leave the plan without a list, its markups being those two.
    With a list, the two columns hold its first and last markup (a single one is the overhead)
    for older clients."""
    plan.price_base_year = price_base_year
    plan.index_rate_percent = index_rate_percent
    if markups is not None:
        for field, value in markups_columns(markups).items():
            setattr(plan, field, value)
    else:
        plan.markups = None
        plan.overhead_percent = overhead_percent or Decimal(0)
        plan.vat_percent = vat_percent or Decimal(0)
    plan.annual_budget = annual_budget
    validated(plan, exclude=["number"])
    with plan_write(plan_id=plan.pk, data_changed=True):
        plan.save(update_fields=[*MONEY_FIELDS, "updated_at"])
    return plan


@transaction.atomic
def plan_delete(*, plan: Plan) -> None:
    """Deletes the plan with everything in it (structure, actions, projects, suggestions,
    memberships). Its number is never handed out again (PlanNumberCounter)."""
    plan_lock(plan_id=plan.pk)  # no version, signal or sync: nothing of the plan is left
    plan_id = plan.pk
    Invitation.objects.filter(plan_id=plan_id).delete()  # its guests' links die with it
    with history_quiet(), history_context():  # its history goes with it
        plan.delete()
    HistoryEntry.objects.filter(plan_id=plan_id).delete()
    changes_discard(plan_id=plan_id)  # written by the triggers while its rows went


# --- validation -------------------------------------------------------------------------------


def validated(instance: models.Model, *, exclude: list[str] | None = None) -> models.Model:
    """Runs the model's field rules and `clean()` (planning.models is their one source) and
    returns the instance, or raises their ValidationError ({field: [messages]}).

    Relations are left out: the services check them under the plan lock (same plan, still
    there), which a validator cannot. Uniqueness and constraints are the database's job.
    """
    relations = [field.name for field in instance._meta.concrete_fields if field.is_relation]
    instance.full_clean(
        exclude=[*relations, *(exclude or [])], validate_unique=False, validate_constraints=False
    )
    return instance


def plan_size_message(*, field: str, limit: int, count: int | None = None) -> str:
    """What the plan limits say (`count` None: a file whose rows were not all counted)."""
    has = f"would have {count:,}" if count is not None else "has more"
    return f"A plan can hold at most {limit:,} {field}; this one {has}."


def plan_size_check(*, nodes: int = 0, actions: int = 0) -> None:
    """Raises ValidationError (``{"nodes"|"actions": [message]}``) when a plan of this many
    nodes and actions would be over ``PLAN_MAX_NODES`` or ``PLAN_MAX_ACTIONS``
    (docs/design.md "Limits"). The one place those limits are compared: additions, imports and
    generate_plan all ask here."""
    errors: dict[str, list[str]] = {}
    for field, count, limit in (
        ("nodes", nodes, settings.PLAN_MAX_NODES),
        ("actions", actions, settings.PLAN_MAX_ACTIONS),
    ):
        if count > limit:
            errors[field] = [plan_size_message(field=field, limit=limit, count=count)]
    if errors:
        raise ValidationError(errors)


def _node_parent_check(*, plan: Plan, parent: StructureNode | None) -> None:
    """A parent belongs to the same plan and still exists (checked under the plan lock, so a
    concurrent delete cannot slip in between)."""
    if parent is None:
        return
    if parent.plan_id != plan.pk:
        raise ValidationError({"parent": "The parent node belongs to another plan."})
    if not StructureNode.objects.filter(pk=parent.pk, plan=plan).exists():
        raise ValidationError({"parent": "The parent node no longer exists."})


# --- structure nodes --------------------------------------------------------------------------


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
        node.save(update_fields=["name"])
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
        node.save(update_fields=["kind", "quantity", "unit", "install_year"])
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
) -> StructureNode:
    """A building's address, gross floor area (m2, the key figures divide by it) and year
    built; refused on a node that is not a building."""
    node.address = (address or "").strip()
    node.gross_floor_area_m2 = gross_floor_area_m2
    node.year_built = year_built
    validated(node)
    with plan_write(plan_id=node.plan_id, data_changed=True):
        node.save(update_fields=list(BUILDING_FIELDS))
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
        node.save(update_fields=list(COMPONENT_FIELDS))
    return node


def node_move(*, node: StructureNode, parent: StructureNode | None) -> StructureNode:
    """Moves `node` (with its subtree) under `parent`, or makes it a root when `parent` is None;
    the subtree's stored paths and buildings follow in a few set-based updates."""
    with plan_write(plan_id=node.plan_id, data_changed=True):
        _node_parent_check(plan=node.plan, parent=parent)
        move_check(node=node, parent=parent)
        node.parent = parent
        node.save(update_fields=["parent"])
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
        node.save(update_fields=["code"])
    return node


def node_code_clear(*, node: StructureNode) -> StructureNode:
    with plan_write(plan_id=node.plan_id, data_changed=True):
        node.code = None
        node.save(update_fields=["code"])
    return node


# --- actions ----------------------------------------------------------------------------------


def _action_save(action: Action) -> Action:
    """Checks the action's fields (the model's rules) and that its node and project belong to
    its plan, reports every problem at once, then saves. Call it under the plan's lock (a
    concurrent node_delete waits, or has already happened: its node is then gone)."""
    errors: dict[str, list[str]] = {}
    try:
        validated(action)
    except ValidationError as error:
        errors.update(error.message_dict)
    if action.node.plan_id != action.plan_id:
        errors["node"] = ["The node belongs to another plan."]
    elif not StructureNode.objects.filter(pk=action.node.pk).exists():
        errors["node"] = ["The node no longer exists."]
    if action.project is not None and action.project.plan_id != action.plan_id:
        errors["project"] = ["The project belongs to another plan."]
    if errors:
        raise ValidationError(errors)
    action.save()
    return action


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
    interval_years: int | None = None,
) -> Action:
    with plan_write(plan_id=plan.pk, data_changed=True):
        # counted under the lock, so two concurrent additions cannot both fit
        plan_size_check(actions=Action.objects.filter(plan=plan).count() + 1)
        return _action_save(
            Action(
                plan=plan,
                node=node,
                title=(title or "").strip(),
                kind=kind,
                planned_year=planned_year,
                estimated_cost=Decimal(0) if estimated_cost is None else estimated_cost,
                project=project,
                status=status,
                interval_years=interval_years,
            )
        )


def action_update(
    *,
    action: Action,
    node: StructureNode,
    title: str,
    kind: str,
    planned_year: int,
    estimated_cost: Decimal,
    interval_years: int | None,
    project: Project | None = None,
) -> Action:
    action.node = node
    action.title = (title or "").strip()
    action.kind = kind
    action.planned_year = planned_year
    action.estimated_cost = Decimal(0) if estimated_cost is None else estimated_cost
    action.project = project
    action.interval_years = interval_years
    with plan_write(plan_id=action.plan_id, data_changed=True):
        return _action_save(action)


def action_cancel(*, action: Action) -> Action:
    with plan_write(plan_id=action.plan_id, data_changed=True):
        action.status = ActionStatus.CANCELLED
        action.save(update_fields=["status", "updated_at"])
    return action


def action_after_completion(
    *, planned_year: int, interval_years: int | None, completed_on: datetime.date
) -> tuple[str, int]:
    """The status and planned year of an action once work on it is recorded (docs/design.md
    "Money"): a one-off action is done; a recurring one stays planned and moves to its next
    occurrence, the completion's year plus its interval. Mark done and the import of a done
    row both ask here."""
    if interval_years is None:
        return ActionStatus.DONE.value, planned_year
    return ActionStatus.PLANNED.value, completed_on.year + interval_years


def action_mark_done(
    *,
    action: Action,
    by: User | None = None,
    completed_on: datetime.date | None = None,
    actual_cost: Decimal | None = None,
) -> Completion:
    """Records the work as a Completion (docs/design.md "Money") and moves the action on
    (`action_after_completion`). The date defaults to today; its bounds are the Completion's
    (planning.models.PAST_DATE_VALIDATORS)."""
    completed_on = completed_on or today()
    with plan_write(plan_id=action.plan_id, data_changed=True):
        action.refresh_from_db(
            fields=["planned_year", "interval_years", "status", "estimated_cost"]
        )
        if action.status != ActionStatus.PLANNED:
            raise ValidationError("Only a planned action can be marked done.")
        completion = Completion(
            action=action,
            completed_on=completed_on,
            planned_year=action.planned_year,
            estimated_cost=action.estimated_cost,
            actual_cost=actual_cost,
            by=by,
        )
        validated(completion)
        action.status, action.planned_year = action_after_completion(
            planned_year=action.planned_year,
            interval_years=action.interval_years,
            completed_on=completed_on,
        )
        if action.interval_years is not None:
            validated(action)  # the next year must still be a year a plan holds
        completion.save(force_insert=True)
        action.save(update_fields=["status", "planned_year", "updated_at"])
    return completion


def action_done_undo(*, action: Action) -> Action:
    """The Undo of Mark done: its latest Completion goes, and the action is planned again for
    the year it had (a recurring one moves back)."""
    with plan_write(plan_id=action.plan_id, data_changed=True) as write:
        completion = action.completions.order_by("-created_at", "-pk").first()
        if completion is None:
            write.data_changed = False
            return action
        action.planned_year = completion.planned_year
        action.status = ActionStatus.PLANNED
        completion.delete()
        action.save(update_fields=["status", "planned_year", "updated_at"])
    return action


def action_reopen(*, action: Action) -> Action:
    """A done or cancelled action is planned again (Reopen, and the Undo of Mark done or
    Cancel)."""
    with plan_write(plan_id=action.plan_id, data_changed=True):
        action.status = ActionStatus.PLANNED
        action.save(update_fields=["status", "updated_at"])
    return action


# --- projects ---------------------------------------------------------------------------------


def project_create(*, plan: Plan, name: str, year: int) -> Project:
    """A new, empty project of the plan (actions are added from its page)."""
    project = Project(plan=plan, name=(name or "").strip(), year=year)
    validated(project)
    with plan_write(plan_id=plan.pk, data_changed=True):
        project.save(force_insert=True)
    return project


def project_update(*, project: Project, name: str, year: int) -> Project:
    project.name = (name or "").strip()
    project.year = year
    validated(project)
    with plan_write(plan_id=project.plan_id, data_changed=True):
        project.save(update_fields=["name", "year"])
    return project


def project_delete(*, project: Project) -> int:
    """Deletes the project; its actions stay, without a project. Returns how many it had."""
    with plan_write(plan_id=project.plan_id, data_changed=True):
        kept = Action.objects.filter(project=project).update(project=None)
        project.delete()
    return kept


def project_actions_add(*, project: Project, action_ids: list[Any]) -> int:
    """Puts these actions of the project's plan into the project; returns how many moved."""
    with plan_write(plan_id=project.plan_id, data_changed=True) as write:
        moved = Action.objects.filter(plan_id=project.plan_id, pk__in=action_ids).update(
            project=project, updated_at=timezone.now()
        )
        write.data_changed = moved > 0
    return moved


def project_action_remove(*, project: Project, action: Action) -> None:
    if action.project_id != project.pk:
        raise ValidationError("This action is not in the project.")
    with plan_write(plan_id=project.plan_id, data_changed=True):
        action.project = None
        action.save(update_fields=["project", "updated_at"])


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

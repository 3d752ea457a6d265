"""Writes of a plan's actions: creation, edits, cancelling, Mark done (a Completion) with
its Undo, reopening, and changing many at once (a year, a project) with its Undo. Each is one
`plan_write` (planning.core.writes); an action's node and project are checked to belong to its
plan under the plan's lock (`_action_save`)."""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.utils import timezone

from accounts.models import User
from planning.core.validation import plan_size_check, validated
from planning.core.writes import PlanWrite, plan_write
from planning.models import (
    Action,
    ActionStatus,
    Completion,
    Plan,
    Project,
    StructureNode,
    today,
)


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


def action_delete(*, action: Action) -> None:
    """Deletes the action with its completions (the history keeps them)."""
    with plan_write(plan_id=action.plan_id, data_changed=True):
        action.delete()


def action_cancel(*, action: Action) -> Action:
    with plan_write(plan_id=action.plan_id, data_changed=True):
        action.status = ActionStatus.CANCELLED
        action.save(update_fields=["status", "updated_at"])
    return action


def action_after_completion(
    *, planned_year: int, interval_years: int | None, completed_on: datetime.date
) -> tuple[str, int]:
    """The status and planned year of an action once work on it is recorded
    (docs/subsystems/money.md): a one-off action is done; a recurring one stays planned and
    moves to its next occurrence, the completion's year plus its interval. Mark done and the
    import of a done row both ask here."""
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
    """Records the work as a Completion (docs/subsystems/money.md) and moves the action on
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


# --- several actions at once (the Actions tab's bulk change, docs/subsystems/web-app.md) --------
#
# Each is one `plan_write` over the chosen actions of the plan, and returns what it replaced,
# grouped by the value each action had (ids as hex), which `actions_bulk_undo` puts back.


def _bulk_former(value: Any) -> str:
    """A value an action had, as the Undo keeps it: a year as text, a project's id as hex, ""
    for none."""
    if value is None:
        return ""
    return value.hex if isinstance(value, uuid.UUID) else str(value)


def _bulk_set(
    write: PlanWrite, actions: QuerySet[Action], *, field: str, value: Any
) -> dict[str, list[str]]:
    """Sets `field` to `value` on those of `actions` that hold another (locked first); returns
    their ids grouped by the value each had (`_bulk_former`)."""
    rows = list(actions.select_for_update().exclude(**{field: value}).values_list("pk", field))
    before: dict[str, list[str]] = {}
    for pk, former in rows:
        before.setdefault(_bulk_former(former), []).append(pk.hex)
    Action.objects.filter(pk__in=[pk for pk, _ in rows]).update(
        **{field: value, "updated_at": timezone.now()}
    )
    write.data_changed = bool(rows)
    return before


def actions_year_set(*, plan: Plan, action_ids: list[Any], year: int) -> dict[str, list[str]]:
    """Moves the planned ones among these actions of the plan to `year` (done and cancelled
    actions keep the year they were planned for); returns the moved ids by their former year."""
    try:
        Action._meta.get_field("planned_year").clean(year, None)
    except ValidationError as error:
        raise ValidationError({"year": error.messages}) from None
    with plan_write(plan_id=plan.pk, data_changed=True) as write:
        planned = Action.objects.filter(plan=plan, pk__in=action_ids, status=ActionStatus.PLANNED)
        return _bulk_set(write, planned, field="planned_year", value=year)


def actions_project_set(
    *, plan: Plan, action_ids: list[Any], project: Project | None
) -> dict[str, list[str]]:
    """Puts these actions of the plan into `project` (None: out of any project); returns the
    changed ids by their former project's id ("" for none)."""
    if project is not None and project.plan_id != plan.pk:
        raise ValidationError({"project": "The project belongs to another plan."})
    with plan_write(plan_id=plan.pk, data_changed=True) as write:
        chosen = Action.objects.filter(plan=plan, pk__in=action_ids)
        return _bulk_set(
            write, chosen, field="project_id", value=project.pk if project is not None else None
        )


def actions_bulk_undo(*, plan: Plan, change: str, value: Any, before: dict[str, list[str]]) -> int:
    """Puts back what `actions_year_set` (`change` "year", `value` the year it set) or
    `actions_project_set` ("project", the project's hex id or "") replaced, on the actions
    that still hold what it set (a change made since wins); a project deleted since stays
    gone. Returns how many actions went back."""
    if change not in ("year", "project"):
        raise ValidationError("There is nothing to undo.")

    def parsed(text: Any) -> Any:  # what `_bulk_former` kept, as the field holds it
        if change == "year":
            return int(text)
        return uuid.UUID(text) if text else None

    field = "planned_year" if change == "year" else "project_id"
    current = parsed(value)
    restored = 0
    with plan_write(plan_id=plan.pk, data_changed=True) as write:
        if change == "project":
            kept = {pk.hex for pk in Project.objects.filter(plan=plan).values_list("pk", flat=True)}
            before = {former: ids for former, ids in before.items() if not former or former in kept}
        for former, ids in before.items():
            restored += (
                Action.objects.filter(plan=plan, pk__in=[uuid.UUID(i) for i in ids])
                .filter(**{field: current})  # None: those in no project
                .update(**{field: parsed(former), "updated_at": timezone.now()})
            )
        write.data_changed = restored > 0
    return restored

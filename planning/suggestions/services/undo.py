"""Undo of an apply (`suggestion_apply_undo`), in one `plan_write` (planning.core.writes): what
the apply changed goes back and the suggestion is open again. A fix's Undo puts the value it
replaced back, a code's clears the code it assigned, a grouping's removes the project it
created, a condition's removes the repair it planned, a budget peak's moves the actions back to
the year they left. Refused when what the apply set has changed since: someone changed it, and
their change wins.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from planning.core.money import money_format
from planning.core.writes import PlanWrite, plan_write
from planning.models import (
    Action,
    ActionStatus,
    Project,
    Resolution,
    StructureNode,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.services.actions import action_update
from planning.plans.services.nodes import node_code_clear
from planning.plans.services.projects import project_delete
from planning.suggestions.events import SuggestionChange
from planning.suggestions.selectors import actions_named
from planning.suggestions.services.apply import (
    actions_move,
    deviation_action_locked,
    deviation_fix,
    moved_text,
)


def suggestion_apply_undo(*, suggestion: Suggestion, before: Any) -> tuple[Suggestion, str]:
    """The Undo of an apply, in one transaction: what the apply changed goes back and the
    suggestion is open again; returns it and what was undone, said for a person. `before` is
    what the page kept of the apply: for a fix the cost or year it replaced, for a code the
    code it assigned, for a grouping the project it created. Refused (ValidationError) when
    the suggestion is no longer applied, or what the apply set has changed since: someone
    changed it, and their change wins."""
    with plan_write(plan_id=suggestion.plan_id, data_changed=True) as write:
        locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
        if locked.status != SuggestionStatus.RESOLVED or locked.resolution != Resolution.APPLIED:
            raise ValidationError("This can no longer be undone.")
        if locked.suggestion_type == SuggestionType.MISSING_CODE:
            said = _code_undo(locked, code_id=before)
        elif locked.suggestion_type == SuggestionType.PROJECT_GROUPING:
            said = _project_undo(locked, project_id=before)
        elif locked.suggestion_type == SuggestionType.CONDITION:
            said = _repair_undo(locked, action_id=before)
        elif locked.suggestion_type == SuggestionType.BUDGET_PEAK:
            said = _move_undo(locked, moved=before)
        else:
            said = _fix_undo(locked, before=before)
        return _reopen(write, locked), said


def _reopen(write: PlanWrite, suggestion: Suggestion) -> Suggestion:
    suggestion.status = SuggestionStatus.OPEN
    suggestion.resolution = ""
    suggestion.resolved_at = None
    suggestion.updated_at = timezone.now()
    suggestion.save(update_fields=["status", "resolution", "resolved_at", "updated_at"])
    write.suggestions_changed([(SuggestionChange.REOPENED, suggestion.pk)])
    return suggestion


def _code_undo(suggestion: Suggestion, *, code_id: Any) -> str:
    node = StructureNode.objects.select_for_update().get(pk=suggestion.structure_node_id)
    if node.code_id is None or str(node.code_id) != str(code_id):
        raise ValidationError(f"“{node.name}” has another code since, so it was kept.")
    node_code_clear(node=node)
    return f"“{node.name}” has no code again."


def _project_undo(suggestion: Suggestion, *, project_id: Any) -> str:
    project = Project.objects.select_for_update().filter(pk=project_id).first()
    grouped = {str(pk) for pk in suggestion.recommended_action_json.get("group_item_ids", [])}
    if project is None or project.plan_id != suggestion.plan_id:
        raise ValidationError("The project is gone already.")
    held = list(project.actions.select_related("node"))
    if not {str(action.pk) for action in held} <= grouped:
        raise ValidationError(f"Project “{project.name}” has other actions since, so it was kept.")
    named = actions_named(plan=suggestion.plan, actions=held)
    project_delete(project=project)
    return f"Project “{project.name}” removed; its actions have no project again: {named}."


def _repair_undo(suggestion: Suggestion, *, action_id: Any) -> str:
    action = (
        Action.objects.select_for_update(of=("self",))
        .select_related("node")
        .filter(pk=action_id, plan_id=suggestion.plan_id)
        .first()
    )
    if action is None:
        raise ValidationError("The planned repair is gone already.")
    if action.status != ActionStatus.PLANNED or action.completions.exists():
        raise ValidationError(f"“{action.title}” has changed since, so it was kept.")
    named = actions_named(plan=suggestion.plan, actions=[action])
    action.delete()
    return f"{named} removed; nothing is planned for the component again."


def _move_undo(suggestion: Suggestion, *, moved: Any) -> str:
    """A budget peak's Undo: the moved actions go back to the year they left, unless one of
    them has changed since (moved again, done, cancelled, deleted)."""
    try:
        year, target = int(moved["year"]), int(moved["target_year"])
        action_ids = sorted(str(pk) for pk in moved["action_ids"])
    except (KeyError, TypeError, ValueError):
        raise ValidationError("This can no longer be undone.") from None
    actions = list(
        Action.objects.select_for_update(of=("self",))
        .select_related("node", "project")
        .filter(
            plan_id=suggestion.plan_id,
            pk__in=action_ids,
            status=ActionStatus.PLANNED,
            planned_year=target,
            interval_years__isnull=True,
        )
        .order_by("id")
    )
    if sorted(str(action.pk) for action in actions) != action_ids:
        raise ValidationError(
            f"Some of the moved actions have changed since, so all were kept in {target}."
        )
    actions_move(actions=actions, year=year)
    return f"{moved_text(plan=suggestion.plan, actions=actions, year=year, back=True)}."


def _fix_undo(suggestion: Suggestion, *, before: Any) -> str:
    """A one-click fix's Undo: the action gets back the cost or year the fix replaced, unless
    it no longer has the reference the fix set."""
    found = deviation_fix(suggestion)
    if found is None:
        raise ValidationError("This can no longer be undone.")
    fix, reference = found
    action, _ = deviation_action_locked(suggestion=suggestion, fix=fix)
    if (action.estimated_cost if fix == "cost" else action.planned_year) != reference:
        raise ValidationError("The action has changed since the fix, so it was not undone.")
    action_update(
        action=action,
        node=action.node,
        title=action.title,
        kind=action.kind,
        planned_year=int(before) if fix == "year" else action.planned_year,
        estimated_cost=Decimal(str(before)) if fix == "cost" else action.estimated_cost,
        interval_years=action.interval_years,
        project=action.project,
    )
    cost = money_format(action.estimated_cost, suggestion.plan.currency)
    named = actions_named(plan=suggestion.plan, actions=[action])
    return f"Fix undone: {named} is back to {cost} in {action.planned_year}."

"""Writes on suggestions: apply, dismiss and restore. Each operation has one function here,
which every page goes through, and each publishes its change (events.py: webhooks).

Applying changes the plan's data as the suggestion recommends and, in the same transaction,
marks the suggestion `resolved` with resolution `applied`. The next sync then no longer wants
it (the cause is gone) and, since it is not open, leaves it resolved/applied. Should the cause
come back later (someone clears the code again), the sync reopens it (docs/design.md "Sync").

A deviation has two one-click fixes: set the action's cost to the reference
(`suggestion_apply_cost`) or move it to the due year (`suggestion_apply_due_year`). Editing the
action by hand instead leaves the suggestion open until the sync finds the cause gone
(resolution `auto`).

Dismissing is sticky (later syncs leave it dismissed); `suggestions_dismiss` dismisses several
at once with one reason. Restoring puts a dismissed suggestion back to open, where the sync
treats it like any open one: kept (and updated) while its cause lasts, resolved when it goes.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from planning.models import (
    Action,
    ActionStatus,
    Code,
    DismissReason,
    Plan,
    Project,
    Resolution,
    StructureNode,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.services import action_update, node_code_assign
from planning.suggestions.events import SuggestionChange, suggestion_changes_publish
from planning.suggestions.selectors import LIST_ORDER

# The column's length is the rule; the dismiss form reads it from here.
DISMISS_COMMENT_MAX: int = Suggestion._meta.get_field("dismiss_comment").max_length  # type: ignore[assignment]


def _lock_open(suggestion: Suggestion) -> Suggestion:
    # The plan first, as the sync takes it: a sync and an Apply wait for each other instead of
    # each holding a lock the other needs.
    Plan.objects.select_for_update().filter(pk=suggestion.plan_id).values_list("pk").first()
    locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
    if locked.status != SuggestionStatus.OPEN:
        raise ValidationError("This suggestion is no longer open.")
    return locked


def suggestions_changed(*, plan_id: Any) -> None:
    """Marks a write to the plan's suggestions (inside the writing transaction): the list's
    ETag changes with it."""
    Plan.objects.filter(pk=plan_id).update(suggestions_version=F("suggestions_version") + 1)


def _resolve_applied(suggestion: Suggestion) -> Suggestion:
    suggestions_changed(plan_id=suggestion.plan_id)
    now = timezone.now()
    suggestion.status = SuggestionStatus.RESOLVED
    suggestion.resolution = Resolution.APPLIED
    suggestion.resolved_at = now
    suggestion.updated_at = now
    suggestion.save(update_fields=["status", "resolution", "resolved_at", "updated_at"])
    suggestion_changes_publish(
        plan_id=suggestion.plan_id, changes=[(SuggestionChange.RESOLVED.value, suggestion.pk)]
    )
    return suggestion


@transaction.atomic
def suggestions_dismiss(
    *, plan: Plan, suggestion_ids: list[Any], user: Any, reason: str, comment: str = ""
) -> list[Suggestion]:
    """Dismisses these open suggestions of the plan for good (later syncs leave them
    dismissed), all with the same reason and comment, in one transaction. Ids that are not
    open suggestions of the plan (any more) are skipped; the dismissed ones are returned."""
    if reason not in DismissReason.values:
        raise ValidationError({"reason": "Choose a reason."})
    comment = comment.strip()
    if len(comment) > DISMISS_COMMENT_MAX:
        raise ValidationError({"comment": f"At most {DISMISS_COMMENT_MAX} characters."})
    Plan.objects.select_for_update().filter(pk=plan.pk).values_list("pk").first()
    open_ids = list(
        Suggestion.objects.select_for_update()
        .filter(plan=plan, pk__in=suggestion_ids, status=SuggestionStatus.OPEN)
        .values_list("pk", flat=True)
    )
    if not open_ids:
        return []
    suggestions_changed(plan_id=plan.pk)
    now = timezone.now()
    Suggestion.objects.filter(pk__in=open_ids).update(
        status=SuggestionStatus.DISMISSED,
        dismissed_at=now,
        dismissed_by=user,
        dismiss_reason=reason,
        dismiss_comment=comment,
        updated_at=now,
    )
    dismissed = list(Suggestion.objects.filter(pk__in=open_ids).order_by(*LIST_ORDER))
    suggestion_changes_publish(
        plan_id=plan.pk,
        changes=[(SuggestionChange.DISMISSED.value, suggestion.pk) for suggestion in dismissed],
    )
    return dismissed


def suggestion_dismiss(
    *, suggestion: Suggestion, user: Any, reason: str, comment: str = ""
) -> Suggestion:
    """Dismisses one open suggestion (`suggestions_dismiss` of one id)."""
    dismissed = suggestions_dismiss(
        plan=suggestion.plan,
        suggestion_ids=[suggestion.pk],
        user=user,
        reason=reason,
        comment=comment,
    )
    if not dismissed:
        raise ValidationError("This suggestion is no longer open.")
    return dismissed[0]


@transaction.atomic
def suggestion_restore(*, suggestion: Suggestion) -> Suggestion:
    """Puts a dismissed suggestion back to open; the dismissal's reason, comment, author and
    time are cleared. The next sync keeps it open while its cause lasts."""
    Plan.objects.select_for_update().filter(pk=suggestion.plan_id).values_list("pk").first()
    locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
    if locked.status != SuggestionStatus.DISMISSED:
        raise ValidationError("This suggestion is not dismissed.")
    suggestions_changed(plan_id=locked.plan_id)
    locked.status = SuggestionStatus.OPEN
    locked.dismissed_at = None
    locked.dismissed_by = None
    locked.dismiss_reason = ""
    locked.dismiss_comment = ""
    locked.updated_at = timezone.now()
    locked.save(
        update_fields=[
            "status",
            "dismissed_at",
            "dismissed_by",
            "dismiss_reason",
            "dismiss_comment",
            "updated_at",
        ]
    )
    suggestion_changes_publish(
        plan_id=locked.plan_id, changes=[(SuggestionChange.REOPENED.value, locked.pk)]
    )
    return locked


def deviation_fix(suggestion: Suggestion) -> tuple[str, Any] | None:
    """("cost", Decimal reference) or ("year", due year) of a deviation, from its recommended
    action; None for any other suggestion."""
    if suggestion.suggestion_type != SuggestionType.DEVIATION:
        return None
    reference = suggestion.recommended_action_json.get("reference", {})
    if suggestion.fingerprint.startswith("deviation:cost:") and "expected_cost" in reference:
        return "cost", Decimal(str(reference["expected_cost"]))
    if suggestion.fingerprint.startswith("deviation:timing:") and "due_year" in reference:
        return "year", int(reference["due_year"])
    return None


def _deviation_action(suggestion: Suggestion, fix: str) -> tuple[Action, Any]:
    found = deviation_fix(suggestion)
    if found is None or found[0] != fix:
        what = "cost" if fix == "cost" else "timing"
        raise ValidationError(f"Only a {what} deviation can be fixed this way.")
    action_ids = suggestion.recommended_action_json.get("action_ids", [])
    action = (
        # Only the action's row is locked: FOR UPDATE cannot lock the nullable project side.
        Action.objects.select_for_update(of=("self",))
        .select_related("node", "project", "plan")
        .filter(plan_id=suggestion.plan_id, pk__in=action_ids[:1], status=ActionStatus.PLANNED)
        .first()
    )
    if action is None:
        raise ValidationError("The action has changed since; reload the page.")
    return action, found[1]


@transaction.atomic
def suggestion_apply_cost(*, suggestion: Suggestion) -> tuple[Suggestion, Action]:
    """Sets the deviating action's estimated cost to the reference (unit cost x quantity) and
    resolves the suggestion (`applied`), in one transaction."""
    suggestion = _lock_open(suggestion)
    action, reference = _deviation_action(suggestion, "cost")
    action_update(
        action=action,
        node=action.node,
        title=action.title,
        kind=action.kind,
        planned_year=action.planned_year,
        estimated_cost=reference,
        project=action.project,
    )
    return _resolve_applied(suggestion), action


@transaction.atomic
def suggestion_apply_due_year(*, suggestion: Suggestion) -> tuple[Suggestion, Action]:
    """Moves the deviating action to the year its replacement is due (install year + service
    life) and resolves the suggestion (`applied`), in one transaction."""
    suggestion = _lock_open(suggestion)
    action, due_year = _deviation_action(suggestion, "year")
    action_update(
        action=action,
        node=action.node,
        title=action.title,
        kind=action.kind,
        planned_year=due_year,
        estimated_cost=action.estimated_cost,
        project=action.project,
    )
    return _resolve_applied(suggestion), action


@transaction.atomic
def suggestion_apply_code(*, suggestion: Suggestion, code_id: Any) -> Suggestion:
    """Assigns one of the prefilled codes to the suggestion's node (missing_code)."""
    suggestion = _lock_open(suggestion)
    if suggestion.suggestion_type != SuggestionType.MISSING_CODE:
        raise ValidationError("Only a missing-code suggestion assigns a code.")
    prefill = suggestion.recommended_action_json.get("prefill_code_ids", [])
    if str(code_id) not in prefill:
        raise ValidationError({"code": "Choose one of the proposed codes."})
    code = Code.objects.get(pk=code_id)
    node = StructureNode.objects.select_for_update().get(pk=suggestion.structure_node_id)
    if node.code_id is not None:
        # Someone assigned a code since the page was shown; never overwrite it silently.
        raise ValidationError(f"“{node.name}” has a code already; the suggestion is out of date.")
    node_code_assign(node=node, code=code)
    return _resolve_applied(suggestion)


@transaction.atomic
def suggestion_apply_project(*, suggestion: Suggestion) -> tuple[Suggestion, Project]:
    """Creates the proposed project and puts the grouped actions in it (project_grouping).

    Only actions that are still planned, still without a project and still in this plan are
    moved; if fewer than two are left the grouping no longer makes sense and nothing is done.
    """
    suggestion = _lock_open(suggestion)
    if suggestion.suggestion_type != SuggestionType.PROJECT_GROUPING:
        raise ValidationError("Only a project-grouping suggestion creates a project.")
    recommended = suggestion.recommended_action_json
    actions = Action.objects.select_for_update().filter(
        plan_id=suggestion.plan_id,
        pk__in=recommended.get("group_item_ids", []),
        status=ActionStatus.PLANNED,
        project__isnull=True,
    )
    action_ids = list(actions.values_list("pk", flat=True))
    if len(action_ids) < 2:
        raise ValidationError("The grouped actions have changed; reload the page.")
    project = Project.objects.create(
        plan_id=suggestion.plan_id,
        name=str(recommended["proposed_project_name"])[:200],
        year=int(recommended["year"]),
    )
    Action.objects.filter(pk__in=action_ids).update(project=project, updated_at=timezone.now())
    return _resolve_applied(suggestion), project

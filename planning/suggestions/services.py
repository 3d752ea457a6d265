"""Writes on suggestions: apply and dismiss (each publishes its change, see events.py).

Applying changes the plan's data as the suggestion recommends and, in the same transaction,
marks the suggestion `resolved` with resolution `applied`. The next sync then no longer wants
it (the cause is gone) and, since it is not open, leaves it resolved/applied. Should the cause
come back later (someone clears the code again), the sync reopens it, as DESIGN.md "Sync" says.

A deviation is applied by reviewing the action in the filtered actions view, which is a link,
not a write: the suggestion stays open until the action is corrected, when the sync resolves it
(`auto`), or until it is dismissed.
"""

from __future__ import annotations

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
from planning.services import node_code_assign
from planning.suggestions.events import SuggestionChange, suggestion_changes_publish

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
def suggestion_dismiss(
    *, suggestion: Suggestion, user: Any, reason: str, comment: str = ""
) -> Suggestion:
    """Dismisses an open suggestion for good: later syncs leave it dismissed."""
    if reason not in DismissReason.values:
        raise ValidationError({"reason": "Choose a reason."})
    comment = comment.strip()
    if len(comment) > DISMISS_COMMENT_MAX:
        raise ValidationError({"comment": f"At most {DISMISS_COMMENT_MAX} characters."})
    suggestion = _lock_open(suggestion)
    suggestions_changed(plan_id=suggestion.plan_id)
    now = timezone.now()
    suggestion.status = SuggestionStatus.DISMISSED
    suggestion.dismissed_at = now
    suggestion.dismissed_by = user
    suggestion.dismiss_reason = reason
    suggestion.dismiss_comment = comment
    suggestion.updated_at = now
    suggestion.save(
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
        plan_id=suggestion.plan_id, changes=[(SuggestionChange.DISMISSED.value, suggestion.pk)]
    )
    return suggestion


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

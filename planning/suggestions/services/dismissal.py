"""Dismiss and Restore: writes that change only suggestions, each one `plan_write`
(planning.core.writes) that records its suggestion changes there (the version and the signal,
the webhooks' outbox, follow), queuing no sync: no data of the plan changed.

Dismissing is sticky (later syncs leave it dismissed); `suggestions_dismiss` dismisses one or
several at once with one reason, and `suggestions_dismissal_undo` opens those again. Restoring
puts a dismissed suggestion back to open, where the sync treats it like any open one: kept (and
updated) while its cause lasts, resolved when it goes.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from django.core.exceptions import ValidationError
from django.utils import timezone

from planning.core.writes import plan_write
from planning.models import DismissReason, Plan, Suggestion, SuggestionStatus
from planning.suggestions.events import SuggestionChange
from planning.suggestions.selectors import LIST_ORDER

# The column's length is the rule; the dismiss form reads it from here.
DISMISS_COMMENT_MAX: int = Suggestion._meta.get_field("dismiss_comment").max_length  # type: ignore[assignment]


def suggestions_dismiss(
    *, plan: Plan, suggestion_ids: list[Any], user: Any, reason: str, comment: str = ""
) -> list[Suggestion]:
    """Dismisses these open suggestions of the plan for good (later syncs leave them
    dismissed), all with the same reason and comment, in one transaction: the one dismiss,
    for one card or many. Ids that are not open suggestions of the plan (any more) are
    skipped; the dismissed ones are returned, in list order. No sync is queued: no data of
    the plan changed."""
    if reason not in DismissReason.values:
        raise ValidationError({"reason": "Choose a reason."})
    comment = comment.strip()
    if len(comment) > DISMISS_COMMENT_MAX:
        raise ValidationError({"comment": f"At most {DISMISS_COMMENT_MAX} characters."})
    with plan_write(plan_id=plan.pk, data_changed=False) as write:
        open_ids = list(
            Suggestion.objects.select_for_update()
            .filter(plan=plan, pk__in=suggestion_ids, status=SuggestionStatus.OPEN)
            .values_list("pk", flat=True)
        )
        if not open_ids:
            return []
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
        write.suggestions_changed(
            (SuggestionChange.DISMISSED, suggestion.pk) for suggestion in dismissed
        )
    return dismissed


def suggestion_restore(*, suggestion: Suggestion) -> Suggestion:
    """Puts a dismissed suggestion back to open; the dismissal's reason, comment, author and
    time are cleared. The next sync keeps it open while its cause lasts. No sync is queued: no
    data of the plan changed."""
    with plan_write(plan_id=suggestion.plan_id, data_changed=False) as write:
        locked = Suggestion.objects.select_for_update().get(pk=suggestion.pk)
        if locked.status != SuggestionStatus.DISMISSED:
            raise ValidationError("This suggestion is not dismissed.")
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
        write.suggestions_changed([(SuggestionChange.REOPENED, locked.pk)])
    return locked


def suggestions_dismissal_undo(*, plan: Plan, dismissed_at: datetime, user: Any) -> int:
    """The Undo of one dismiss of several suggestions: those of the plan that `user` dismissed
    at `dismissed_at` (one `suggestions_dismiss` gives them all the same moment) and that are
    still dismissed are open again, as Restore leaves them. Returns how many."""
    with plan_write(plan_id=plan.pk, data_changed=False) as write:
        restored = list(
            Suggestion.objects.select_for_update()
            .filter(
                plan=plan,
                status=SuggestionStatus.DISMISSED,
                dismissed_at=dismissed_at,
                dismissed_by=user,
            )
            .values_list("pk", flat=True)
        )
        Suggestion.objects.filter(pk__in=restored).update(
            status=SuggestionStatus.OPEN,
            dismissed_at=None,
            dismissed_by=None,
            dismiss_reason="",
            dismiss_comment="",
            updated_at=timezone.now(),
        )
        write.suggestions_changed((SuggestionChange.REOPENED, pk) for pk in restored)
    return len(restored)

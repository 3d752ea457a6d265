"""What the demo plan has been through by the time `seed_demo` hands it over, so every tab and
every section of docs/integrators.md shows something on a fresh `make run` (the seed command
builds the plan itself: platform_api/management/commands/seed_demo.py)."""

from __future__ import annotations

from decimal import Decimal

from django.utils import timezone

from accounts.actor import Actor, acting
from accounts.models import User
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    DismissReason,
    Plan,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.services.actions import action_mark_done, action_update
from planning.records.adoption import plan_adopt
from planning.suggestions.services.apply import suggestion_apply_project
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.suggestions.sync.run import suggestion_sync

DEMO_VERSION_NAME = "Adopted by the board"
DEMO_DISMISS_COMMENT = "Planned with the facade contract"


def demo_plan_record(*, plan: Plan, user: User) -> list[str]:
    """The plan's record at work, so every tab and every section of docs/integrators.md shows
    something on a fresh `make run`: its suggestions synced, a version adopted (the Versions
    tab, the API's versions), then, as the demo planner (the History tab), a grouping applied
    as a project (Projects), a suggestion dismissed (the Dismissed list, the events), work done
    on a few repairs with their actual cost (Follow-up) and one replacement moved a year on, so
    the plan now differs from the adopted version. Returns what it did, in words."""
    suggestion_sync(plan=plan)
    year = timezone.localdate().year
    version = plan_adopt(
        plan=plan,
        name=f"{DEMO_VERSION_NAME} {year}",
        note="The ten-year plan as the board adopted it.",
        by=user,
    )
    done: list[str] = [f"Adopted version {version.number} “{version.name}”."]
    with acting(Actor.user(user)):
        grouping = (
            plan.suggestions.filter(
                status=SuggestionStatus.OPEN, suggestion_type=SuggestionType.PROJECT_GROUPING
            )
            .order_by("created_at", "id")
            .first()
        )
        if grouping is not None:
            _suggestion, project = suggestion_apply_project(suggestion=grouping)
            done.append(f"Project “{project.name}” made from a grouping suggestion.")
        missing = (
            plan.suggestions.filter(
                status=SuggestionStatus.OPEN, suggestion_type=SuggestionType.MISSING_CODE
            )
            .order_by("created_at", "id")
            .first()
        )
        if missing is not None:
            suggestions_dismiss(
                plan=plan,
                suggestion_ids=[missing.pk],
                user=user,
                reason=DismissReason.PLANNED_ELSEWHERE,
                comment=DEMO_DISMISS_COMMENT,
            )
        repairs = Action.objects.filter(
            plan=plan, kind=ActionKind.REPAIR, status=ActionStatus.PLANNED, planned_year=year
        ).order_by("title", "id")[:4]
        for number, repair in enumerate(repairs):
            # Two came in under the estimate, one over it, one without a recorded cost.
            share = (Decimal("0.85"), Decimal("0.95"), Decimal("1.30"), None)[number]
            action_mark_done(
                action=repair,
                by=user,
                actual_cost=(repair.estimated_cost * share).quantize(Decimal(1))
                if share is not None
                else None,
            )
        moved = (
            Action.objects.filter(
                plan=plan,
                kind=ActionKind.REPLACEMENT,
                status=ActionStatus.PLANNED,
                planned_year=year + 2,
                project__isnull=True,
            )
            .select_related("node")
            .order_by("title", "id")
            .first()
        )
        if moved is not None:
            action_update(
                action=moved,
                node=moved.node,
                title=moved.title,
                kind=moved.kind,
                planned_year=moved.planned_year + 1,
                estimated_cost=moved.estimated_cost,
                interval_years=moved.interval_years,
                project=moved.project,
            )
    done.append(
        f"Recorded work done on {len(repairs)} repairs, dismissed a suggestion and moved an "
        "action since the adopted version."
    )
    return done

"""Whether a plan's sync is due, for every page, export and list that labels its answer with the
plan's `data_version` (docs/subsystems/sync.md "Skipped when nothing is due"): most calls find
nothing to do and learn it with one read, without the plan's row lock."""

from __future__ import annotations

from django.db.models import Exists, OuterRef, QuerySet

from planning.models import Plan, PlanChange
from planning.suggestions.sync.derive import rules_digest_now
from planning.suggestions.sync.run import suggestion_sync


def synced_data_version(*, plan: Plan) -> int:
    """The plan's committed `data_version` once its suggestions are in line with its data: what
    a page, an export or a list labels its answer with (ETags, cached figures).

    Most calls find nothing to do, and the sync would take the plan's row lock and a
    transaction to learn it; one read (docs/subsystems/sync.md "Skipped when nothing is due")
    tells first whether a sync is due: the plan was synced, under today's rules and year, and
    no change is pending. A change that commits just after that read is taken in by the next
    call, as if this one had come a moment earlier; the version read with it labels exactly the
    data the stored suggestions were derived from. A plan read with `with_sync_state` (in this
    request) already holds that read."""
    if hasattr(plan, "changes_pending"):
        version, last_synced_at = plan.data_version, plan.last_synced_at
        rules_used, pending = plan.suggestion_rules, plan.changes_pending
        budget, budget_used = plan.annual_budget, plan.suggestions_budget
    else:
        version, last_synced_at, rules_used, pending, budget, budget_used = (
            Plan.objects.filter(pk=plan.pk)
            .annotate(changes_pending=Exists(PlanChange.objects.filter(plan_id=OuterRef("pk"))))
            .values_list(
                "data_version",
                "last_synced_at",
                "suggestion_rules",
                "changes_pending",
                "annual_budget",
                "suggestions_budget",
            )
            .get()
        )
    if (
        last_synced_at is not None
        and not pending
        and budget == budget_used
        and rules_used == rules_digest_now()
    ):
        return int(version)
    suggestion_sync(plan=plan)
    return int(Plan.objects.filter(pk=plan.pk).values_list("data_version", flat=True).get())


def with_sync_state(plans: QuerySet[Plan]) -> QuerySet[Plan]:
    """`plans` with `changes_pending`: whether a change waits for the sync (synced_data_version
    reads it with the plan's version, last sync and rules digest)."""
    return plans.annotate(changes_pending=Exists(PlanChange.objects.filter(plan_id=OuterRef("pk"))))

"""Background jobs of the planning app (run by `manage.py db_worker`)."""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django_tasks import task

from planning.models import Plan
from planning.suggestions.sync import suggestion_sync


@task()
def plan_sync(*, plan_id: str) -> None:
    """Brings a plan's suggestions up to date (nothing to do if they already are)."""
    plan = Plan.objects.filter(pk=plan_id).first()
    if plan is not None:  # deleted meanwhile
        suggestion_sync(plan=plan)


def plan_sync_soon(*, plan: Plan) -> None:
    """Enqueues a sync of the plan `SYNC_AFTER_CHANGE_SECONDS` after the current transaction
    commits (a rolled-back change enqueues nothing)."""
    run_after = timezone.now() + timedelta(seconds=settings.SYNC_AFTER_CHANGE_SECONDS)
    plan_id = str(plan.pk)
    transaction.on_commit(lambda: plan_sync.using(run_after=run_after).enqueue(plan_id=plan_id))

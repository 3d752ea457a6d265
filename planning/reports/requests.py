"""Asking for a board report: a PlanReport row, its job queued for a worker on commit
(planning.tasks), at most REPORTS_QUEUED_MAX unfinished ones per account, counted under the
account's row lock (docs/subsystems/board-report.md)."""

from __future__ import annotations

from django.conf import settings
from django.db import transaction

from accounts.models import User
from accounts.services import account_lock
from planning.models import Plan, PlanReport
from planning.reports.jobs import UNFINISHED
from planning.tasks import plan_report_enqueue


class ReportsQueueFull(Exception):
    """The account has as many unfinished reports as it may; nothing was queued."""

    def __init__(self, *, limit: int) -> None:
        self.limit = limit
        super().__init__(
            f"You already have {limit} reports waiting or being made, the most one account may "
            "have at once. Ask again once one of them is ready."
        )


def plan_report_request(*, plan: Plan, user: User, prices: str) -> PlanReport:
    """A new report of `plan` in `prices`, queued for a worker once the transaction commits.
    Raises ReportsQueueFull when the account has REPORTS_QUEUED_MAX unfinished reports."""
    with transaction.atomic():
        account_lock(user=user)
        unfinished = PlanReport.objects.filter(requested_by=user, status__in=UNFINISHED)
        if unfinished.count() >= settings.REPORTS_QUEUED_MAX:
            raise ReportsQueueFull(limit=settings.REPORTS_QUEUED_MAX)
        report = PlanReport.objects.create(plan=plan, requested_by=user, prices=prices)
        plan_report_enqueue(report_id=report.pk)
    return report

from __future__ import annotations

from accounts.models import User
from planning.models import Action, Plan, PlanMembership, PlanNumberCounter, StructureNode


def db_counts() -> tuple[int | None, ...]:
    """What a write that should not happen would change: the row counts of accounts, plans,
    nodes, actions and memberships, and the last plan number handed out (None without the
    counter row, which a transactional test may have emptied)."""
    return (
        User.objects.count(),
        Plan.objects.count(),
        StructureNode.objects.count(),
        Action.objects.count(),
        PlanMembership.objects.count(),
        PlanNumberCounter.objects.filter(pk=1).values_list("last_number", flat=True).first(),
    )

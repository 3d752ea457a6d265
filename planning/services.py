"""Writes of the planning domain."""

from __future__ import annotations

from django.db import transaction
from django.db.models import F

from accounts.models import User
from planning.models import Plan, PlanMembership, PlanNumberCounter, PlanRole


@transaction.atomic
def plan_number_allocate() -> int:
    """The next plan number: sequential, never reused, safe under concurrent creation.

    The UPDATE takes the counter row's lock until the surrounding transaction ends, so a
    concurrent creator waits for it and then reads the next value; a rolled-back creation
    gives its number back (no gap), a deleted plan does not (no reuse).
    """
    updated = PlanNumberCounter.objects.filter(pk=1).update(last_number=F("last_number") + 1)
    if not updated:  # the row is made by a migration; recreate it if someone deleted it
        PlanNumberCounter.objects.create(pk=1, last_number=1)
        return 1
    return PlanNumberCounter.objects.values_list("last_number", flat=True).get(pk=1)


@transaction.atomic
def plan_create(*, owner: User, name: str, description: str = "") -> Plan:
    """A new plan with the next number; its creator becomes its owner."""
    plan = Plan.objects.create(number=plan_number_allocate(), name=name, description=description)
    PlanMembership.objects.create(plan=plan, user=owner, role=PlanRole.OWNER)
    return plan

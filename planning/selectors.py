"""Reads of the planning domain. Every way to a plan goes through `plan_get_for_user`, so a
plan the user may not see is indistinguishable from one that does not exist."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from planning.models import MAX_PLAN_NUMBER, Plan, PlanMembership


def plan_list_for_user(*, user: Any) -> QuerySet[Plan]:
    if not user.is_authenticated:
        return Plan.objects.none()
    return Plan.objects.filter(memberships__user=user).order_by("number")


def plan_membership_get(*, user: Any, number: int) -> PlanMembership:
    """The user's membership of plan `number` (with the plan); Http404 when there is none."""
    if not user.is_authenticated or not 1 <= number <= MAX_PLAN_NUMBER:
        raise Http404("No such plan")
    try:
        return PlanMembership.objects.select_related("plan").get(plan__number=number, user=user)
    except PlanMembership.DoesNotExist:
        raise Http404("No such plan") from None


def plan_get_for_user(*, user: Any, number: int) -> Plan:
    return plan_membership_get(user=user, number=number).plan

"""Reads of the planning domain. Every way to a plan goes through `plan_get_for_user`, so a
plan the user may not see is indistinguishable from one that does not exist."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Count, OuterRef, Q, QuerySet, Subquery, Sum
from django.db.models.functions import Coalesce
from django.http import Http404

from planning.models import (
    MAX_PLAN_NUMBER,
    Action,
    ActionStatus,
    Code,
    Plan,
    PlanMembership,
    Project,
    StructureNode,
)
from planning.tree import node_subtree


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


def plan_memberships_for_user(*, user: Any) -> QuerySet[PlanMembership]:
    """The user's memberships with their plans, each plan annotated with `node_count` and
    `action_count` (subqueries, so the two counts do not multiply each other)."""
    if not user.is_authenticated:
        return PlanMembership.objects.none()
    node_count = (
        StructureNode.objects.filter(plan=OuterRef("plan"))
        .order_by()
        .values("plan")
        .annotate(total=Count("id"))
        .values("total")
    )
    action_count = (
        Action.objects.filter(plan=OuterRef("plan"))
        .order_by()
        .values("plan")
        .annotate(total=Count("id"))
        .values("total")
    )
    return (
        PlanMembership.objects.filter(user=user)
        .select_related("plan")
        .annotate(
            node_count=Coalesce(Subquery(node_count), 0),
            action_count=Coalesce(Subquery(action_count), 0),
        )
        .order_by("plan__number")
    )


def plan_members(*, plan: Plan) -> QuerySet[PlanMembership]:
    return PlanMembership.objects.filter(plan=plan).select_related("user").order_by("user__email")


def plan_membership_by_id(*, plan: Plan, membership_id: int) -> PlanMembership:
    try:
        return PlanMembership.objects.select_related("user", "plan").get(
            plan=plan, pk=membership_id
        )
    except PlanMembership.DoesNotExist:
        raise Http404("No such member") from None


# --- structure --------------------------------------------------------------------------------


def node_get(*, plan: Plan, node_id: Any) -> StructureNode:
    try:
        return StructureNode.objects.select_related("code", "parent", "plan").get(
            plan=plan, pk=node_id
        )
    except (StructureNode.DoesNotExist, ValidationError, ValueError):
        raise Http404("No such node") from None


# --- actions ----------------------------------------------------------------------------------


def action_list(
    *, plan: Plan, node_id: Any | None = None, year: int | None = None
) -> QuerySet[Action]:
    """The plan's actions, optionally only those in a node's subtree and/or one year."""
    actions = Action.objects.filter(plan=plan).select_related("node", "project")
    if node_id is not None:
        actions = actions.filter(node_id__in=node_subtree(node_id=node_id).values("id"))
    if year is not None:
        actions = actions.filter(planned_year=year)
    return actions.order_by("planned_year", "title", "id")


def action_cost_total(*, actions: QuerySet[Action]) -> Decimal:
    """The estimated cost of these actions, cancelled ones left out."""
    total = actions.exclude(status=ActionStatus.CANCELLED).aggregate(total=Sum("estimated_cost"))
    return (total["total"] or Decimal(0)).quantize(Decimal("0.01"))


def action_get(*, plan: Plan, action_id: Any) -> Action:
    try:
        return Action.objects.select_related("node", "project", "plan").get(plan=plan, pk=action_id)
    except (Action.DoesNotExist, ValidationError, ValueError):
        raise Http404("No such action") from None


def plan_projects(*, plan: Plan) -> QuerySet[Project]:
    return Project.objects.filter(plan=plan).order_by("year", "name")


# --- code catalog -----------------------------------------------------------------------------


def code_search(*, query: str = "", limit: int = 50) -> QuerySet[Code]:
    """Catalog codes whose code, name or keywords contain every word of the query."""
    codes = Code.objects.all()
    for word in (query or "").split()[:10]:
        codes = codes.filter(
            Q(code__icontains=word) | Q(name__icontains=word) | Q(keywords__icontains=word)
        )
    return codes.order_by("code")[:limit]


def code_get_by_code(*, code: str) -> Code | None:
    return Code.objects.filter(code=(code or "").strip()).first()


# --- projects ---------------------------------------------------------------------------------


def project_list(*, plan: Plan) -> QuerySet[Project]:
    """The plan's projects with `action_count` and `total` (cancelled actions left out)."""
    live = ~Q(actions__status=ActionStatus.CANCELLED)
    return (
        Project.objects.filter(plan=plan)
        .annotate(
            action_count=Count("actions"),
            total=Coalesce(Sum("actions__estimated_cost", filter=live), Decimal(0)),
        )
        .order_by("year", "name", "id")
    )


def project_get(*, plan: Plan, project_id: Any) -> Project:
    try:
        return Project.objects.get(plan=plan, pk=project_id)
    except (Project.DoesNotExist, ValidationError, ValueError):
        raise Http404("No such project") from None

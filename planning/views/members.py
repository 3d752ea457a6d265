"""The members page: owners add members, change their roles and remove them."""

from __future__ import annotations

import math

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from api.throttling import UserThrottle
from planning import selectors, services
from planning.access import plan_member_required
from planning.form_parts import form_submit
from planning.forms import MemberAddForm, MemberRoleForm
from planning.models import PlanMembership, PlanRole


def _render_members(
    request: HttpRequest,
    membership: PlanMembership,
    *,
    add_form: MemberAddForm | None = None,
    role_errors: dict[int, list[str]] | None = None,
) -> HttpResponse:
    members = list(selectors.plan_members(plan=membership.plan))
    return render(
        request,
        "planning/members.html",
        {
            "plan": membership.plan,
            "membership": membership,
            "is_owner": membership.role == PlanRole.OWNER,
            "rows": [
                (member, MemberRoleForm(prefix=f"m{member.pk}", initial={"role": member.role}))
                for member in members
            ],
            "role_errors": role_errors or {},
            "add_form": add_form or MemberAddForm(prefix="add"),
        },
    )


class MemberAddThrottle(UserThrottle):
    """The add form answers whether an email has an account; per owner, it answers only so
    often (MAINTPLAN_THROTTLE_RATES["member_add"]), whatever the plan."""

    scope = "member_add"


@plan_member_required(owner=True)
@require_http_methods(["GET", "POST"])
def members(request: HttpRequest, membership: PlanMembership) -> HttpResponse:
    if request.method != "POST":
        return _render_members(request, membership)
    form = MemberAddForm(request.POST, prefix="add")
    throttle = MemberAddThrottle()
    if not throttle.allow_request(request, None):  # type: ignore[arg-type]
        minutes = max(1, math.ceil((throttle.wait() or 60) / 60))
        form.is_valid()  # bound, so the page shows what was typed
        message = f"Too many members added or looked up. Try again in {minutes} minutes."
        form.add_error(None, message)
        response = _render_members(request, membership, add_form=form)
        response.status_code = 429
        response["Retry-After"] = str(minutes * 60)
        return response
    added = form_submit(form, lambda data: services.membership_add(plan=membership.plan, **data))
    if added:
        messages.success(request, f"{added.user.email} added as {added.get_role_display()}.")
        return redirect("planning:members", number=membership.plan.number)
    return _render_members(request, membership, add_form=form)


@plan_member_required(owner=True)
@require_POST
def member_role_set(
    request: HttpRequest, membership: PlanMembership, membership_id: int
) -> HttpResponse:
    target = selectors.plan_membership_by_id(plan=membership.plan, membership_id=membership_id)
    form = MemberRoleForm(request.POST, prefix=f"m{target.pk}")
    if form_submit(form, lambda data: services.membership_role_set(membership=target, **data)):
        messages.success(request, f"{target.user.email} is now {target.get_role_display()}.")
        return redirect("planning:members", number=membership.plan.number)
    errors = [str(message) for messages_ in form.errors.values() for message in messages_]
    return _render_members(request, membership, role_errors={target.pk: errors})


@plan_member_required(owner=True)
@require_POST
def member_remove(
    request: HttpRequest, membership: PlanMembership, membership_id: int
) -> HttpResponse:
    target = selectors.plan_membership_by_id(plan=membership.plan, membership_id=membership_id)
    try:
        services.membership_remove(membership=target)
    except ValidationError as error:
        return _render_members(request, membership, role_errors={target.pk: error.messages})
    messages.success(request, f"{target.user.email} removed from the plan.")
    if target.pk == membership.pk:  # an owner who left no longer sees the plan
        return redirect("planning:plan_list")
    return redirect("planning:members", number=membership.plan.number)

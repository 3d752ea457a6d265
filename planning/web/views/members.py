"""The plan's People tab: who reaches the plan through its organisation (a link to the
organisation's members) and its guests, whom the plan's owners (and the organisation's owners and
admins) add, change and remove."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from organisations.limits import invite_wait_minutes, too_many_invitations
from planning.core.access import PlanAccess
from planning.plans import selectors
from planning.plans.services import grants
from planning.web.access import plan_member_required, request_user
from planning.web.forms.fields import form_submit
from planning.web.forms.members import MemberAddForm, MemberRoleForm


def _render_members(
    request: HttpRequest,
    access: PlanAccess,
    *,
    add_form: MemberAddForm | None = None,
    role_errors: dict[int, list[str]] | None = None,
) -> HttpResponse:
    members = list(selectors.plan_guests(plan=access.plan))
    return render(
        request,
        "planning/members.html",
        {
            "plan": access.plan,
            "access": access,
            "is_owner": access.can_manage,
            "rows": [
                (member, MemberRoleForm(prefix=f"m{member.pk}", initial={"role": member.role}))
                for member in members
            ],
            "role_errors": role_errors or {},
            "add_form": add_form or MemberAddForm(prefix="add"),
        },
    )


@plan_member_required(owner=True)
@require_http_methods(["GET", "POST"])
def members(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """The invite form answers the same whatever the email (organisations.invitations)."""
    if request.method != "POST":
        return _render_members(request, access)
    form = MemberAddForm(request.POST, prefix="add")
    if not form.is_valid():
        return _render_members(request, access, add_form=form)
    if (minutes := invite_wait_minutes(request)) is not None:
        form.add_error(None, too_many_invitations(minutes))
        response = _render_members(request, access, add_form=form)
        response.status_code = 429
        response["Retry-After"] = str(minutes * 60)
        return response
    invitation = grants.guest_invite(
        plan=access.plan,
        email=form.cleaned_data["email"],
        role=form.cleaned_data["role"],
        invited_by=request_user(request),
    )
    messages.success(
        request,
        f"Invitation sent to {invitation.email} as {invitation.grant_role} of this plan. The "
        "link works once, for 7 days.",
    )
    return redirect("planning:members", number=access.plan.number)


@plan_member_required(owner=True)
@require_POST
def member_role_set(request: HttpRequest, access: PlanAccess, membership_id: int) -> HttpResponse:
    target = selectors.plan_membership_by_id(plan=access.plan, membership_id=membership_id)
    form = MemberRoleForm(request.POST, prefix=f"m{target.pk}")
    if form_submit(form, lambda data: grants.membership_role_set(membership=target, **data)):
        messages.success(request, f"{target.user.email} is now {target.get_role_display()}.")
        return redirect("planning:members", number=access.plan.number)
    errors = [str(message) for messages_ in form.errors.values() for message in messages_]
    return _render_members(request, access, role_errors={target.pk: errors})


@plan_member_required(owner=True)
@require_POST
def member_remove(request: HttpRequest, access: PlanAccess, membership_id: int) -> HttpResponse:
    target = selectors.plan_membership_by_id(plan=access.plan, membership_id=membership_id)
    try:
        grants.membership_remove(membership=target)
    except ValidationError as error:
        return _render_members(request, access, role_errors={target.pk: error.messages})
    messages.success(request, f"{target.user.email} removed from the plan.")
    if target.user_id == request.user.pk:  # a guest who left may no longer see the plan
        return redirect("planning:plan_list")
    return redirect("planning:members", number=access.plan.number)

"""The organisation pages: my organisations (and a new one), members (roles, removal,
leaving), invitations (send, resend, revoke) and accepting an invitation, with registration for
someone who has no account yet. docs/subsystems/organisations.md "Organisations"."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.debug import sensitive_post_parameters
from django.views.decorators.http import require_http_methods, require_POST

from accounts.forms import RegistrationForm
from accounts.models import User
from accounts.selectors import user_get_by_email
from accounts.services import user_register
from accounts.throttles import throttled_page
from api.throttling import ClientAddressThrottle
from organisations import selectors, services
from organisations.access import organisation_context, organisation_member_required
from organisations.current import organisation_enter
from organisations.forms import (
    InvitationForm,
    MemberRoleForm,
    OrganisationCreateForm,
    OrganisationRenameForm,
)
from organisations.invitations import (
    InvitationInvalid,
    InvitationSuperseded,
    invitation_accept,
    invitation_by_token,
    invitation_create,
    invitation_is_for,
    invitation_resend,
    invitation_revoke,
)
from organisations.limits import invite_wait_minutes, too_many_invitations
from organisations.models import Invitation, OrganisationMembership

# The session key of the invitation being accepted: its token leaves the address bar (and the
# Referer of the next page) at once.
INVITATION_SESSION_KEY = "invitation_token"
INVITATION_SENT = (
    "Invitation sent to {email}. The link works once, for 7 days. If they already belong to "
    "the organisation, accepting it keeps the higher of the two roles."
)


def _user(request: HttpRequest) -> User:
    assert isinstance(request.user, User)
    return request.user


# --- my organisations -------------------------------------------------------------------------


@login_required
@require_http_methods(["GET", "POST"])
def organisation_list(request: HttpRequest) -> HttpResponse:
    form = OrganisationCreateForm(request.POST or None, prefix="create")
    if request.method == "POST" and form.is_valid():
        try:
            organisation = services.organisation_create(
                name=form.cleaned_data["name"], owner=_user(request)
            )
        except ValidationError as error:
            form.add_error("name", error.messages[0])
        else:
            # The new organisation is the one in view: its (empty) plan list is where work
            # in it starts, and the top bar names it from now on.
            organisation_enter(request, organisation)
            messages.success(
                request,
                f"Organisation “{organisation.name}” created: you are working in it now. "
                "Create or import its first plan below, or invite people from Organisations.",
            )
            return redirect("planning:plan_list")
    return render(
        request,
        "organisations/organisation_list.html",
        {
            "memberships": selectors.organisations_of_user(user=request.user),
            "form": form,
        },
        status=200 if request.method == "GET" or form.is_valid() else 400,
    )


# --- members ----------------------------------------------------------------------------------


def _members_render(
    request: HttpRequest,
    membership: OrganisationMembership,
    *,
    errors: dict[int, list[str]] | None = None,
    rename_form: OrganisationRenameForm | None = None,
    status: int = 200,
) -> HttpResponse:
    organisation = membership.organisation
    context = organisation_context(membership, "members")
    members = list(selectors.organisation_members(organisation=organisation))
    context.update(
        {
            "rows": [
                (member, MemberRoleForm(prefix=f"m{member.pk}", initial={"role": member.role}))
                for member in members
            ],
            "errors": errors or {},
            "rename_form": rename_form
            or OrganisationRenameForm(prefix="rename", initial={"name": organisation.name}),
            "is_owner": membership.role == "owner",
        }
    )
    return render(request, "organisations/members.html", context, status=status)


@organisation_member_required()
@require_http_methods(["GET"])
def organisation_members_page(
    request: HttpRequest, membership: OrganisationMembership
) -> HttpResponse:
    return _members_render(request, membership)


@organisation_member_required(manage=True)
@require_POST
def member_role_set(
    request: HttpRequest, membership: OrganisationMembership, membership_id: int
) -> HttpResponse:
    target = selectors.membership_by_id(
        organisation=membership.organisation, membership_id=membership_id
    )
    form = MemberRoleForm(request.POST, prefix=f"m{target.pk}")
    if not form.is_valid():
        return _members_render(
            request, membership, errors={target.pk: ["Choose a role."]}, status=400
        )
    try:
        services.member_role_set(
            membership=target, role=form.cleaned_data["role"], by=_user(request)
        )
    except PermissionDenied as refused:
        return _members_render(request, membership, errors={target.pk: [str(refused)]}, status=403)
    except ValidationError as error:
        return _members_render(request, membership, errors={target.pk: error.messages}, status=400)
    messages.success(request, f"{target.user.email} is now {target.get_role_display()}.")
    return redirect("organisations:members", slug=membership.organisation.slug)


@organisation_member_required()
@require_POST
def member_remove(
    request: HttpRequest, membership: OrganisationMembership, membership_id: int
) -> HttpResponse:
    """Owners and admins remove a member; anyone may remove themselves (leave). An admin
    cannot remove an owner."""
    organisation = membership.organisation
    target = selectors.membership_by_id(organisation=organisation, membership_id=membership_id)
    leaving = target.pk == membership.pk
    try:
        services.member_remove(membership=target, by=_user(request))
    except PermissionDenied as refused:
        return _members_render(request, membership, errors={target.pk: [str(refused)]}, status=403)
    except ValidationError as error:
        return _members_render(request, membership, errors={target.pk: error.messages}, status=400)
    if leaving:
        messages.success(request, f"You left {organisation.name}.")
        return redirect("organisations:list")
    messages.success(request, f"{target.user.email} removed from {organisation.name}.")
    return redirect("organisations:members", slug=organisation.slug)


@organisation_member_required(manage=True)
@require_POST
def organisation_rename(request: HttpRequest, membership: OrganisationMembership) -> HttpResponse:
    if membership.role != "owner":
        return _members_render(request, membership, status=403)
    form = OrganisationRenameForm(request.POST, prefix="rename")
    if not form.is_valid():
        return _members_render(request, membership, rename_form=form, status=400)
    services.organisation_rename(
        organisation=membership.organisation, name=form.cleaned_data["name"]
    )
    messages.success(request, "Organisation renamed.")
    return redirect("organisations:members", slug=membership.organisation.slug)


# --- invitations ------------------------------------------------------------------------------


def _invitations_render(
    request: HttpRequest,
    membership: OrganisationMembership,
    form: InvitationForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = organisation_context(membership, "invitations")
    context.update(
        {
            "invitations": selectors.invitations_pending(organisation=membership.organisation),
            "form": form or InvitationForm(prefix="invite"),
        }
    )
    return render(request, "organisations/invitations.html", context, status=status)


@organisation_member_required(manage=True)
@require_http_methods(["GET", "POST"])
def invitations_page(request: HttpRequest, membership: OrganisationMembership) -> HttpResponse:
    """The answer is the same for every well-formed email: an invitation is sent whether or
    not the address has an account or is a member already."""
    if request.method != "POST":
        return _invitations_render(request, membership)
    form = InvitationForm(request.POST, prefix="invite")
    if not form.is_valid():
        return _invitations_render(request, membership, form, status=400)
    role = form.cleaned_data["role"]
    if role == "owner" and membership.role != "owner":
        form.add_error("role", "Only an owner can invite an owner.")
        return _invitations_render(request, membership, form, status=403)
    if (minutes := invite_wait_minutes(request)) is not None:
        form.add_error(None, too_many_invitations(minutes))
        response = _invitations_render(request, membership, form, status=429)
        response["Retry-After"] = str(minutes * 60)
        return response
    invitation, _token = invitation_create(
        organisation=membership.organisation,
        email=form.cleaned_data["email"],
        role=role,
        invited_by=_user(request),
    )
    messages.success(request, INVITATION_SENT.format(email=invitation.email))
    return redirect("organisations:invitations", slug=membership.organisation.slug)


@organisation_member_required(manage=True)
@require_POST
def invitation_resend_view(
    request: HttpRequest, membership: OrganisationMembership, invitation_id: Any
) -> HttpResponse:
    invitation = selectors.invitation_get(
        organisation=membership.organisation, invitation_id=invitation_id
    )
    if (minutes := invite_wait_minutes(request)) is not None:
        messages.error(request, too_many_invitations(minutes))
    else:
        try:
            invitation_resend(invitation=invitation, by=_user(request))
        except ValidationError as error:
            messages.error(request, error.messages[0])
        else:
            messages.success(request, f"Invitation sent again to {invitation.email}.")
    return redirect("organisations:invitations", slug=membership.organisation.slug)


@organisation_member_required(manage=True)
@require_POST
def invitation_revoke_view(
    request: HttpRequest, membership: OrganisationMembership, invitation_id: Any
) -> HttpResponse:
    invitation = selectors.invitation_get(
        organisation=membership.organisation, invitation_id=invitation_id
    )
    invitation_revoke(invitation=invitation)
    messages.success(
        request, f"Invitation of {invitation.email} revoked: its link no longer works."
    )
    return redirect("organisations:invitations", slug=membership.organisation.slug)


# --- accepting --------------------------------------------------------------------------------


def invitation_open(request: HttpRequest, token: str) -> HttpResponse:
    """The link of the email: keeps the token in the session and leaves the address bar."""
    request.session[INVITATION_SESSION_KEY] = token
    return redirect("invitation_accept")


def _invalid(request: HttpRequest, problem: InvitationInvalid | None = None) -> HttpResponse:
    """The one answer for a link that does not work (404), except for the link of an invitation
    sent again, which says so and when (410: the newer email holds the link that works)."""
    request.session.pop(INVITATION_SESSION_KEY, None)
    if isinstance(problem, InvitationSuperseded):
        newer = problem.newer
        context = {
            "newer": newer,
            "organisation": newer.organisation,
            "newer_pending": newer.is_pending,
        }
        return render(request, "organisations/invitation_superseded.html", context, status=410)
    return render(request, "organisations/invitation_invalid.html", status=404)


def _pending(request: HttpRequest) -> Invitation | InvitationInvalid:
    """The invitation of the session's link, or why it does not work."""
    try:
        return invitation_by_token(token=request.session.get(INVITATION_SESSION_KEY, ""))
    except InvitationInvalid as problem:
        return problem


@never_cache
@require_http_methods(["GET", "POST"])
def invitation_accept_view(request: HttpRequest) -> HttpResponse:
    invitation = _pending(request)
    if isinstance(invitation, InvitationInvalid):
        return _invalid(request, invitation)
    context: dict[str, Any] = {"invitation": invitation, "organisation": invitation.organisation}
    if not request.user.is_authenticated:
        context["has_account"] = user_get_by_email(email=invitation.email) is not None
        context["login_url"] = f"{reverse('accounts:login')}?next={reverse('invitation_accept')}"
        return render(request, "organisations/invitation_accept.html", context)
    user = _user(request)
    if not invitation_is_for(invitation=invitation, user=user):
        context["wrong_account"] = True
        return render(request, "organisations/invitation_accept.html", context, status=403)
    if request.method != "POST":
        return render(request, "organisations/invitation_accept.html", context)
    return _accepted(request, user)


def _accepted(request: HttpRequest, user: User) -> HttpResponse:
    token = request.session.pop(INVITATION_SESSION_KEY, "")
    try:
        invitation = invitation_accept(token=token, user=user)
    except InvitationInvalid as problem:
        return _invalid(request, problem)
    except ValidationError:
        return _invalid(request)
    organisation = invitation.organisation
    if invitation.plan_id is not None:
        messages.success(request, f"You are now a guest of a plan of {organisation.name}.")
        return redirect("planning:plan_list")
    # The inviting organisation is the one in view: its plans are what the invitation was for.
    organisation_enter(request, organisation)
    messages.success(request, f"Welcome to {organisation.name}: you are working in it now.")
    return redirect("planning:plan_list")


@sensitive_post_parameters("password")
@never_cache
@require_http_methods(["GET", "POST"])
def invitation_register(request: HttpRequest) -> HttpResponse:
    """Registration for an invited address: the email is the invitation's and cannot be
    changed (the form's field is read-only and the server uses the invitation's address)."""
    invitation = _pending(request)
    if isinstance(invitation, InvitationInvalid):
        return _invalid(request, invitation)
    if request.user.is_authenticated:
        return redirect("invitation_accept")
    data = None
    if request.method == "POST":
        if (limited := throttled_page(request, ClientAddressThrottle())) is not None:
            return limited
        data = {**request.POST.dict(), "email": invitation.email}
    form = RegistrationForm(data, initial={"email": invitation.email})
    form.fields["email"].disabled = True
    if data is not None and form.is_valid():
        try:
            user = user_register(
                email=invitation.email,
                password=form.cleaned_data["password"],
                name=form.cleaned_data["name"],
            )
        except ValidationError as error:
            form.add_error(None, error)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            return _accepted(request, user)
    return render(
        request,
        "organisations/invitation_register.html",
        {"form": form, "invitation": invitation, "organisation": invitation.organisation},
    )

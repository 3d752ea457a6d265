"""Writes of a plan's grants: its guests, invited by email (organisations.invitations), their
roles and their removal (docs/subsystems/organisations.md "Invitations")."""

from __future__ import annotations

from django.core.exceptions import ValidationError

from accounts.models import User
from organisations.invitations import InvitationInvalid, invitation_create
from organisations.models import Invitation
from planning.core.access import PLAN_ROLE_RANK
from planning.core.validation import validated
from planning.core.writes import plan_write
from planning.models import Plan, PlanMembership, PlanRole

# Grants take the plan's lock but change nothing the plan's suggestions or figures are derived
# from: no version, no signal, no sync (data_changed=False).


GUEST_ROLES = (PlanRole.EDITOR, PlanRole.VIEWER)


def guest_invite(*, plan: Plan, email: str, role: str, invited_by: User | None) -> Invitation:
    """Invites `email` as a guest of the plan (a grant with `role`, editor or viewer): the
    same answer whoever the address belongs to (organisations.invitations). Accepting it makes
    the grant (`grant_from_invitation`)."""
    if role not in GUEST_ROLES:
        raise ValidationError({"role": "Choose editor or viewer."})
    invitation, _token = invitation_create(
        organisation=plan.organisation,
        email=email,
        invited_by=invited_by,
        plan_id=plan.pk,
        grant_role=role,
    )
    return invitation


def grant_from_invitation(*, invitation: Invitation, user: User, **kwargs: object) -> None:
    """The receiver of `invitation_accepted` for a guest invitation: the grant, keeping the
    higher role when the person has one already; InvitationInvalid when the plan is gone or
    has moved to another organisation (the acceptance is undone)."""
    plan = (
        Plan.objects.filter(pk=invitation.plan_id, organisation=invitation.organisation).first()
        if invitation.plan_id is not None
        else None
    )
    if plan is None:
        raise InvitationInvalid
    role = PlanRole(invitation.grant_role)
    with plan_write(plan_id=plan.pk, data_changed=False):
        grant = PlanMembership.objects.filter(plan=plan, user=user).first()
        if grant is None:
            PlanMembership.objects.create(plan=plan, user=user, role=role)
        elif PLAN_ROLE_RANK[role] > PLAN_ROLE_RANK[PlanRole(grant.role)]:
            grant.role = role
            grant.save(update_fields=["role"])


def membership_role_set(*, membership: PlanMembership, role: str) -> PlanMembership:
    """Changes a grant's role. No last-owner rule: the plan's organisation always owns it."""
    validated(PlanMembership(role=role))
    with plan_write(plan_id=membership.plan_id, data_changed=False):
        membership.role = role
        membership.save(update_fields=["role"])
    return membership


def membership_remove(*, membership: PlanMembership) -> None:
    with plan_write(plan_id=membership.plan_id, data_changed=False):
        membership.delete()

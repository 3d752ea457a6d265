"""Invitations by email (docs/subsystems/organisations.md "Invitations").

The invite form answers the same whatever the email is: an invitation is made and mailed for
any address (known account, unknown one, an existing member), so the answer never tells who has
an account. Accepting checks the account's email against the invitation's; a member keeps the
higher of their role and the invited one. A guest invitation (`plan_id`) becomes a plan grant
through the `invitation_accepted` signal, which planning (the layer above) answers.
"""

from __future__ import annotations

import hashlib
import secrets
import uuid
from datetime import timedelta

from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.core.mail.backends.base import BaseEmailBackend
from django.db import transaction
from django.dispatch import Signal
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone

from accounts.models import User
from core.mail import site_link
from organisations.models import (
    INVITATION_DAYS,
    Invitation,
    Organisation,
    OrganisationMembership,
    OrganisationRole,
)

# Sent inside the accepting transaction for a guest invitation (`plan_id` set), with
# `invitation` and `user`; a receiver that cannot honour it raises InvitationInvalid, which
# undoes the acceptance.
invitation_accepted = Signal()

ROLE_RANK = {
    OrganisationRole.VIEWER: 1,
    OrganisationRole.PLANNER: 2,
    OrganisationRole.ADMIN: 3,
    OrganisationRole.OWNER: 4,
}


class InvitationInvalid(Exception):
    """Expired, used, revoked, unknown, or its plan is gone: one answer for all of them."""


class InvitationSuperseded(InvitationInvalid):
    """The link of an invitation that was sent again: `newer` is the latest invitation of the
    same address to the same thing (its link is the one that works, while it is pending). Only
    the holder of the old link learns this, and the link was mailed to that address."""

    def __init__(self, newer: Invitation) -> None:
        super().__init__()
        self.newer = newer


# How many re-sends `_replacement` follows to the latest (each one replaces the one before).
_REPLACEMENTS_FOLLOWED = 50


def _token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def invitation_link(token: str) -> str:
    return site_link(reverse("invitation_open", args=[token]))


def _send(invitation: Invitation, token: str, connection: BaseEmailBackend | None) -> None:
    context = {
        "invitation": invitation,
        "organisation": invitation.organisation,
        "link": invitation_link(token),
        "days": INVITATION_DAYS,
        "invited_by": invitation.invited_by,
    }
    send_mail(
        subject=f"You are invited to {invitation.organisation.name} on Maintplan",
        message=render_to_string("organisations/email/invitation.txt", context),
        from_email=None,
        recipient_list=[invitation.email],
        connection=connection,
    )


def _validated_email(email: str) -> str:
    email = (email or "").strip().lower()
    if not email or "@" not in email or len(email) > 254:
        raise ValidationError({"email": "Enter a valid email address."})
    return email


@transaction.atomic
def invitation_create(
    *,
    organisation: Organisation,
    email: str,
    role: str = "",
    invited_by: User | None,
    plan_id: uuid.UUID | None = None,
    grant_role: str = "",
    send: bool = True,
    connection: BaseEmailBackend | None = None,
) -> tuple[Invitation, str]:
    """Invites `email` (to the organisation with `role`, or as a guest of plan `plan_id` with
    `grant_role`) and mails the link; returns the invitation and its token (the caller shows
    it nowhere; the command prints it). A pending invitation of the same address to the same
    thing is replaced (its link stops working). `connection`: the mail connection to send with
    (the command's sends a console backend's output to stderr, so stdout holds the link
    alone)."""
    email = _validated_email(email)
    if plan_id is None and role not in OrganisationRole.values:
        raise ValidationError({"role": f"Choose one of: {', '.join(OrganisationRole.values)}."})
    if plan_id is not None and grant_role not in ("editor", "viewer"):
        raise ValidationError({"role": "Choose editor or viewer."})
    now = timezone.now()
    Invitation.objects.filter(
        organisation=organisation,
        email=email,
        plan_id=plan_id,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
    ).update(revoked_at=now)
    token = secrets.token_urlsafe(32)
    invitation = Invitation.objects.create(
        organisation=organisation,
        email=email,
        role=role if plan_id is None else "",
        plan_id=plan_id,
        grant_role=grant_role if plan_id is not None else "",
        token_hash=_token_hash(token),
        invited_by=invited_by,
        created_at=now,
        expires_at=now + timedelta(days=INVITATION_DAYS),
    )
    if send:
        transaction.on_commit(lambda: _send(invitation, token, connection))
    return invitation, token


@transaction.atomic
def invitation_resend(*, invitation: Invitation, by: User | None) -> Invitation:
    """A new link for a pending invitation (the old one stops working), for another 7 days."""
    if not invitation.is_pending:
        raise ValidationError("Only a pending invitation can be sent again.")
    new, _token = invitation_create(
        organisation=invitation.organisation,
        email=invitation.email,
        role=invitation.role,
        invited_by=by,
        plan_id=invitation.plan_id,
        grant_role=invitation.grant_role,
    )
    return new


def invitation_revoke(*, invitation: Invitation) -> None:
    Invitation.objects.filter(pk=invitation.pk, revoked_at__isnull=True).update(
        revoked_at=timezone.now()
    )


def invitation_by_token(*, token: str) -> Invitation:
    """The pending invitation of this token, or InvitationInvalid (one answer for every
    reason)."""
    if not token or len(token) > 100:
        raise InvitationInvalid
    invitation = (
        Invitation.objects.select_related("organisation", "invited_by")
        .filter(token_hash=_token_hash(token))
        .first()
    )
    if invitation is None:
        raise InvitationInvalid
    if not invitation.is_pending:
        newer = _replacement(invitation)
        raise InvitationSuperseded(newer) if newer is not None else InvitationInvalid
    return invitation


def _replacement(invitation: Invitation) -> Invitation | None:
    """The latest invitation that replaced this one when it was sent again, or None (it was
    used, revoked by hand, or it expired). `invitation_create` revokes the pending invitation it
    replaces at the very moment it creates the new one, so a replacement is the invitation of
    the same address to the same thing created when this one was revoked."""
    newer = None
    for _ in range(_REPLACEMENTS_FOLLOWED):
        if invitation.revoked_at is None or invitation.accepted_at is not None:
            break
        found = (
            Invitation.objects.select_related("organisation")
            .filter(
                organisation_id=invitation.organisation_id,
                email=invitation.email,
                plan_id=invitation.plan_id,
                created_at=invitation.revoked_at,
            )
            .exclude(pk=invitation.pk)
            .first()
        )
        if found is None:
            break
        newer = invitation = found
    return newer


def invitation_is_for(*, invitation: Invitation, user: User) -> bool:
    return user.email.strip().lower() == invitation.email


@transaction.atomic
def invitation_accept(*, token: str, user: User) -> Invitation:
    """Accepts the invitation for `user`, once: a conditional UPDATE claims it, so two
    acceptances at once make one membership. Raises InvitationInvalid, or ValidationError when
    the account's email is not the invited one (nothing changes then)."""
    invitation = invitation_by_token(token=token)
    if not invitation_is_for(invitation=invitation, user=user):
        raise ValidationError("This invitation was sent to another email address.")
    now = timezone.now()
    claimed = Invitation.objects.filter(
        pk=invitation.pk, accepted_at__isnull=True, revoked_at__isnull=True, expires_at__gt=now
    ).update(accepted_at=now, accepted_by=user)
    if not claimed:
        raise InvitationInvalid
    if invitation.plan_id is not None:
        invitation_accepted.send(sender=Invitation, invitation=invitation, user=user)
        return invitation
    membership = OrganisationMembership.objects.filter(
        organisation=invitation.organisation, user=user
    ).first()
    role = OrganisationRole(invitation.role)
    if membership is None:
        OrganisationMembership.objects.create(
            organisation=invitation.organisation, user=user, role=role
        )
    elif ROLE_RANK[role] > ROLE_RANK[OrganisationRole(membership.role)]:
        membership.role = role
        membership.save(update_fields=["role"])
    return invitation

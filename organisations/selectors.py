"""Reads of the organisations app. Someone who is not a member of an organisation gets exactly
what a missing one gets (Http404)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db.models import Case, Count, QuerySet, When
from django.http import Http404
from django.utils import timezone

from organisations.models import Invitation, Organisation, OrganisationMembership, OrganisationRole


def memberships_for_user(*, user: Any) -> QuerySet[OrganisationMembership]:
    """The user's memberships with their organisations, personal organisation first."""
    if not getattr(user, "is_authenticated", False):
        return OrganisationMembership.objects.none()
    personal_first = Case(When(organisation__personal_for=user, then=0), default=1)
    return (
        OrganisationMembership.objects.filter(user=user)
        .select_related("organisation")
        .order_by(personal_first, "organisation__name", "organisation__slug")
    )


def membership_get(*, user: Any, slug: str) -> OrganisationMembership:
    """The user's membership of the organisation `slug`; Http404 when there is none."""
    if not getattr(user, "is_authenticated", False):
        raise Http404("No such organisation")
    try:
        return OrganisationMembership.objects.select_related("organisation").get(
            organisation__slug=slug, user=user
        )
    except OrganisationMembership.DoesNotExist:
        raise Http404("No such organisation") from None


def membership_of(*, user: Any, organisation_id: Any) -> OrganisationMembership | None:
    return (
        OrganisationMembership.objects.filter(user=user, organisation_id=organisation_id)
        .select_related("organisation")
        .first()
    )


def personal_membership(*, user: Any) -> OrganisationMembership | None:
    """The user's membership of their personal organisation (one query)."""
    return (
        OrganisationMembership.objects.filter(user=user, organisation__personal_for=user)
        .select_related("organisation")
        .first()
    )


def personal_organisation(*, user: Any) -> Organisation | None:
    return Organisation.objects.filter(personal_for=user).first()


def organisation_by_slug(*, slug: str) -> Organisation | None:
    return Organisation.objects.filter(slug=slug).first()


def organisation_members(*, organisation: Organisation) -> QuerySet[OrganisationMembership]:
    return (
        OrganisationMembership.objects.filter(organisation=organisation)
        .select_related("user")
        .order_by("user__email")
    )


def organisation_managers(*, organisation: Organisation) -> QuerySet[OrganisationMembership]:
    """Its owners and admins (who get the service accounts' reminders and access requests)."""
    return organisation_members(organisation=organisation).filter(
        role__in=[OrganisationRole.OWNER, OrganisationRole.ADMIN], user__is_active=True
    )


def invitations_pending(*, organisation: Organisation) -> QuerySet[Invitation]:
    """The organisation's own pending invitations (not the plan guests'), newest first."""
    return Invitation.objects.filter(
        organisation=organisation,
        plan_id__isnull=True,
        accepted_at__isnull=True,
        revoked_at__isnull=True,
        expires_at__gt=timezone.now(),
    ).select_related("invited_by")


def invitation_get(*, organisation: Organisation, invitation_id: Any) -> Invitation:
    try:
        return Invitation.objects.get(organisation=organisation, pk=invitation_id)
    except (Invitation.DoesNotExist, ValueError, ValidationError):
        raise Http404("No such invitation") from None


def membership_by_id(*, organisation: Organisation, membership_id: int) -> OrganisationMembership:
    try:
        return OrganisationMembership.objects.select_related("user", "organisation").get(
            organisation=organisation, pk=membership_id
        )
    except OrganisationMembership.DoesNotExist:
        raise Http404("No such member") from None


def organisations_of_user(*, user: Any) -> QuerySet[OrganisationMembership]:
    """`memberships_for_user` with each organisation's number of plans."""
    return memberships_for_user(user=user).annotate(plan_count=Count("organisation__plans"))

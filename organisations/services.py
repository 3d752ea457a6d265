"""Writes of the organisations app: organisations, their members and roles."""

from __future__ import annotations

from decimal import Decimal

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import IntegrityError, transaction
from django.utils.text import slugify

from accounts.models import User
from organisations.models import Organisation, OrganisationMembership, OrganisationRole

SLUG_MAX = 50
LAST_OWNER = "An organisation always keeps at least one owner: make someone else an owner first."
NOT_A_MANAGER = "Only the organisation's owners and admins can do this."
OWNERS_ONLY = "Only an owner can make someone an owner or change one."
NOT_REMOVABLE = "You cannot remove this member."
GONE = "This person is no longer a member."


def _slug_base(name: str) -> str:
    return slugify(name)[:SLUG_MAX].strip("-") or "organisation"


def organisation_create(
    *, name: str, owner: User | None, personal_for: User | None = None
) -> Organisation:
    """A new organisation named `name`, with `owner` as its first owner. Its slug comes from
    the name, with -2, -3, ... when that is taken (the unique index decides a race)."""
    name = (name or "").strip()
    if not name:
        raise ValidationError({"name": "Give the organisation a name."})
    if len(name) > 200:
        raise ValidationError({"name": "At most 200 characters."})
    base = _slug_base(name)
    for attempt in range(1, 1000):
        slug = base if attempt == 1 else f"{base}-{attempt}"
        if Organisation.objects.filter(slug=slug).exists():
            continue
        try:
            with transaction.atomic():
                organisation = Organisation.objects.create(
                    name=name, slug=slug, personal_for=personal_for
                )
                if owner is not None:
                    OrganisationMembership.objects.create(
                        organisation=organisation, user=owner, role=OrganisationRole.OWNER
                    )
                return organisation
        except IntegrityError:
            if Organisation.objects.filter(slug=slug).exists():
                continue  # someone took the slug a moment ago
            raise
    raise ValidationError({"name": "Choose another name: too many organisations share it."})


def organisation_rename(*, organisation: Organisation, name: str) -> Organisation:
    """A new name; the slug (in every link and command) stays."""
    name = (name or "").strip()
    if not name or len(name) > 200:
        raise ValidationError({"name": "Give the organisation a name of at most 200 characters."})
    organisation.name = name
    organisation.save(update_fields=["name"])
    return organisation


def organisation_value_per_m2_set(
    *, organisation: Organisation, value_per_m2: Decimal | None
) -> Organisation:
    """The building value per m2 (docs/subsystems/portfolio.md "Facility condition index"): a
    positive amount, or None for none."""
    organisation.value_per_m2 = value_per_m2
    others = [f.name for f in Organisation._meta.concrete_fields if f.name != "value_per_m2"]
    organisation.clean_fields(exclude=others)
    organisation.save(update_fields=["value_per_m2"])
    return organisation


def personal_organisation_name(user: User) -> str:
    return f"{user.name or user.email.split('@')[0]} (personal)"


def organisation_personal_create(*, user: User) -> Organisation:
    """The account's personal organisation (it owns it); made once, when the account is."""
    existing = Organisation.objects.filter(personal_for=user).first()
    if existing is not None:
        return existing
    return organisation_create(name=personal_organisation_name(user), owner=user, personal_for=user)


def _validated_role(role: str) -> OrganisationRole:
    if role not in OrganisationRole.values:
        raise ValidationError({"role": f"Choose one of: {', '.join(OrganisationRole.values)}."})
    return OrganisationRole(role)


def _organisation_lock(organisation: Organisation) -> None:
    """Serialises changes of one organisation's members (the last-owner rule counts under it)."""
    Organisation.objects.select_for_update().filter(pk=organisation.pk).first()


def _owner_count(organisation: Organisation) -> int:
    return OrganisationMembership.objects.filter(
        organisation=organisation, role=OrganisationRole.OWNER
    ).count()


@transaction.atomic
def member_add(*, organisation: Organisation, user: User, role: str) -> OrganisationMembership:
    """Makes `user` a member with `role`; an existing member gets the role instead (through
    `member_role_set`, so the last owner stays one)."""
    chosen = _validated_role(role)
    _organisation_lock(organisation)
    membership = OrganisationMembership.objects.filter(organisation=organisation, user=user).first()
    if membership is not None:
        return member_role_set(membership=membership, role=chosen)
    return OrganisationMembership.objects.create(organisation=organisation, user=user, role=chosen)


def _locked_again(membership: OrganisationMembership) -> None:
    """The membership's role as it is under the lock (ValidationError when it is gone)."""
    try:
        membership.refresh_from_db(fields=["role"])
    except OrganisationMembership.DoesNotExist:
        raise ValidationError({"role": GONE}) from None


def _role_of(organisation: Organisation, user: User) -> str | None:
    return (
        OrganisationMembership.objects.filter(organisation=organisation, user=user)
        .values_list("role", flat=True)
        .first()
    )


@transaction.atomic
def member_role_set(
    *, membership: OrganisationMembership, role: str, by: User | None = None
) -> OrganisationMembership:
    """Gives the member `role`. `by`: the member making the change, whose rights are checked
    under the organisation's lock against both memberships as they are then (a promotion or a
    demotion that committed while this change waited counts): owners and admins change roles,
    only an owner makes or changes an owner (PermissionDenied). None: nobody's rights (a
    command, an accepted invitation). The last owner stays one (ValidationError)."""
    chosen = _validated_role(role)
    organisation = membership.organisation
    _organisation_lock(organisation)
    _locked_again(membership)
    if by is not None:
        by_role = _role_of(organisation, by)
        if by_role not in (OrganisationRole.OWNER, OrganisationRole.ADMIN):
            raise PermissionDenied(NOT_A_MANAGER)
        owner_involved = OrganisationRole.OWNER in (membership.role, chosen)
        if owner_involved and by_role != OrganisationRole.OWNER:
            raise PermissionDenied(OWNERS_ONLY)
    if (
        membership.role == OrganisationRole.OWNER
        and chosen != OrganisationRole.OWNER
        and _owner_count(organisation) <= 1
    ):
        raise ValidationError({"role": LAST_OWNER})
    membership.role = chosen
    membership.save(update_fields=["role"])
    return membership


@transaction.atomic
def member_remove(*, membership: OrganisationMembership, by: User | None = None) -> None:
    """Removes a member (or a member leaves: `by` is the member). `by`: the member removing,
    whose rights are checked under the organisation's lock against both memberships as they
    are then: an owner removes anyone, an admin anyone but an owner (PermissionDenied). None:
    nobody's rights. Their access ends on their next request, API keys included: every access
    check reads the memberships as they are now."""
    organisation = membership.organisation
    _organisation_lock(organisation)
    _locked_again(membership)
    if by is not None and by.pk != membership.user_id:
        by_role = _role_of(organisation, by)
        may = by_role == OrganisationRole.OWNER or (
            by_role == OrganisationRole.ADMIN and membership.role != OrganisationRole.OWNER
        )
        if not may:
            raise PermissionDenied(NOT_REMOVABLE)
    if membership.role == OrganisationRole.OWNER and _owner_count(organisation) <= 1:
        raise ValidationError({"role": LAST_OWNER})
    membership.delete()

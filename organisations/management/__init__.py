"""What the organisations commands share: the organisation a slug names."""

from __future__ import annotations

from django.core.management.base import CommandError

from accounts.models import User
from organisations.models import Organisation, OrganisationRole
from organisations.selectors import membership_of, organisation_by_slug


def command_organisation(slug: str) -> Organisation:
    """The organisation with this slug, or the CommandError (exit code 1) every command gives."""
    organisation = organisation_by_slug(slug=slug)
    if organisation is None:
        raise CommandError(f"No organisation has the slug {slug!r}.")
    return organisation


ROLE_CHOICES = OrganisationRole.values


def command_plan_organisation(*, slug: str | None, user: User) -> Organisation | None:
    """The organisation of a command's `--org` for a new plan of `user` (None: their personal
    one), or CommandError when they may not add plans there."""
    if slug is None:
        return None
    organisation = command_organisation(slug)
    membership = membership_of(user=user, organisation_id=organisation.pk)
    if membership is None or not membership.can_edit:
        raise CommandError(
            f"{user.email} cannot add plans to {slug} (owners, admins and planners can)."
        )
    return organisation

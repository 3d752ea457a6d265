"""Access to an organisation's pages (docs/subsystems/organisations.md "Organisations").

Every page under /organisations/<slug>/ starts with `organisation_member_required`: someone who
is not a member gets 404, exactly as for a missing organisation. A page that manages the
organisation (`manage=True`: members, invitations, API access, service accounts, webhooks)
answers 403 to a member who is not an owner or admin: the organisation's existence is no secret
to them, and 403 says plainly why.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse

from organisations.models import OrganisationMembership
from organisations.selectors import membership_get

OrganisationView = Callable[..., HttpResponse]


def organisation_member_required(
    *, manage: bool = False
) -> Callable[[OrganisationView], OrganisationView]:
    """Resolves `slug` to the user's OrganisationMembership (with the organisation), passed to
    the view as `membership`; 404 for non-members, 403 on a managing page for the others."""

    def decorate(view: OrganisationView) -> OrganisationView:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, slug: str, **kwargs: Any) -> HttpResponse:
            membership = membership_get(user=request.user, slug=slug)
            if manage and not membership.can_manage:
                raise PermissionDenied("Only the organisation's owners and admins can do this.")
            return view(request, membership, **kwargs)

        return wrapped

    return decorate


def organisation_context(membership: OrganisationMembership, section: str) -> dict[str, Any]:
    """What every organisation page shows around its content (organisations/_nav.html)."""
    return {
        "membership": membership,
        "organisation": membership.organisation,
        "can_manage": membership.can_manage,
        "section": section,
    }

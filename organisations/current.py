"""The organisation a person is working in (the plan list shows its plans): chosen with the
switcher in the top bar, kept in the session, the personal organisation by default. A choice
the person is no longer a member of falls back to the default without a word."""

from __future__ import annotations

from django.http import HttpRequest

from organisations.models import OrganisationMembership
from organisations.selectors import memberships_for_user

SESSION_KEY = "organisation"


def user_memberships(request: HttpRequest) -> list[OrganisationMembership]:
    """The user's memberships, read once per request (the top bar's switcher and the plan list
    both ask)."""
    cached: list[OrganisationMembership] | None = getattr(request, "_memberships", None)
    if cached is None:
        cached = list(memberships_for_user(user=request.user))
        request._memberships = cached  # type: ignore[attr-defined]
    return cached


def current_membership(request: HttpRequest) -> OrganisationMembership | None:
    """The membership of the chosen organisation (`?org=<slug>` chooses and remembers)."""
    memberships = user_memberships(request)
    if not memberships:
        return None
    chosen = request.GET.get("org") or request.session.get(SESSION_KEY)
    for membership in memberships:
        if membership.organisation.slug == chosen:
            if request.session.get(SESSION_KEY) != chosen:
                request.session[SESSION_KEY] = chosen
            return membership
    personal = [m for m in memberships if m.organisation.personal_for_id == request.user.pk]
    return (personal or memberships)[0]

"""The organisation in view (docs/subsystems/organisations.md "The organisation in view"): the one
a person is working in, named in the top bar of every page, whose plans the plan list shows.

The choice is kept in the session and changes only when the person makes one: a switch in the
top bar (any link with `?org=<slug>` to the plan list, the bar's own links included), creating
an organisation, accepting an invitation to one. The personal organisation is the default, and a
choice the person is no longer a member of falls back to it without a word. A page of an
organisation or of a plan names the organisation it belongs to (the guest of a shared plan sees
its organisation marked "guest"), and the top bar's Plans link leads to that organisation's
plans, so what the bar names is where Plans goes."""

from __future__ import annotations

from dataclasses import dataclass

from django.http import HttpRequest

from organisations.models import Organisation, OrganisationMembership
from organisations.selectors import memberships_for_user

SESSION_KEY = "organisation"


def user_memberships(request: HttpRequest) -> list[OrganisationMembership]:
    """The user's memberships, read once per request (the top bar and the plan list both
    ask)."""
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
    for chosen in (request.GET.get("org"), request.session.get(SESSION_KEY)):
        for membership in memberships:
            if chosen and membership.organisation.slug == chosen:
                organisation_enter(request, membership.organisation)
                return membership
    personal = [m for m in memberships if m.organisation.personal_for_id == request.user.pk]
    return (personal or memberships)[0]


def organisation_enter(request: HttpRequest, organisation: Organisation) -> None:
    """Makes `organisation` the one in view. The caller has checked that the user is a member
    (a choice of another is dropped at the next read, by `current_membership`)."""
    if request.session.get(SESSION_KEY) != organisation.slug:
        request.session[SESSION_KEY] = organisation.slug


@dataclass(frozen=True)
class InView:
    """What the top bar says of the organisation in view, and the ones to switch to."""

    name: str
    slug: str  # empty for a guest's (no plan list of it to lead to)
    role: str  # the user's role there ("Owner"), or "guest" on a shared plan
    memberships: list[OrganisationMembership]

    @property
    def guest(self) -> bool:
        """On a plan shared with the user as a guest: no member of its organisation."""
        return not self.slug


def organisation_in_view(
    request: HttpRequest, *, page_organisation: Organisation | None = None
) -> InView | None:
    """The organisation the top bar names: the one the page belongs to (`page_organisation`:
    an organisation's page, a plan's page), else the one chosen. None for a visitor."""
    if not request.user.is_authenticated:
        return None
    if page_organisation is not None:
        membership = next(
            (m for m in user_memberships(request) if m.organisation_id == page_organisation.pk),
            None,
        )
        if membership is None:  # a guest of one of its plans
            return InView(
                name=page_organisation.name,
                slug="",
                role="guest",
                memberships=user_memberships(request),
            )
    else:
        membership = current_membership(request)
    if membership is None:
        return None
    organisation = membership.organisation
    return InView(
        name=organisation.name,
        slug=organisation.slug,
        role=membership.get_role_display(),
        memberships=user_memberships(request),
    )

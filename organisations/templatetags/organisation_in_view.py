"""`{% organisation_in_view as in_view %}`: the organisation the page is in
(organisations.current), which the top bar names, offers to switch from, and whose plans its
Plans link leads to."""

from __future__ import annotations

from typing import Any

from django import template

from organisations.current import InView, organisation_in_view
from organisations.models import Organisation, OrganisationMembership

register = template.Library()


def _page_organisation(context: Any) -> Organisation | None:
    """The organisation the page belongs to: an organisation page's (its `membership`), a plan
    page's (its `plan`), else None (the chosen one is in view)."""
    membership = context.get("membership")
    if isinstance(membership, OrganisationMembership):
        return membership.organisation
    organisation = getattr(context.get("plan"), "organisation", None)
    return organisation if isinstance(organisation, Organisation) else None


@register.simple_tag(takes_context=True, name="organisation_in_view")
def organisation_in_view_tag(context: Any) -> InView | None:
    request = context.get("request")
    if request is None:
        return None
    return organisation_in_view(request, page_organisation=_page_organisation(context))

"""The organisation's pages: its members."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_http_methods

from organisations.access import organisation_context, organisation_member_required
from organisations.models import OrganisationMembership
from organisations.selectors import organisation_members


@organisation_member_required()
@require_http_methods(["GET"])
def organisation_members_page(
    request: HttpRequest, membership: OrganisationMembership
) -> HttpResponse:
    context = organisation_context(membership, "members")
    context["members"] = organisation_members(organisation=membership.organisation)
    return render(request, "organisations/members.html", context)

"""The Follow-up tab: planned against done and actual cost, per year and per building
(planning.figures.follow_up; docs/subsystems/follow-up.md)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from planning.core.access import PlanAccess
from planning.figures.follow_up import plan_follow_up
from planning.web.access import plan_member_required
from planning.web.forms.follow_up import YEARS_DEFAULT, FollowUpForm
from planning.web.pages import plan_tab_context

BUILDINGS_PER_PAGE = 50


@plan_member_required()
@require_GET
def follow_up(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    form = FollowUpForm(request.GET or None)
    this_year = timezone.localdate().year
    year_from, year_to = form.year_range(default_first=this_year - YEARS_DEFAULT + 1)
    figures = plan_follow_up(plan=access.plan, year_from=year_from, year_to=year_to)
    buildings = Paginator(figures.buildings, BUILDINGS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = plan_tab_context(access, "follow_up")
    context.update(
        {
            "form": form,
            "figures": figures,
            "buildings_page": buildings,
            "page_query": query.urlencode(),
        }
    )
    return render(request, "planning/follow_up.html", context)

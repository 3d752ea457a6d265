"""The Follow-up tab: planned against done and actual cost, per year and per building
(planning.follow_up; docs/design.md "Follow-up")."""

from __future__ import annotations

from typing import Any

from django import forms
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from planning.access import plan_member_required
from planning.access_rules import PlanAccess
from planning.follow_up import plan_follow_up
from planning.models import MAX_YEAR, MIN_YEAR
from planning.pages import plan_tab_context

YEARS_DEFAULT = 5  # this year and the four before it
YEARS_MAX = 30
BUILDINGS_PER_PAGE = 50


class FollowUpForm(forms.Form):
    """The year range. A bad value is reported beside its field and the default range shown."""

    year_from = forms.IntegerField(
        required=False, min_value=MIN_YEAR, max_value=MAX_YEAR, label="From"
    )
    year_to = forms.IntegerField(required=False, min_value=MIN_YEAR, max_value=MAX_YEAR, label="To")

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        first, last = cleaned.get("year_from"), cleaned.get("year_to")
        if first is not None and last is not None:
            if last < first:
                self.add_error("year_to", "The last year comes before the first.")
            elif last - first + 1 > YEARS_MAX:
                self.add_error("year_to", f"Show at most {YEARS_MAX} years at a time.")
        return cleaned

    def years(self, *, this_year: int) -> tuple[int, int]:
        if not self.is_bound or not self.is_valid():
            return this_year - YEARS_DEFAULT + 1, this_year
        first, last = self.cleaned_data["year_from"], self.cleaned_data["year_to"]
        if first is None and last is None:
            return this_year - YEARS_DEFAULT + 1, this_year
        if first is None:
            first = max(MIN_YEAR, last - YEARS_DEFAULT + 1)
        if last is None:
            last = min(MAX_YEAR, first + YEARS_DEFAULT - 1)
        return first, last


@plan_member_required()
@require_GET
def follow_up(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    form = FollowUpForm(request.GET or None)
    year_from, year_to = form.years(this_year=timezone.localdate().year)
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

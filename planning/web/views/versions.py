"""The Versions tab: adopt the plan as it stands (owners and admins), the adopted versions, and
a version compared with the plan now or with another version (planning.records.adoption,
planning.records.comparison; docs/subsystems/versions.md)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from planning.core.access import PlanAccess
from planning.figures.prices import year_span
from planning.models import PlanVersion
from planning.records.adoption import plan_adopt, version_cost_years
from planning.records.comparison import Side, versions_compare
from planning.transfer.exports.comparison import comparison_rows, comparison_sheet
from planning.web.access import plan_member_required, request_user
from planning.web.downloads import spreadsheet_download
from planning.web.forms.fields import form_submit
from planning.web.forms.versions import NOW, AdoptForm, CompareForm
from planning.web.pages import plan_tab_context

DIFFERENCES_PER_PAGE = 50


@plan_member_required()
@require_http_methods(["GET", "POST"])
def plan_versions(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    plan = access.plan
    form = AdoptForm(request.POST or None, initial={"decided_on": timezone.localdate()})
    if request.method == "POST":
        if not access.can_manage:
            raise PermissionDenied("Only the plan's owners and its organisation's admins adopt it.")
        user = request_user(request)
        version = form_submit(form, lambda data: plan_adopt(plan=plan, by=user, **data))
        if version is not None:
            messages.success(request, f"Adopted version {version.number} “{version.name}”.")
            return redirect("planning:plan_version", number=plan.number, version_id=version.pk)
    context = plan_tab_context(access, "versions")
    versions = [
        (version, year_span(*version_cost_years(version)))  # the years its planned cost covers
        for version in plan.versions.order_by("-number")[:200]
    ]
    context.update({"form": form, "versions": versions})
    return render(request, "planning/versions.html", context)


def _comparison(request: HttpRequest, access: PlanAccess, version_id: uuid.UUID) -> tuple[Any, ...]:
    version = get_object_or_404(PlanVersion, plan=access.plan, pk=version_id)
    form = CompareForm(request.GET or None, version=version)
    against = form.valid("against") or NOW
    if against == NOW:
        old, new = Side(plan=access.plan, version=version), Side(plan=access.plan)
    else:
        other = get_object_or_404(PlanVersion, plan=access.plan, pk=against)
        # The older version is the "before" side, whichever was chosen where.
        first, second = sorted((version, other), key=lambda v: v.number)
        old, new = Side(plan=access.plan, version=first), Side(plan=access.plan, version=second)
    comparison = versions_compare(
        old=old, new=new, years=form.years(), building=form.valid("building")
    )
    return version, form, comparison


@plan_member_required()
@require_GET
def plan_version(request: HttpRequest, access: PlanAccess, version_id: uuid.UUID) -> HttpResponse:
    version, form, comparison = _comparison(request, access, version_id)
    page = Paginator(comparison.differences, DIFFERENCES_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.copy()
    query.pop("page", None)
    context = plan_tab_context(access, "versions")
    context.update(
        {
            "version": version,
            "version_cost_years": year_span(*version_cost_years(version)),
            "form": form,
            "comparison": comparison,
            "differences_page": page,
            "query": query.urlencode(),
            "counts": {kind: comparison.count(kind) for kind in ("added", "removed", "changed")},
        }
    )
    return render(request, "planning/version_detail.html", context)


@plan_member_required()
@require_GET
def plan_version_export(
    request: HttpRequest, access: PlanAccess, version_id: uuid.UUID, fmt: str
) -> StreamingHttpResponse:
    version, form, comparison = _comparison(request, access, version_id)
    name = f"plan-{access.plan.number}-version-{version.number}-comparison"
    building = form.valid("building")
    picker = form.fields["building"].widget
    more = [("Building", picker.node_name(building))] if building else []
    return spreadsheet_download(
        fmt=fmt,
        name=name,
        rows=lambda: comparison_rows(comparison),
        sheets=lambda: [comparison_sheet(comparison, made_on=timezone.localdate(), more=more)],
    )

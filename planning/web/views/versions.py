"""The Versions tab: adopt the plan as it stands (owners and admins), the adopted versions, and
a version compared with the plan now or with another version (planning.records.versions;
docs/design.md "Versions")."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from planning.core.access import PlanAccess
from planning.figures.prices import year_span
from planning.models import NodeKind, PlanVersion, StructureNode
from planning.records.versions import (
    NAME_MAX,
    NOTE_MAX,
    Side,
    comparison_rows,
    plan_adopt,
    version_cost_years,
    versions_compare,
)
from planning.web.access import plan_member_required, request_user
from planning.web.forms.fields import NodePicker, YearRangeForm, form_submit, node_picker_bind
from planning.web.pages import plan_tab_context
from planning.web.views.exports import spreadsheet_download

DIFFERENCES_PER_PAGE = 50
YEARS_DEFAULT = 10
YEARS_MAX = 30
NOW = "now"


class AdoptForm(forms.Form):
    name = forms.CharField(
        max_length=NAME_MAX, label="Name", help_text="e.g. “Adopted by the board, spring 2026”"
    )
    decided_on = forms.DateField(
        label="Decision date", widget=forms.DateInput(attrs={"type": "date"})
    )
    note = forms.CharField(
        required=False, max_length=NOTE_MAX, label="Note", widget=forms.Textarea(attrs={"rows": 3})
    )


class CompareForm(YearRangeForm):
    """GET parameters of a version's page; a bad value is reported and its default used."""

    years_default = YEARS_DEFAULT
    years_max = YEARS_MAX

    against = forms.ChoiceField(required=False, label="Compare with")
    building = forms.UUIDField(
        required=False, label="Building", widget=NodePicker(kind=NodeKind.BUILDING)
    )

    def __init__(self, *args: Any, version: PlanVersion, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        others = version.plan.versions.exclude(pk=version.pk).order_by("-number")[:100]
        against = self.fields["against"]
        assert isinstance(against, forms.ChoiceField)
        against.choices = [
            (NOW, "The plan now"),
            *((str(v.pk), f"Version {v.number}: {v.name}") for v in others),
        ]
        self.plan = version.plan
        node_picker_bind(self, "building", version.plan)

    def clean_building(self) -> uuid.UUID | None:
        value = self.cleaned_data.get("building")
        buildings = StructureNode.objects.filter(plan=self.plan, kind=NodeKind.BUILDING)
        if value and not buildings.filter(pk=value).exists():
            raise forms.ValidationError(
                "No building of this plan has this id; pick one from the list."
            )
        return value

    def years(self) -> list[int]:
        first, last = self.year_range(default_first=timezone.localdate().year)
        return list(range(first, last + 1))


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
    version, _form, comparison = _comparison(request, access, version_id)
    name = f"plan-{access.plan.number}-version-{version.number}-comparison"
    return spreadsheet_download(comparison_rows(comparison), fmt=fmt, name=name, sheet="Comparison")

"""The History tab: a plan's change history, filtered, paged newest first, and as CSV
(planning.records.history; docs/design.md "History")."""

from __future__ import annotations

from django import forms
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.views.decorators.http import require_GET

from planning.core.access import PlanAccess
from planning.models import HistoryEntity
from planning.records.history import (
    HistoryFilters,
    entries_described,
    history_csv_rows,
    history_page,
    plan_history,
)
from planning.web.access import plan_member_required
from planning.web.pages import plan_tab_context
from planning.web.views.exports import spreadsheet_download


class HistoryFilterForm(forms.Form):
    """GET filters of the History tab; a bad value is reported beside its field and left out."""

    person = forms.CharField(required=False, max_length=200, label="Who (email or name)")
    entity = forms.ChoiceField(
        required=False, choices=[("", "Anything"), *HistoryEntity.choices], label="What"
    )
    date_from = forms.DateField(
        required=False, label="From", widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        required=False, label="To", widget=forms.DateInput(attrs={"type": "date"})
    )
    entity_id = forms.UUIDField(required=False, widget=forms.HiddenInput())
    before = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput())

    def filters(self) -> HistoryFilters:
        if not self.is_bound:
            return HistoryFilters()
        self.is_valid()
        data = {
            name: self.cleaned_data.get(name) for name in self.fields if name not in self.errors
        }
        return HistoryFilters(
            person=(data.get("person") or "").strip(),
            entity=data.get("entity") or "",
            date_from=data.get("date_from"),
            date_to=data.get("date_to"),
            entity_id=data.get("entity_id"),
        )

    def page_before(self) -> int | None:
        if not self.is_bound or "before" in self.errors:
            return None
        self.is_valid()
        return self.cleaned_data.get("before")


@plan_member_required()
@require_GET
def plan_history_page(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    form = HistoryFilterForm(request.GET or None)
    entries = plan_history(plan=access.plan, filters=form.filters())
    page, next_before = history_page(entries, before=form.page_before())
    query = request.GET.copy()
    query.pop("before", None)
    context = plan_tab_context(access, "history")
    context.update(
        {
            "form": form,
            "entries": entries_described(page),
            "next_before": next_before,
            "first_page": form.page_before() is None,
            "query": query.urlencode(),
        }
    )
    return render(request, "planning/history.html", context)


@plan_member_required()
@require_GET
def plan_history_csv(request: HttpRequest, access: PlanAccess) -> StreamingHttpResponse:
    """Every entry matching the tab's filters, one line per changed field, streamed."""
    form = HistoryFilterForm(request.GET or None)
    rows = history_csv_rows(plan_history(plan=access.plan, filters=form.filters()))
    name = f"plan-{access.plan.number}-history-{timezone.now():%Y%m%d}"
    return spreadsheet_download(rows, fmt="csv", name=name, sheet="History")

"""The form of the History tab: its GET filters (who, what, when, one entity) and the page's
cursor, read into planning.records.history's HistoryFilters."""

from __future__ import annotations

from django import forms

from planning.models import HistoryEntity
from planning.records.history import HistoryFilters


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

"""The portfolio page's query (docs/subsystems/portfolio.md "The portfolio page"): a name filter
and an order, read once here; `GET /api/v1/platform/portfolio` reads its name filter with the
same form."""

from __future__ import annotations

from django import forms

from planning.figures.portfolio import SORT_DEFAULT, SORTS
from planning.plans.portfolio import NAME_MAX

SORT_CHOICES = [(name, name) for name in SORTS] + [(f"-{name}", f"-{name}") for name in SORTS]


class PortfolioQueryForm(forms.Form):
    """GET parameters; a bad value is reported and left out (the whole portfolio, by name)."""

    q = forms.CharField(required=False, max_length=NAME_MAX, label="Plan name contains")
    sort = forms.ChoiceField(required=False, choices=SORT_CHOICES, widget=forms.HiddenInput())

    def chosen_name(self) -> str:
        if not self.is_bound or (not self.is_valid() and "q" in self.errors):
            return ""
        return (self.cleaned_data.get("q") or "").strip()

    def chosen_sort(self) -> str:
        if not self.is_bound or (not self.is_valid() and "sort" in self.errors):
            return SORT_DEFAULT
        return self.cleaned_data.get("sort") or SORT_DEFAULT

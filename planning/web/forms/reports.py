"""The form of the Report tab: the prices a board report is printed in."""

from __future__ import annotations

from django import forms

from planning.figures.prices import NOMINAL, TODAY


class ReportForm(forms.Form):
    prices = forms.ChoiceField(
        choices=[(TODAY, "Today's prices"), (NOMINAL, "Nominal prices (indexed, with markups)")],
        initial=TODAY,
        widget=forms.RadioSelect,
        label="Prices",
    )

from __future__ import annotations

import uuid
from typing import Any

from django import forms

from planning.figures.budget import YEARS_DEFAULT, YEARS_MAX
from planning.figures.prices import NOMINAL, TODAY
from planning.models import (
    Code,
    DismissReason,
    NodeKind,
    Plan,
    Severity,
    StructureNode,
    SuggestionType,
)
from planning.suggestions.selectors import SuggestionFilters
from planning.suggestions.services.dismissal import DISMISS_COMMENT_MAX
from planning.web.bulk import BulkForm
from planning.web.forms.fields import NodePicker, YearRangeForm, node_picker_bind


class DismissForm(forms.Form):
    reason = forms.ChoiceField(choices=DismissReason.choices)
    comment = forms.CharField(
        required=False,
        max_length=DISMISS_COMMENT_MAX,
        widget=forms.Textarea(attrs={"rows": 2, "maxlength": DISMISS_COMMENT_MAX}),
        help_text=f"Optional, at most {DISMISS_COMMENT_MAX} characters.",
    )


class ApplyCodeForm(forms.Form):
    """Which of the proposed codes to assign (missing_code)."""

    code = forms.ChoiceField(label="Code")

    def __init__(self, *args: Any, codes: list[Code], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["code"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = [(str(c.pk), f"{c.code} {c.name}") for c in codes]


class PlanningViewForm(YearRangeForm):
    """GET parameters of the action-planning view. A bad value is reported beside its field and
    its default used instead; the page never fails on its query string."""

    years_default = YEARS_DEFAULT
    years_max = YEARS_MAX
    prices = forms.ChoiceField(
        required=False, choices=[(TODAY, "Today's prices"), (NOMINAL, "Nominal")]
    )
    suggestion_type = forms.MultipleChoiceField(
        required=False, choices=SuggestionType.choices, widget=forms.CheckboxSelectMultiple
    )
    severity = forms.MultipleChoiceField(
        required=False, choices=Severity.choices, widget=forms.CheckboxSelectMultiple
    )
    building = forms.UUIDField(
        required=False, label="Building", widget=NodePicker(kind=NodeKind.BUILDING)
    )

    def __init__(self, *args: Any, plan: Plan, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan = plan
        node_picker_bind(self, "building", plan)

    def clean_building(self) -> uuid.UUID | None:
        value = self.cleaned_data.get("building")
        if not value:
            return None
        if not StructureNode.objects.filter(
            plan=self.plan, pk=value, kind=NodeKind.BUILDING
        ).exists():
            raise forms.ValidationError(
                "No building of this plan has this id; pick one from the list."
            )
        return value

    def years(self, *, this_year: int) -> tuple[int, int]:
        """The year range to show: the chosen one, else this year and the next nine."""
        return self.year_range(default_first=this_year)

    def suggestion_filters(self) -> SuggestionFilters:
        """Which open suggestions the list holds (and a dismiss of every match acts on)."""
        return SuggestionFilters(
            severities=self.valid("severity") or [],
            suggestion_types=self.valid("suggestion_type") or [],
            structure_node_id=self.valid("building"),
        )

    def chosen_prices(self) -> str:
        """TODAY or NOMINAL (docs/subsystems/money.md); today's prices unless nominal is chosen."""
        return str(self.valid("prices") or TODAY)


class BulkDismissForm(BulkForm, DismissForm):
    """Dismiss several: the cards ticked (their checkboxes name the form, `form="bulk-dismiss"`)
    or every open suggestion matching the list's filters (planning.web.bulk), with one reason
    and comment."""

    ticked_name = "suggestion"
    nothing_ticked = "Tick the suggestions to dismiss, or choose every match."

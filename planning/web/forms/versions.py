"""The forms of the Versions tab: adopting the plan as a version (its name, decision date and
note, bounded as planning.records.adoption bounds them), and what a version's page compares it
with (the plan now or another version, a building, the years)."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.utils import timezone

from planning.models import NodeKind, PlanVersion, StructureNode
from planning.records.adoption import NAME_MAX, NOTE_MAX
from planning.web.forms.fields import NodePicker, YearRangeForm, node_picker_bind

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

"""The forms of a component's survey and of a file's upload (docs/subsystems/surveys-and-files.md
"Surveys and files"). The survey's rules come from the model (planning.web.forms.fields); what
a file may be is planning.plans.uploads' to say."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from planning.models import ConditionConsequence, ConditionGrade, ConditionSurvey, today
from planning.plans.uploads import ACCEPTED
from planning.web.forms.fields import ModelRulesForm, choices_set


class SurveyForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = ConditionSurvey
        fields = ("grade", "consequence", "note", "assessed_on")
        widgets: ClassVar = {
            "assessed_on": forms.DateInput(attrs={"type": "date"}),
            "note": forms.Textarea(attrs={"rows": 3}),
        }
        labels: ClassVar = {"assessed_on": "Assessed on"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices_set(self, "grade", [(str(value), label) for value, label in ConditionGrade.choices])
        consequences = [(str(value), label) for value, label in ConditionConsequence.choices]
        choices_set(self, "consequence", [("", "not assessed"), *consequences])
        self.fields["assessed_on"].initial = today()


class AttachmentUploadForm(forms.Form):
    file = forms.FileField(label="Photo or document", help_text=f"{ACCEPTED}.")

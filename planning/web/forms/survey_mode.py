"""The inputs of survey mode (docs/subsystems/survey-mode.md "The endpoints"): an entry as the
page sends it (JSON) and a photo of an entry (multipart), each with the key the device made.
The grade, consequence, note and date take their rules from ConditionSurvey."""

from __future__ import annotations

from typing import ClassVar

from django import forms

from planning.models import ConditionSurvey
from planning.web.forms.fields import ModelRulesForm

# Components per page of a building's component list; the page asks for a small first page.
COMPONENTS_PAGE_MAX = 500


class SurveyEntryForm(ModelRulesForm):
    key = forms.UUIDField(error_messages={"required": "The entry has no key: reload the page."})
    node = forms.UUIDField(error_messages={"required": "Say which component this entry is for."})

    class Meta(ModelRulesForm.Meta):
        model = ConditionSurvey
        fields: ClassVar = ["grade", "consequence", "note", "assessed_on"]


class SurveyPhotoForm(forms.Form):
    entry = forms.UUIDField(error_messages={"required": "Say which entry this photo belongs to."})
    key = forms.UUIDField(error_messages={"required": "The photo has no key: reload the page."})
    file = forms.FileField(
        error_messages={"required": "Choose a photo.", "empty": "The photo is empty."}
    )


class ComponentPageForm(forms.Form):
    offset = forms.IntegerField(min_value=0, required=False)
    limit = forms.IntegerField(min_value=1, max_value=COMPONENTS_PAGE_MAX, required=False)


class BuildingSearchForm(forms.Form):
    q = forms.CharField(required=False, max_length=200, strip=True)
    page = forms.CharField(required=False, max_length=10)

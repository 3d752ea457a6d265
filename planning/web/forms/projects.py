"""The forms of the Projects tab: a project's name and year, and the actions added to it."""

from __future__ import annotations

import uuid
from typing import Any

from django import forms

from planning.models import Project
from planning.web.forms.fields import ModelRulesForm


class ProjectForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = Project
        fields = ("name", "year")


class ProjectActionsAddForm(forms.Form):
    action = forms.TypedMultipleChoiceField(coerce=uuid.UUID, label="Actions to add")

    def __init__(self, *args: Any, choices: list[tuple[str, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["action"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = choices

from __future__ import annotations

from typing import Any

from django import forms

from planning.models import Code, DismissReason
from planning.suggestions.services import DISMISS_COMMENT_MAX


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

from __future__ import annotations

from datetime import UTC, date, datetime, time
from typing import Any

from django import forms
from django.utils import timezone


class ApiKeyCreateForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="What the key is for, e.g. the system that will use it.",
    )
    expires_on = forms.DateField(
        required=False,
        label="Expires on (optional)",
        help_text="The key stops working at 00:00 UTC on this date. Leave empty for no expiry.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def clean_name(self) -> str:
        name: str = self.cleaned_data["name"].strip()
        if not name:
            raise forms.ValidationError("Give the key a name.")
        return name

    def clean_expires_on(self) -> date | None:
        expires_on: date | None = self.cleaned_data.get("expires_on")
        if expires_on is not None and expires_on <= timezone.now().date():
            raise forms.ValidationError("Choose a date after today.")
        return expires_on

    @property
    def expires_at(self) -> datetime | None:
        expires_on = self.cleaned_data.get("expires_on")
        return datetime.combine(expires_on, time.min, tzinfo=UTC) if expires_on else None

    def create_kwargs(self) -> dict[str, Any]:
        return {"name": self.cleaned_data["name"], "expires_at": self.expires_at}

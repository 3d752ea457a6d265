from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django import forms
from django.db.models import QuerySet
from django.utils import timezone

from apikeys.models import ApiKey
from planning.models import Plan

NO_EXPIRY = "never"
ON_A_DATE = "date"
DEFAULT_EXPIRY = "90"
EXPIRY_CHOICES = [
    ("7", "7 days"),
    ("30", "30 days"),
    ("90", "90 days"),
    ("365", "365 days"),
    (ON_A_DATE, "On a date…"),
    (NO_EXPIRY, "No expiry (not recommended)"),
]
GRACE_CHOICES = [
    ("0", "None: the old key stops now"),
    ("3600", "1 hour"),
    ("86400", "24 hours"),
    ("604800", "7 days"),
]


class ApiKeyCreateForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="What the key is for, e.g. the system that will use it.",
    )
    expires_in = forms.ChoiceField(
        choices=EXPIRY_CHOICES,
        required=False,
        initial=DEFAULT_EXPIRY,
        label="Expires",
        help_text="A key without expiry works until you revoke it, also if it leaks unnoticed. "
        "You are emailed 7 days and 1 day before a key expires.",
    )
    expires_on = forms.DateField(
        required=False,
        label="Expiry date (for “On a date…”)",
        help_text="The key stops working at 00:00 UTC on this date.",
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    permission = forms.ChoiceField(
        choices=ApiKey.Permission.choices,
        initial=ApiKey.Permission.READ,
        required=False,  # not sent: read only
        widget=forms.RadioSelect,
        label="Permission",
        help_text="Read only is enough to read plans and suggestions. Only a key that must "
        "dismiss or restore suggestions needs more.",
    )
    plans = forms.ModelMultipleChoiceField(
        queryset=Plan.objects.none(),
        required=False,
        label="Limit to plans (optional)",
        help_text="Leave empty for every plan you can see, now and later. A limited key gets "
        "404 plans.not_found on any other plan.",
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, plans: QuerySet[Plan], **kwargs: Any) -> None:
        """``plans``: the plans a key of this holder may be limited to."""
        chosen = plans
        super().__init__(*args, **kwargs)
        plans_field = self.fields["plans"]
        assert isinstance(plans_field, forms.ModelMultipleChoiceField)
        plans_field.queryset = chosen.order_by("number")
        plans_field.label_from_instance = lambda plan: f"#{plan.number} {plan.name}"  # type: ignore[method-assign,assignment]

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

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        # A form without the choice (a script, an older page) reads a date as "on a date".
        if not cleaned.get("expires_in"):
            cleaned["expires_in"] = ON_A_DATE if cleaned.get("expires_on") else DEFAULT_EXPIRY
        if (
            cleaned["expires_in"] == ON_A_DATE
            and cleaned.get("expires_on") is None
            and "expires_on" not in self.errors
        ):
            self.add_error("expires_on", "Choose the date the key stops working.")
        return cleaned

    @property
    def expires_at(self) -> datetime | None:
        choice = self.cleaned_data["expires_in"]
        if choice == NO_EXPIRY:
            return None
        if choice == ON_A_DATE:
            return datetime.combine(self.cleaned_data["expires_on"], time.min, tzinfo=UTC)
        return timezone.now() + timedelta(days=int(choice))

    def create_kwargs(self) -> dict[str, Any]:
        plans = list(self.cleaned_data.get("plans") or [])
        return {
            "name": self.cleaned_data["name"],
            "expires_at": self.expires_at,
            "plans": plans or None,
            "permission": self.cleaned_data.get("permission") or ApiKey.Permission.READ,
        }


class ApiKeyRollForm(forms.Form):
    grace = forms.TypedChoiceField(
        choices=GRACE_CHOICES,
        coerce=lambda seconds: timedelta(seconds=int(seconds)),
        initial="86400",
        label="The old key keeps working for",
        help_text="Time to put the new key in place. Afterwards the old key answers 401 "
        "auth.api_key_expired.",
    )

    def __init__(self, *args: Any, at_limit: bool = False, **kwargs: Any) -> None:
        """``at_limit``: the account already has API_KEYS_MAX_ACTIVE live keys, so only a roll
        without grace is possible (apikeys.services.api_key_roll refuses the others);
        the form then starts on “None” and says why."""
        super().__init__(*args, **kwargs)
        if at_limit:
            grace = self.fields["grace"]
            grace.initial = "0"
            grace.help_text = (
                "You have the most live keys an account may have, a rolled key in its grace "
                "included: the old key can only stop now. To keep it working for a while, "
                "revoke a key you no longer use first."
            )


class ServiceAccountRenameForm(forms.Form):
    name = forms.CharField(
        max_length=100,
        help_text="What the API and the history call it.",
        error_messages={"required": "Give the service account a name."},
    )

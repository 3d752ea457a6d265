from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import QuerySet

from planning.models import Plan
from webhooks.models import WebhookEndpoint


def _plan_label(plan: Plan) -> str:
    return f"{plan.number} · {plan.name}"


class EndpointCreateForm(forms.Form):
    ALL, CHOSEN = "all", "chosen"

    url = forms.CharField(
        label="URL",
        max_length=WebhookEndpoint._meta.get_field("url").max_length,
        help_text="Where Maintplan POSTs the events, e.g. https://erp.example.com/maintplan.",
        widget=forms.URLInput(attrs={"placeholder": "https://", "autocomplete": "off"}),
    )
    description = forms.CharField(
        required=False,
        max_length=WebhookEndpoint._meta.get_field("description").max_length,
        help_text="What receives the events (optional).",
    )
    plan_scope = forms.ChoiceField(
        label="Plans",
        choices=[(ALL, "Every plan I can see, now and later"), (CHOSEN, "Only these plans:")],
        initial=ALL,
        widget=forms.RadioSelect,
    )
    plans = forms.ModelMultipleChoiceField(
        label="Chosen plans",
        queryset=Plan.objects.none(),
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )

    def __init__(self, *args: Any, plans: QuerySet[Plan], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        plans_field = self.fields["plans"]
        assert isinstance(plans_field, forms.ModelMultipleChoiceField)
        plans_field.queryset = plans
        plans_field.label_from_instance = _plan_label  # type: ignore[method-assign,assignment]

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        if cleaned.get("plan_scope") == self.CHOSEN and not cleaned.get("plans"):
            self.add_error("plans", "Choose at least one plan, or every plan.")
        return cleaned

    def create_kwargs(self) -> dict[str, Any]:
        chosen = self.cleaned_data["plan_scope"] == self.CHOSEN
        return {
            "url": self.cleaned_data["url"],
            "description": self.cleaned_data["description"],
            "plans": list(self.cleaned_data["plans"]) if chosen else None,
        }

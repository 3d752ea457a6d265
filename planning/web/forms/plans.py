"""The forms of a plan's own pages (the plan list, the Settings tab): creating and importing a
plan, its name and currency, its prices and markups, deleting it. The field rules live on the
models (planning.models): the forms that edit a model are ModelForms built by
`model_rules_formfield` (planning.web.forms.fields), so they refuse a bad value with the model's
own message, and show the services' other errors beside their fields."""

from __future__ import annotations

import uuid
from typing import Any, ClassVar

from django import forms
from django.conf import settings
from django.core.exceptions import ValidationError

from organisations.models import Organisation
from planning.figures.prices import Markup, markups_stored, plan_markups
from planning.models import Plan
from planning.models.plans import (
    MARKUP_NAME_MAX,
    MARKUP_RANGE,
    MARKUPS_MAX,
    markups_validate,
)
from planning.transfer import xlsx
from planning.transfer.imports.plan_fields import import_currency_default
from planning.web.forms.fields import ModelRulesForm


class PlanCreateForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = Plan
        fields = ("name", "description")
        widgets: ClassVar = {"description": forms.Textarea(attrs={"rows": 2})}


class PlanImportForm(forms.Form):
    """A plan file (JSON, an Excel workbook, or one sheet: a workbook or CSV file whose columns
    are mapped next), or the CSV pair nodes.csv + actions.csv with
    an optional plan.csv; and the currency for a file that names none, the organisation's
    default at first (planning.transfer.imports.plan_fields.import_currency_default)."""

    name = forms.CharField(
        max_length=Plan._meta.get_field("name").max_length,
        required=False,
        help_text="Optional: the name in the file, else the file's name, is used.",
    )
    # Empty (a client that sends none): the organisation's default, when the import runs.
    currency = forms.CharField(
        required=False,
        max_length=Plan._meta.get_field("currency").max_length,
        help_text="ISO 4217 code, e.g. EUR, SEK. Used when the file names no currency.",
        widget=forms.TextInput(attrs={"size": 4, "autocapitalize": "characters"}),
    )
    plan_file = forms.FileField(
        required=False,
        label="Plan file (Excel, CSV or JSON)",
        help_text="One sheet as you keep it (you choose which column is which next), or a "
        "plan workbook or JSON file.",
        widget=forms.ClearableFileInput(
            attrs={"accept": ".xlsx,.csv,.txt,.json,text/csv,application/json," + xlsx.CONTENT_TYPE}
        ),
    )
    nodes_csv = forms.FileField(
        required=False,
        label="or nodes.csv",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv"}),
    )
    actions_csv = forms.FileField(
        required=False,
        label="and actions.csv",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv"}),
    )
    plan_csv = forms.FileField(
        required=False,
        label="and optionally plan.csv",
        help_text="The plan's name, currency and prices, a field and its value per line.",
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,.txt,text/csv"}),
    )
    # A new value each time the form is shown: the same form sent twice is one import.
    idempotency_key = forms.CharField(
        required=False, max_length=64, widget=forms.HiddenInput, initial=lambda: uuid.uuid4().hex
    )
    field_order = ("name", "plan_file", "nodes_csv", "actions_csv", "plan_csv", "currency")

    def __init__(self, *args: Any, organisation: Organisation | None = None, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.fields["currency"].initial = import_currency_default(organisation=organisation)

    def clean_currency(self) -> str:
        """Checked as the Plan model checks a currency, with its message."""
        currency = str(self.cleaned_data.get("currency") or "").strip().upper()
        if currency:
            Plan._meta.get_field("currency").run_validators(currency)
        return currency

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        plan_file = cleaned.get("plan_file")
        nodes_csv, actions_csv = cleaned.get("nodes_csv"), cleaned.get("actions_csv")
        if plan_file and (nodes_csv or actions_csv or cleaned.get("plan_csv")):
            raise ValidationError("Upload either a plan file or the CSV pair, not both.")
        if not plan_file and not (nodes_csv and actions_csv):
            if nodes_csv or actions_csv or cleaned.get("plan_csv"):
                raise ValidationError("A CSV import needs both nodes.csv and actions.csv.")
            raise ValidationError("Choose a plan file (Excel, CSV or JSON), or both CSV files.")
        limit = settings.IMPORT_MAX_BYTES
        for field_name in ("plan_file", "nodes_csv", "actions_csv", "plan_csv"):
            upload = cleaned.get(field_name)
            if upload is not None and upload.size > limit:
                self.add_error(
                    field_name, f"The file is too large ({upload.size} bytes, at most {limit})."
                )
        return cleaned


class PlanSettingsForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = Plan
        fields = ("name", "description", "currency")
        widgets: ClassVar = {"description": forms.Textarea(attrs={"rows": 3})}

    def clean_currency(self) -> str:
        return str(self.cleaned_data.get("currency") or "").strip().upper()


class PlanMoneyForm(ModelRulesForm):
    """The plan's prices (docs/subsystems/money.md): the base year and index rate are required;
    the markups are rows of a name and a percentage, in the order they apply (a row left blank
    is skipped); the budget is optional."""

    class Meta(ModelRulesForm.Meta):
        model = Plan
        fields = ("price_base_year", "index_rate_percent", "annual_budget")
        labels: ClassVar = {
            "price_base_year": "Price base year",
            "index_rate_percent": "Index rate (% a year)",
            "annual_budget": "Annual budget (today's prices)",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        shown = plan_markups(self.instance) if self.instance.pk else ()
        for row in range(1, MARKUPS_MAX + 1):
            markup = shown[row - 1] if row <= len(shown) else None
            self.fields[f"markup_{row}_name"] = forms.CharField(
                label=f"Markup {row}: name",
                required=False,
                max_length=MARKUP_NAME_MAX,
                initial=markup.name if markup else "",
                widget=forms.TextInput(attrs={"aria-label": f"Markup {row}: name"}),
            )
            self.fields[f"markup_{row}_percent"] = forms.DecimalField(
                label=f"Markup {row}: percentage",
                required=False,
                min_value=MARKUP_RANGE[0],
                max_value=MARKUP_RANGE[1],
                max_digits=5,
                decimal_places=2,
                error_messages={
                    "min_value": "Enter a percentage between 0 and 100.",
                    "max_value": "Enter a percentage between 0 and 100.",
                },
                initial=markup.percent if markup else None,
                widget=forms.NumberInput(
                    attrs={"aria-label": f"Markup {row}: percentage", "step": "0.01"}
                ),
            )

    def price_fields(self) -> list[forms.BoundField]:
        """The fields above the markups' table."""
        return [self["price_base_year"], self["index_rate_percent"]]

    def markup_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        """The (name, percentage) fields of each row, for the template's table."""
        return [
            (self[f"markup_{row}_name"], self[f"markup_{row}_percent"])
            for row in range(1, MARKUPS_MAX + 1)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        markups: list[Markup] = []
        for row in range(1, MARKUPS_MAX + 1):
            name = (data.pop(f"markup_{row}_name", "") or "").strip()
            percent = data.pop(f"markup_{row}_percent", None)
            if not name and percent is None:
                continue
            if not name:
                self.add_error(f"markup_{row}_name", "Give the markup a name, e.g. “Overhead”.")
            elif percent is None:
                self.add_error(f"markup_{row}_percent", "Give the markup's percentage.")
            else:
                markups.append(Markup(name=name, percent=percent))
        try:
            markups_validate(markups_stored(markups))
        except ValidationError as error:
            self.add_error(None, error)
        data["markups"] = markups
        return data


class PlanDeleteForm(forms.Form):
    confirm_name = forms.CharField(
        label="Type the plan's name to confirm", max_length=200, strip=False
    )

    def __init__(self, *args: Any, plan: Plan, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan = plan

    def clean_confirm_name(self) -> str:
        typed = self.cleaned_data["confirm_name"]
        if typed.strip() != self.plan.name:
            raise ValidationError("That is not the name of the plan; nothing was deleted.")
        return typed

"""The mapping step of a one-sheet import (docs/subsystems/import-mapping.md "The mapping
page"): a select per column of the file, the currency of its amounts and the plan's name."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django import forms

from planning.models import Plan
from planning.transfer.imports.sheet.fields import FIELD_CHOICES

# Offered first in the currency select; the organisation's own is added when it is another.
COMMON_CURRENCIES = ("EUR", "SEK", "NOK", "DKK", "ISK", "CHF", "GBP", "USD", "PLN")


class SheetMappingForm(forms.Form):
    name = forms.CharField(
        max_length=Plan._meta.get_field("name").max_length,
        required=False,
        label="Plan name",
        help_text="Optional: else the file's name.",
    )
    currency = forms.ChoiceField(
        label="Amounts are in",
        help_text="Used when the file names no currency (a currency column, or SEK, € beside "
        "its costs).",
    )

    def __init__(
        self,
        *args: Any,
        headers: Sequence[str],
        columns: Sequence[str],
        currency: str,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.headers = list(headers)
        codes = list(dict.fromkeys([currency, *COMMON_CURRENCIES]))
        currency_field = self.fields["currency"]
        assert isinstance(currency_field, forms.ChoiceField)
        currency_field.choices = [(code, code) for code in codes]
        self.fields["currency"].initial = currency
        for index, (title, field) in enumerate(zip(headers, columns, strict=True)):
            self.fields[f"column_{index}"] = forms.ChoiceField(
                choices=FIELD_CHOICES,
                required=False,
                initial=field,
                label=title or f"Column {index + 1} (no header)",
            )

    def column_fields(self) -> list[forms.BoundField]:
        return [self[f"column_{index}"] for index in range(len(self.headers))]

    def columns(self) -> list[str]:
        """The mapping chosen (a valid form's)."""
        return [self.cleaned_data[f"column_{index}"] or "" for index in range(len(self.headers))]

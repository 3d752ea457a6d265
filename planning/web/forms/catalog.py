"""The forms of the organisation's catalog pages (planning.catalog.services): searching the
catalog, a code of the organisation's own, its figures for a starter code, the currency of its
figures, and a catalog CSV to import."""

from __future__ import annotations

from typing import ClassVar

from django import forms

from planning.catalog.imports import CATALOG_COLUMNS
from planning.models import Code, CodeOverride, OrganisationCatalog
from planning.web.forms.fields import ModelRulesForm


class CodeSearchForm(forms.Form):
    q = forms.CharField(max_length=100, required=False, label="Search the catalog")


class OwnCodeForm(ModelRulesForm):
    """A code of the organisation's own (planning.catalog.services)."""

    class Meta(ModelRulesForm.Meta):
        model = Code
        fields = CATALOG_COLUMNS  # the catalog CSV's columns, in its order
        widgets: ClassVar = {"keywords": forms.TextInput()}


class CodeOverrideForm(ModelRulesForm):
    """The organisation's figures for a starter code; an empty field keeps the starter's."""

    class Meta(ModelRulesForm.Meta):
        model = CodeOverride
        fields = ("unit_cost", "service_life_years", "interval_years")
        labels: ClassVar = {
            "unit_cost": "Your unit cost",
            "service_life_years": "Your service life (years)",
            "interval_years": "Your interval (years)",
        }


class CatalogCurrencyForm(ModelRulesForm):
    """The currency of the organisation's own figures (planning.catalog.services)."""

    class Meta(ModelRulesForm.Meta):
        model = OrganisationCatalog
        fields = ("currency",)
        labels: ClassVar = {"currency": "Currency of your figures"}

    def clean_currency(self) -> str:
        return str(self.cleaned_data.get("currency") or "").strip().upper()


class CatalogUploadForm(forms.Form):
    file = forms.FileField(
        label="Catalog CSV",
        help_text=(
            "Columns code (required), name, unit, unit_cost, service_life_years, "
            "interval_years, keywords; an empty cell changes nothing."
        ),
        widget=forms.ClearableFileInput(attrs={"accept": ".csv,text/csv"}),
    )
    currency = forms.CharField(
        max_length=3,
        required=False,
        label="Currency of the file's unit costs",
        help_text="Another than your catalog's becomes its currency; no figure is converted.",
    )

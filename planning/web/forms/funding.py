"""The Funding tab's forms: the fund's settings, a scenario's, and which scenarios to compare
(docs/subsystems/funding.md). The rules are the models' (planning.models.funding)."""

from __future__ import annotations

from typing import Any, ClassVar

from django import forms

from planning.models import Fund, FundingGoal, FundingScenario
from planning.plans.services.funding import FUND_FIELDS, SCENARIO_FIELDS
from planning.web.forms.fields import ModelRulesForm

COMPARED_MAX = 4  # scenarios side by side

_LABELS = {
    "opening_balance": "Opening balance",
    "start_year": "Start year",
    "interest_percent": "Interest (% a year)",
    "contribution": "Contribution in the first year",
    "contribution_increase_percent": "Yearly increase of the contribution (%)",
    "horizon_years": "Horizon (years)",
}


def _decimal_steps(form: forms.BaseForm) -> None:
    """Cents and hundredths of a percent can be typed (a NumberInput's step)."""
    for field in form.fields.values():
        if isinstance(field, forms.DecimalField):
            field.widget.attrs["step"] = "0.01"


class FundForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = Fund
        fields = FUND_FIELDS
        labels: ClassVar = {
            **_LABELS,
            "threshold_amount": "Threshold goal: lowest balance (optional)",
            "threshold_percent": "Threshold goal: lowest percent funded (optional)",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        _decimal_steps(self)


class ScenarioForm(ModelRulesForm):
    class Meta(ModelRulesForm.Meta):
        model = FundingScenario
        fields = SCENARIO_FIELDS
        labels: ClassVar = {
            **_LABELS,
            "name": "Name",
            "contribution": "Contribution in the first year (empty with a goal)",
            "goal": "Or solve the contribution for a goal",
            "goal_threshold": "The threshold goal's amount or percent funded",
            "index_rate_percent": "Another index rate for the costs (% a year, optional)",
            "annual_budget": "Annual budget: the most paid in a year (optional)",
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["goal"] = forms.ChoiceField(
            label=self._meta.labels["goal"],  # type: ignore[index]
            required=False,
            choices=[("", "None: pay the contribution above"), *FundingGoal.choices],
        )
        _decimal_steps(self)


class CompareForm(forms.Form):
    """Up to COMPARED_MAX of the plan's scenarios, by id (the tab's GET query)."""

    compare = forms.MultipleChoiceField(required=False, label="Compare")

    def __init__(self, *args: Any, scenarios: list[FundingScenario], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["compare"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = [(str(s.pk), s.name) for s in scenarios]
        self.scenarios = {str(s.pk): s for s in scenarios}

    def clean_compare(self) -> list[str]:
        chosen: list[str] = self.cleaned_data["compare"]
        if len(chosen) > COMPARED_MAX:
            raise forms.ValidationError(f"Choose at most {COMPARED_MAX} scenarios to compare.")
        return chosen

    def chosen(self) -> list[FundingScenario]:
        """The scenarios chosen, or the first COMPARED_MAX without a valid choice."""
        if self.is_bound and self.is_valid() and self.cleaned_data["compare"]:
            return [self.scenarios[pk] for pk in self.cleaned_data["compare"]]
        return list(self.scenarios.values())[:COMPARED_MAX]

"""Writes of a plan's fund and funding scenarios (docs/subsystems/funding.md). Each is one
`plan_write` (planning.core.writes): the plan's data version rises, so its ETags and cached
figures follow, and the history triggers record the change (planning.db.tracked)."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError

from planning.core.validation import validated
from planning.core.writes import plan_write
from planning.models import SCENARIOS_MAX, Fund, FundingScenario, Plan

FUND_FIELDS = (
    "opening_balance",
    "start_year",
    "interest_percent",
    "contribution",
    "contribution_increase_percent",
    "horizon_years",
    "threshold_amount",
    "threshold_percent",
)
SCENARIO_FIELDS = (
    "name",
    "opening_balance",
    "start_year",
    "interest_percent",
    "contribution",
    "contribution_increase_percent",
    "goal",
    "goal_threshold",
    "horizon_years",
    "index_rate_percent",
    "annual_budget",
)


def _assign(instance: Any, fields: tuple[str, ...], values: dict[str, Any]) -> None:
    for name in fields:
        if name in values:
            value = values[name]
            setattr(instance, name, value.strip() if isinstance(value, str) else value)


def fund_save(*, plan: Plan, values: dict[str, Any]) -> Fund:
    """The plan's fund with these settings (FUND_FIELDS), made when it has none."""
    fund = Fund.objects.filter(plan=plan).first() or Fund(plan=plan)
    _assign(fund, FUND_FIELDS, values)
    validated(fund)
    with plan_write(plan_id=plan.pk, data_changed=True):
        fund.save()
    return fund


def fund_delete(*, plan: Plan) -> bool:
    """Removes the plan's fund (its scenarios stay). False when it had none."""
    with plan_write(plan_id=plan.pk, data_changed=True) as write:
        deleted, _ = Fund.objects.filter(plan=plan).delete()
        write.data_changed = bool(deleted)
    return bool(deleted)


def _name_free(scenario: FundingScenario) -> None:
    taken = FundingScenario.objects.filter(plan_id=scenario.plan_id, name__iexact=scenario.name)
    if taken.exclude(pk=scenario.pk).exists():
        raise ValidationError({"name": f"The plan has a scenario named “{scenario.name}”."})


def scenario_create(*, plan: Plan, values: dict[str, Any]) -> FundingScenario:
    """A new named scenario of the plan (at most SCENARIOS_MAX)."""
    scenario = FundingScenario(plan=plan)
    _assign(scenario, SCENARIO_FIELDS, values)
    validated(scenario)
    with plan_write(plan_id=plan.pk, data_changed=True):
        if FundingScenario.objects.filter(plan=plan).count() >= SCENARIOS_MAX:
            raise ValidationError(
                f"A plan keeps at most {SCENARIOS_MAX} scenarios: delete one first."
            )
        _name_free(scenario)
        scenario.save(force_insert=True)
    return scenario


def scenario_update(*, scenario: FundingScenario, values: dict[str, Any]) -> FundingScenario:
    _assign(scenario, SCENARIO_FIELDS, values)
    validated(scenario)
    with plan_write(plan_id=scenario.plan_id, data_changed=True):
        _name_free(scenario)
        scenario.save()
    return scenario


def scenario_delete(*, scenario: FundingScenario) -> None:
    with plan_write(plan_id=scenario.plan_id, data_changed=True):
        scenario.delete()

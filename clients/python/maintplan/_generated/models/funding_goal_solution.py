from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.funding_goal_enum import FundingGoalEnum

T = TypeVar("T", bound="FundingGoalSolution")


@_attrs_define
class FundingGoalSolution:
    """
    Attributes:
        goal (FundingGoalEnum): * `baseline` - Baseline: the balance never below zero
            * `threshold_amount` - Threshold: the balance never below an amount
            * `threshold_percent` - Threshold: percent funded never below a share
            * `full` - Full: 100 % funded by the last year
        threshold (None | str):
        increase_percent (str):
        contribution (None | str): The smallest first-year contribution that meets the goal, to the cent; null when none
            up to `bound` does.
        bound (str): 10 x the largest yearly cost. Example: 1234.50.
        met (bool): False when none within the bound or budget.
        over_budget (bool):
        statement (str):
    """

    goal: FundingGoalEnum
    threshold: None | str
    increase_percent: str
    contribution: None | str
    bound: str
    met: bool
    over_budget: bool
    statement: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        goal = self.goal.value

        threshold: None | str
        threshold = self.threshold

        increase_percent = self.increase_percent

        contribution: None | str
        contribution = self.contribution

        bound = self.bound

        met = self.met

        over_budget = self.over_budget

        statement = self.statement

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "goal": goal,
                "threshold": threshold,
                "increase_percent": increase_percent,
                "contribution": contribution,
                "bound": bound,
                "met": met,
                "over_budget": over_budget,
                "statement": statement,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        goal = FundingGoalEnum(d.pop("goal"))

        def _parse_threshold(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        threshold = _parse_threshold(d.pop("threshold"))

        increase_percent = d.pop("increase_percent")

        def _parse_contribution(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contribution = _parse_contribution(d.pop("contribution"))

        bound = d.pop("bound")

        met = d.pop("met")

        over_budget = d.pop("over_budget")

        statement = d.pop("statement")

        funding_goal_solution = cls(
            goal=goal,
            threshold=threshold,
            increase_percent=increase_percent,
            contribution=contribution,
            bound=bound,
            met=met,
            over_budget=over_budget,
            statement=statement,
        )

        funding_goal_solution.additional_properties = d
        return funding_goal_solution

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

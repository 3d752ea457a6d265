from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FundingScenarioSettings")


@_attrs_define
class FundingScenarioSettings:
    """
    Attributes:
        id (UUID):
        name (str):
        opening_balance (str):
        start_year (int):
        interest_percent (str):
        contribution (None | str): Null when the goal sets it.
        contribution_increase_percent (str):
        goal (str): Empty: the contribution given.
        goal_threshold (None | str):
        horizon_years (int):
        index_rate_percent (None | str):
        annual_budget (None | str):
    """

    id: UUID
    name: str
    opening_balance: str
    start_year: int
    interest_percent: str
    contribution: None | str
    contribution_increase_percent: str
    goal: str
    goal_threshold: None | str
    horizon_years: int
    index_rate_percent: None | str
    annual_budget: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        name = self.name

        opening_balance = self.opening_balance

        start_year = self.start_year

        interest_percent = self.interest_percent

        contribution: None | str
        contribution = self.contribution

        contribution_increase_percent = self.contribution_increase_percent

        goal = self.goal

        goal_threshold: None | str
        goal_threshold = self.goal_threshold

        horizon_years = self.horizon_years

        index_rate_percent: None | str
        index_rate_percent = self.index_rate_percent

        annual_budget: None | str
        annual_budget = self.annual_budget

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "opening_balance": opening_balance,
                "start_year": start_year,
                "interest_percent": interest_percent,
                "contribution": contribution,
                "contribution_increase_percent": contribution_increase_percent,
                "goal": goal,
                "goal_threshold": goal_threshold,
                "horizon_years": horizon_years,
                "index_rate_percent": index_rate_percent,
                "annual_budget": annual_budget,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        name = d.pop("name")

        opening_balance = d.pop("opening_balance")

        start_year = d.pop("start_year")

        interest_percent = d.pop("interest_percent")

        def _parse_contribution(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        contribution = _parse_contribution(d.pop("contribution"))

        contribution_increase_percent = d.pop("contribution_increase_percent")

        goal = d.pop("goal")

        def _parse_goal_threshold(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        goal_threshold = _parse_goal_threshold(d.pop("goal_threshold"))

        horizon_years = d.pop("horizon_years")

        def _parse_index_rate_percent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        index_rate_percent = _parse_index_rate_percent(d.pop("index_rate_percent"))

        def _parse_annual_budget(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        annual_budget = _parse_annual_budget(d.pop("annual_budget"))

        funding_scenario_settings = cls(
            id=id,
            name=name,
            opening_balance=opening_balance,
            start_year=start_year,
            interest_percent=interest_percent,
            contribution=contribution,
            contribution_increase_percent=contribution_increase_percent,
            goal=goal,
            goal_threshold=goal_threshold,
            horizon_years=horizon_years,
            index_rate_percent=index_rate_percent,
            annual_budget=annual_budget,
        )

        funding_scenario_settings.additional_properties = d
        return funding_scenario_settings

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.funding_goal_solution import FundingGoalSolution
    from ..models.funding_percent_at import FundingPercentAt
    from ..models.funding_year import FundingYear


T = TypeVar("T", bound="FundingFlow")


@_attrs_define
class FundingFlow:
    """
    Attributes:
        years_and_prices (str):
        lowest_balance (str):  Example: 1234.50.
        lowest_balance_year (int):
        total_contributions (str):  Example: 1234.50.
        percent_funded_at (list[FundingPercentAt]): Percent funded in the 5th, 10th, 20th and 30th year.
        components_counted (int):
        components_left_out (int):
        years (list[FundingYear]):
        goals (list[FundingGoalSolution]):
    """

    years_and_prices: str
    lowest_balance: str
    lowest_balance_year: int
    total_contributions: str
    percent_funded_at: list[FundingPercentAt]
    components_counted: int
    components_left_out: int
    years: list[FundingYear]
    goals: list[FundingGoalSolution]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        years_and_prices = self.years_and_prices

        lowest_balance = self.lowest_balance

        lowest_balance_year = self.lowest_balance_year

        total_contributions = self.total_contributions

        percent_funded_at = []
        for percent_funded_at_item_data in self.percent_funded_at:
            percent_funded_at_item = percent_funded_at_item_data.to_dict()
            percent_funded_at.append(percent_funded_at_item)

        components_counted = self.components_counted

        components_left_out = self.components_left_out

        years = []
        for years_item_data in self.years:
            years_item = years_item_data.to_dict()
            years.append(years_item)

        goals = []
        for goals_item_data in self.goals:
            goals_item = goals_item_data.to_dict()
            goals.append(goals_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "years_and_prices": years_and_prices,
                "lowest_balance": lowest_balance,
                "lowest_balance_year": lowest_balance_year,
                "total_contributions": total_contributions,
                "percent_funded_at": percent_funded_at,
                "components_counted": components_counted,
                "components_left_out": components_left_out,
                "years": years,
                "goals": goals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.funding_goal_solution import FundingGoalSolution
        from ..models.funding_percent_at import FundingPercentAt
        from ..models.funding_year import FundingYear

        d = dict(src_dict)
        years_and_prices = d.pop("years_and_prices")

        lowest_balance = d.pop("lowest_balance")

        lowest_balance_year = d.pop("lowest_balance_year")

        total_contributions = d.pop("total_contributions")

        percent_funded_at = []
        _percent_funded_at = d.pop("percent_funded_at")
        for percent_funded_at_item_data in _percent_funded_at:
            percent_funded_at_item = FundingPercentAt.from_dict(
                percent_funded_at_item_data
            )

            percent_funded_at.append(percent_funded_at_item)

        components_counted = d.pop("components_counted")

        components_left_out = d.pop("components_left_out")

        years = []
        _years = d.pop("years")
        for years_item_data in _years:
            years_item = FundingYear.from_dict(years_item_data)

            years.append(years_item)

        goals = []
        _goals = d.pop("goals")
        for goals_item_data in _goals:
            goals_item = FundingGoalSolution.from_dict(goals_item_data)

            goals.append(goals_item)

        funding_flow = cls(
            years_and_prices=years_and_prices,
            lowest_balance=lowest_balance,
            lowest_balance_year=lowest_balance_year,
            total_contributions=total_contributions,
            percent_funded_at=percent_funded_at,
            components_counted=components_counted,
            components_left_out=components_left_out,
            years=years,
            goals=goals,
        )

        funding_flow.additional_properties = d
        return funding_flow

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FundSettings")


@_attrs_define
class FundSettings:
    """
    Attributes:
        opening_balance (str):
        start_year (int):
        interest_percent (str):
        contribution (str):
        contribution_increase_percent (str):
        horizon_years (int):
        threshold_amount (None | str):
        threshold_percent (None | str):
    """

    opening_balance: str
    start_year: int
    interest_percent: str
    contribution: str
    contribution_increase_percent: str
    horizon_years: int
    threshold_amount: None | str
    threshold_percent: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        opening_balance = self.opening_balance

        start_year = self.start_year

        interest_percent = self.interest_percent

        contribution = self.contribution

        contribution_increase_percent = self.contribution_increase_percent

        horizon_years = self.horizon_years

        threshold_amount: None | str
        threshold_amount = self.threshold_amount

        threshold_percent: None | str
        threshold_percent = self.threshold_percent

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "opening_balance": opening_balance,
                "start_year": start_year,
                "interest_percent": interest_percent,
                "contribution": contribution,
                "contribution_increase_percent": contribution_increase_percent,
                "horizon_years": horizon_years,
                "threshold_amount": threshold_amount,
                "threshold_percent": threshold_percent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        opening_balance = d.pop("opening_balance")

        start_year = d.pop("start_year")

        interest_percent = d.pop("interest_percent")

        contribution = d.pop("contribution")

        contribution_increase_percent = d.pop("contribution_increase_percent")

        horizon_years = d.pop("horizon_years")

        def _parse_threshold_amount(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        threshold_amount = _parse_threshold_amount(d.pop("threshold_amount"))

        def _parse_threshold_percent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        threshold_percent = _parse_threshold_percent(d.pop("threshold_percent"))

        fund_settings = cls(
            opening_balance=opening_balance,
            start_year=start_year,
            interest_percent=interest_percent,
            contribution=contribution,
            contribution_increase_percent=contribution_increase_percent,
            horizon_years=horizon_years,
            threshold_amount=threshold_amount,
            threshold_percent=threshold_percent,
        )

        fund_settings.additional_properties = d
        return fund_settings

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

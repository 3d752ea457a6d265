from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="FundingPercentAt")


@_attrs_define
class FundingPercentAt:
    """
    Attributes:
        year_of_horizon (int):
        percent_funded (None | str):
    """

    year_of_horizon: int
    percent_funded: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        year_of_horizon = self.year_of_horizon

        percent_funded: None | str
        percent_funded = self.percent_funded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "year_of_horizon": year_of_horizon,
                "percent_funded": percent_funded,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        year_of_horizon = d.pop("year_of_horizon")

        def _parse_percent_funded(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        percent_funded = _parse_percent_funded(d.pop("percent_funded"))

        funding_percent_at = cls(
            year_of_horizon=year_of_horizon,
            percent_funded=percent_funded,
        )

        funding_percent_at.additional_properties = d
        return funding_percent_at

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

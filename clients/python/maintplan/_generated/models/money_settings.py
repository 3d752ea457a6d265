from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MoneySettings")


@_attrs_define
class MoneySettings:
    """
    Attributes:
        price_base_year (int):
        index_rate_percent (str):
        overhead_percent (str):
        vat_percent (str):
        annual_budget (None | str):
    """

    price_base_year: int
    index_rate_percent: str
    overhead_percent: str
    vat_percent: str
    annual_budget: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        price_base_year = self.price_base_year

        index_rate_percent = self.index_rate_percent

        overhead_percent = self.overhead_percent

        vat_percent = self.vat_percent

        annual_budget: None | str
        annual_budget = self.annual_budget

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "price_base_year": price_base_year,
                "index_rate_percent": index_rate_percent,
                "overhead_percent": overhead_percent,
                "vat_percent": vat_percent,
                "annual_budget": annual_budget,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        price_base_year = d.pop("price_base_year")

        index_rate_percent = d.pop("index_rate_percent")

        overhead_percent = d.pop("overhead_percent")

        vat_percent = d.pop("vat_percent")

        def _parse_annual_budget(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        annual_budget = _parse_annual_budget(d.pop("annual_budget"))

        money_settings = cls(
            price_base_year=price_base_year,
            index_rate_percent=index_rate_percent,
            overhead_percent=overhead_percent,
            vat_percent=vat_percent,
            annual_budget=annual_budget,
        )

        money_settings.additional_properties = d
        return money_settings

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="KeyFigures")


@_attrs_define
class KeyFigures:
    """
    Attributes:
        year_from (int):
        year_to (int):
        ten_year_cost (str):
        cost_per_m2_year (None | str):
        maintenance_debt (str):
        debt_per_m2 (None | str):
        gross_floor_area_m2 (None | str):
    """

    year_from: int
    year_to: int
    ten_year_cost: str
    cost_per_m2_year: None | str
    maintenance_debt: str
    debt_per_m2: None | str
    gross_floor_area_m2: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        year_from = self.year_from

        year_to = self.year_to

        ten_year_cost = self.ten_year_cost

        cost_per_m2_year: None | str
        cost_per_m2_year = self.cost_per_m2_year

        maintenance_debt = self.maintenance_debt

        debt_per_m2: None | str
        debt_per_m2 = self.debt_per_m2

        gross_floor_area_m2: None | str
        gross_floor_area_m2 = self.gross_floor_area_m2

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "year_from": year_from,
                "year_to": year_to,
                "ten_year_cost": ten_year_cost,
                "cost_per_m2_year": cost_per_m2_year,
                "maintenance_debt": maintenance_debt,
                "debt_per_m2": debt_per_m2,
                "gross_floor_area_m2": gross_floor_area_m2,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        year_from = d.pop("year_from")

        year_to = d.pop("year_to")

        ten_year_cost = d.pop("ten_year_cost")

        def _parse_cost_per_m2_year(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        cost_per_m2_year = _parse_cost_per_m2_year(d.pop("cost_per_m2_year"))

        maintenance_debt = d.pop("maintenance_debt")

        def _parse_debt_per_m2(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        debt_per_m2 = _parse_debt_per_m2(d.pop("debt_per_m2"))

        def _parse_gross_floor_area_m2(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        gross_floor_area_m2 = _parse_gross_floor_area_m2(d.pop("gross_floor_area_m2"))

        key_figures = cls(
            year_from=year_from,
            year_to=year_to,
            ten_year_cost=ten_year_cost,
            cost_per_m2_year=cost_per_m2_year,
            maintenance_debt=maintenance_debt,
            debt_per_m2=debt_per_m2,
            gross_floor_area_m2=gross_floor_area_m2,
        )

        key_figures.additional_properties = d
        return key_figures

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

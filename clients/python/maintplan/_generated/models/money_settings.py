from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.markup import Markup


T = TypeVar("T", bound="MoneySettings")


@_attrs_define
class MoneySettings:
    """
    Attributes:
        price_base_year (int):
        index_rate_percent (str):
        markups (list[Markup]): Named percentages in the order they apply, each on the amount before it.
        overhead_percent (str): The first markup (for clients written before `markups`).
        vat_percent (str): The last markup when there are two or more (for clients written before `markups`).
        annual_budget (None | str):
    """

    price_base_year: int
    index_rate_percent: str
    markups: list[Markup]
    overhead_percent: str
    vat_percent: str
    annual_budget: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        price_base_year = self.price_base_year

        index_rate_percent = self.index_rate_percent

        markups = []
        for markups_item_data in self.markups:
            markups_item = markups_item_data.to_dict()
            markups.append(markups_item)

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
                "markups": markups,
                "overhead_percent": overhead_percent,
                "vat_percent": vat_percent,
                "annual_budget": annual_budget,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.markup import Markup

        d = dict(src_dict)
        price_base_year = d.pop("price_base_year")

        index_rate_percent = d.pop("index_rate_percent")

        markups = []
        _markups = d.pop("markups")
        for markups_item_data in _markups:
            markups_item = Markup.from_dict(markups_item_data)

            markups.append(markups_item)

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
            markups=markups,
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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fci_band_enum import FciBandEnum

T = TypeVar("T", bound="PortfolioTotal")


@_attrs_define
class PortfolioTotal:
    """
    Attributes:
        fci_percent (None | str): The facility condition index in percent, area-weighted over the buildings with a
            replacement value and an area; null without any.
        fci_band (FciBandEnum | None): good (< 5 %), fair (< 10 %), poor (< 30 %) or critical; null without an FCI.

            * `good` - good
            * `fair` - fair
            * `poor` - poor
            * `critical` - critical
        currency (str):
        plans (int): Matching plans in this currency.
        ten_year_cost (str):
        maintenance_debt (str):
        critical_open (int):
        years_over_budget (int): The plans' years over budget, added up.
    """

    fci_percent: None | str
    fci_band: FciBandEnum | None
    currency: str
    plans: int
    ten_year_cost: str
    maintenance_debt: str
    critical_open: int
    years_over_budget: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fci_percent: None | str
        fci_percent = self.fci_percent

        fci_band: None | str
        if isinstance(self.fci_band, FciBandEnum):
            fci_band = self.fci_band.value
        else:
            fci_band = self.fci_band

        currency = self.currency

        plans = self.plans

        ten_year_cost = self.ten_year_cost

        maintenance_debt = self.maintenance_debt

        critical_open = self.critical_open

        years_over_budget = self.years_over_budget

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fci_percent": fci_percent,
                "fci_band": fci_band,
                "currency": currency,
                "plans": plans,
                "ten_year_cost": ten_year_cost,
                "maintenance_debt": maintenance_debt,
                "critical_open": critical_open,
                "years_over_budget": years_over_budget,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_fci_percent(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        fci_percent = _parse_fci_percent(d.pop("fci_percent"))

        def _parse_fci_band(data: object) -> FciBandEnum | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                fci_band_type_0 = FciBandEnum(data)

                return fci_band_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FciBandEnum | None, data)

        fci_band = _parse_fci_band(d.pop("fci_band"))

        currency = d.pop("currency")

        plans = d.pop("plans")

        ten_year_cost = d.pop("ten_year_cost")

        maintenance_debt = d.pop("maintenance_debt")

        critical_open = d.pop("critical_open")

        years_over_budget = d.pop("years_over_budget")

        portfolio_total = cls(
            fci_percent=fci_percent,
            fci_band=fci_band,
            currency=currency,
            plans=plans,
            ten_year_cost=ten_year_cost,
            maintenance_debt=maintenance_debt,
            critical_open=critical_open,
            years_over_budget=years_over_budget,
        )

        portfolio_total.additional_properties = d
        return portfolio_total

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fci_band_enum import FciBandEnum

T = TypeVar("T", bound="PortfolioPlan")


@_attrs_define
class PortfolioPlan:
    """
    Attributes:
        fci_percent (None | str): The facility condition index in percent, area-weighted over the buildings with a
            replacement value and an area; null without any.
        fci_band (FciBandEnum | None): good (< 5 %), fair (< 10 %), poor (< 30 %) or critical; null without an FCI.

            * `good` - good
            * `fair` - fair
            * `poor` - poor
            * `critical` - critical
        number (int):
        name (str):
        currency (str):
        ten_year_cost (str): Planned cost of year_from..year_to, today's prices (the plan list's figure).
        maintenance_debt (str): Live actions planned before year_from, today's prices (the key figures').
        critical_open (int): Open critical suggestions as of the plan's last synchronisation.
        years_over_budget (int | None): Years of year_from..year_to above the annual budget (today's prices); null
            without a budget.
        percent_funded (None | str): The plan's fund's percent funded in year_from (its balance at the end of the year
            before over the fully funded balance); null without a fund, before the fund's start, or when no component
            counts.
    """

    fci_percent: None | str
    fci_band: FciBandEnum | None
    number: int
    name: str
    currency: str
    ten_year_cost: str
    maintenance_debt: str
    critical_open: int
    years_over_budget: int | None
    percent_funded: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        fci_percent: None | str
        fci_percent = self.fci_percent

        fci_band: None | str
        if isinstance(self.fci_band, FciBandEnum):
            fci_band = self.fci_band.value
        else:
            fci_band = self.fci_band

        number = self.number

        name = self.name

        currency = self.currency

        ten_year_cost = self.ten_year_cost

        maintenance_debt = self.maintenance_debt

        critical_open = self.critical_open

        years_over_budget: int | None
        years_over_budget = self.years_over_budget

        percent_funded: None | str
        percent_funded = self.percent_funded

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "fci_percent": fci_percent,
                "fci_band": fci_band,
                "number": number,
                "name": name,
                "currency": currency,
                "ten_year_cost": ten_year_cost,
                "maintenance_debt": maintenance_debt,
                "critical_open": critical_open,
                "years_over_budget": years_over_budget,
                "percent_funded": percent_funded,
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

        number = d.pop("number")

        name = d.pop("name")

        currency = d.pop("currency")

        ten_year_cost = d.pop("ten_year_cost")

        maintenance_debt = d.pop("maintenance_debt")

        critical_open = d.pop("critical_open")

        def _parse_years_over_budget(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        years_over_budget = _parse_years_over_budget(d.pop("years_over_budget"))

        def _parse_percent_funded(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        percent_funded = _parse_percent_funded(d.pop("percent_funded"))

        portfolio_plan = cls(
            fci_percent=fci_percent,
            fci_band=fci_band,
            number=number,
            name=name,
            currency=currency,
            ten_year_cost=ten_year_cost,
            maintenance_debt=maintenance_debt,
            critical_open=critical_open,
            years_over_budget=years_over_budget,
            percent_funded=percent_funded,
        )

        portfolio_plan.additional_properties = d
        return portfolio_plan

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

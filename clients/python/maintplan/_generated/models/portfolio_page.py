from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fci_band_enum import FciBandEnum

if TYPE_CHECKING:
    from ..models.organisation import Organisation
    from ..models.portfolio_plan import PortfolioPlan
    from ..models.portfolio_total import PortfolioTotal


T = TypeVar("T", bound="PortfolioPage")


@_attrs_define
class PortfolioPage:
    """
    Attributes:
        organisation (Organisation):
        year_from (int): The first of the ten years (this year).
        year_to (int):
        prices (str): Always `today`: today's prices, no index.
        plans (list[PortfolioPlan]): By plan number.
        totals (list[PortfolioTotal]): Per currency, over every matching plan (not only this page).
        fci_percent (None | str): Area-weighted over every matching plan's buildings.
        fci_band (FciBandEnum | None):
        next_cursor (None | str): Null on the last page.
    """

    organisation: Organisation
    year_from: int
    year_to: int
    prices: str
    plans: list[PortfolioPlan]
    totals: list[PortfolioTotal]
    fci_percent: None | str
    fci_band: FciBandEnum | None
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        organisation = self.organisation.to_dict()

        year_from = self.year_from

        year_to = self.year_to

        prices = self.prices

        plans = []
        for plans_item_data in self.plans:
            plans_item = plans_item_data.to_dict()
            plans.append(plans_item)

        totals = []
        for totals_item_data in self.totals:
            totals_item = totals_item_data.to_dict()
            totals.append(totals_item)

        fci_percent: None | str
        fci_percent = self.fci_percent

        fci_band: None | str
        if isinstance(self.fci_band, FciBandEnum):
            fci_band = self.fci_band.value
        else:
            fci_band = self.fci_band

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "organisation": organisation,
                "year_from": year_from,
                "year_to": year_to,
                "prices": prices,
                "plans": plans,
                "totals": totals,
                "fci_percent": fci_percent,
                "fci_band": fci_band,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.organisation import Organisation
        from ..models.portfolio_plan import PortfolioPlan
        from ..models.portfolio_total import PortfolioTotal

        d = dict(src_dict)
        organisation = Organisation.from_dict(d.pop("organisation"))

        year_from = d.pop("year_from")

        year_to = d.pop("year_to")

        prices = d.pop("prices")

        plans = []
        _plans = d.pop("plans")
        for plans_item_data in _plans:
            plans_item = PortfolioPlan.from_dict(plans_item_data)

            plans.append(plans_item)

        totals = []
        _totals = d.pop("totals")
        for totals_item_data in _totals:
            totals_item = PortfolioTotal.from_dict(totals_item_data)

            totals.append(totals_item)

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

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        portfolio_page = cls(
            organisation=organisation,
            year_from=year_from,
            year_to=year_to,
            prices=prices,
            plans=plans,
            totals=totals,
            fci_percent=fci_percent,
            fci_band=fci_band,
            next_cursor=next_cursor,
        )

        portfolio_page.additional_properties = d
        return portfolio_page

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.fund_settings import FundSettings
    from ..models.funding_flow import FundingFlow


T = TypeVar("T", bound="PlanFund")


@_attrs_define
class PlanFund:
    """
    Attributes:
        settings (FundSettings):
        figures (FundingFlow):
    """

    settings: FundSettings
    figures: FundingFlow
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        settings = self.settings.to_dict()

        figures = self.figures.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "settings": settings,
                "figures": figures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.fund_settings import FundSettings
        from ..models.funding_flow import FundingFlow

        d = dict(src_dict)
        settings = FundSettings.from_dict(d.pop("settings"))

        figures = FundingFlow.from_dict(d.pop("figures"))

        plan_fund = cls(
            settings=settings,
            figures=figures,
        )

        plan_fund.additional_properties = d
        return plan_fund

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.plan_fund import PlanFund
    from ..models.plan_funding_scenario import PlanFundingScenario


T = TypeVar("T", bound="PlanFunding")


@_attrs_define
class PlanFunding:
    """
    Attributes:
        currency (str):
        scenarios (list[PlanFundingScenario]): By name.
        fund (PlanFund | Unset):
    """

    currency: str
    scenarios: list[PlanFundingScenario]
    fund: PlanFund | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        currency = self.currency

        scenarios = []
        for scenarios_item_data in self.scenarios:
            scenarios_item = scenarios_item_data.to_dict()
            scenarios.append(scenarios_item)

        fund: dict[str, Any] | Unset = UNSET
        if not isinstance(self.fund, Unset):
            fund = self.fund.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "currency": currency,
                "scenarios": scenarios,
            }
        )
        if fund is not UNSET:
            field_dict["fund"] = fund

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.plan_fund import PlanFund
        from ..models.plan_funding_scenario import PlanFundingScenario

        d = dict(src_dict)
        currency = d.pop("currency")

        scenarios = []
        _scenarios = d.pop("scenarios")
        for scenarios_item_data in _scenarios:
            scenarios_item = PlanFundingScenario.from_dict(scenarios_item_data)

            scenarios.append(scenarios_item)

        _fund = d.pop("fund", UNSET)
        fund: PlanFund | Unset
        if isinstance(_fund, Unset):
            fund = UNSET
        else:
            fund = PlanFund.from_dict(_fund)

        plan_funding = cls(
            currency=currency,
            scenarios=scenarios,
            fund=fund,
        )

        plan_funding.additional_properties = d
        return plan_funding

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReviewActionCostReference")


@_attrs_define
class ReviewActionCostReference:
    """
    Attributes:
        expected_cost (str):  Example: 1200.00.
        actual (str):  Example: 2000.00.
        deviation (str): |actual - expected| / expected Example: 0.6667.
    """

    expected_cost: str
    actual: str
    deviation: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        expected_cost = self.expected_cost

        actual = self.actual

        deviation = self.deviation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "expected_cost": expected_cost,
                "actual": actual,
                "deviation": deviation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        expected_cost = d.pop("expected_cost")

        actual = d.pop("actual")

        deviation = d.pop("deviation")

        review_action_cost_reference = cls(
            expected_cost=expected_cost,
            actual=actual,
            deviation=deviation,
        )

        review_action_cost_reference.additional_properties = d
        return review_action_cost_reference

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

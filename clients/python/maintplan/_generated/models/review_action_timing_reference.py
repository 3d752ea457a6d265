from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReviewActionTimingReference")


@_attrs_define
class ReviewActionTimingReference:
    """
    Attributes:
        due_year (int):  Example: 2031.
        actual (int):  Example: 2038.
        deviation (int): Years Example: 7.
    """

    due_year: int
    actual: int
    deviation: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        due_year = self.due_year

        actual = self.actual

        deviation = self.deviation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "due_year": due_year,
                "actual": actual,
                "deviation": deviation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        due_year = d.pop("due_year")

        actual = d.pop("actual")

        deviation = d.pop("deviation")

        review_action_timing_reference = cls(
            due_year=due_year,
            actual=actual,
            deviation=deviation,
        )

        review_action_timing_reference.additional_properties = d
        return review_action_timing_reference

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="CompleteBody")


@_attrs_define
class CompleteBody:
    """
    Attributes:
        completed_on (datetime.date | Unset): Defaults to today.
        actual_cost (None | str | Unset):
    """

    completed_on: datetime.date | Unset = UNSET
    actual_cost: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        completed_on: str | Unset = UNSET
        if not isinstance(self.completed_on, Unset):
            completed_on = self.completed_on.isoformat()

        actual_cost: None | str | Unset
        if isinstance(self.actual_cost, Unset):
            actual_cost = UNSET
        else:
            actual_cost = self.actual_cost

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if completed_on is not UNSET:
            field_dict["completed_on"] = completed_on
        if actual_cost is not UNSET:
            field_dict["actual_cost"] = actual_cost

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _completed_on = d.pop("completed_on", UNSET)
        completed_on: datetime.date | Unset
        if isinstance(_completed_on, Unset):
            completed_on = UNSET
        else:
            completed_on = datetime.date.fromisoformat(_completed_on)

        def _parse_actual_cost(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        actual_cost = _parse_actual_cost(d.pop("actual_cost", UNSET))

        complete_body = cls(
            completed_on=completed_on,
            actual_cost=actual_cost,
        )

        complete_body.additional_properties = d
        return complete_body

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

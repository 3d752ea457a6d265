from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.reason_enum import ReasonEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="DismissBody")


@_attrs_define
class DismissBody:
    """
    Attributes:
        reason (ReasonEnum): * `not_applicable` - Not applicable
            * `accepted` - Accepted as is
            * `planned_elsewhere` - Planned elsewhere
            * `false_positive` - False positive
        comment (str | Unset):  Default: ''.
    """

    reason: ReasonEnum
    comment: str | Unset = ""
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason.value

        comment = self.comment

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "reason": reason,
            }
        )
        if comment is not UNSET:
            field_dict["comment"] = comment

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        reason = ReasonEnum(d.pop("reason"))

        comment = d.pop("comment", UNSET)

        dismiss_body = cls(
            reason=reason,
            comment=comment,
        )

        dismiss_body.additional_properties = d
        return dismiss_body

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

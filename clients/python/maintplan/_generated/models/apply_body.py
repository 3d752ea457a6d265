from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.fix_enum import FixEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ApplyBody")


@_attrs_define
class ApplyBody:
    """
    Attributes:
        code_id (UUID | Unset): A missing code: one of the suggestion's prefill_code_ids.
        fix (FixEnum | Unset): * `cost` - cost
            * `year` - year
    """

    code_id: UUID | Unset = UNSET
    fix: FixEnum | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        code_id: str | Unset = UNSET
        if not isinstance(self.code_id, Unset):
            code_id = str(self.code_id)

        fix: str | Unset = UNSET
        if not isinstance(self.fix, Unset):
            fix = self.fix.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update({})
        if code_id is not UNSET:
            field_dict["code_id"] = code_id
        if fix is not UNSET:
            field_dict["fix"] = fix

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        _code_id = d.pop("code_id", UNSET)
        code_id: UUID | Unset
        if isinstance(_code_id, Unset):
            code_id = UNSET
        else:
            code_id = UUID(_code_id)

        _fix = d.pop("fix", UNSET)
        fix: FixEnum | Unset
        if isinstance(_fix, Unset):
            fix = UNSET
        else:
            fix = FixEnum(_fix)

        apply_body = cls(
            code_id=code_id,
            fix=fix,
        )

        apply_body.additional_properties = d
        return apply_body

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

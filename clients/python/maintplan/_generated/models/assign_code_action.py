from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.assign_code_action_action_enum import AssignCodeActionActionEnum

T = TypeVar("T", bound="AssignCodeAction")


@_attrs_define
class AssignCodeAction:
    """missing_code: assign one of the prefilled catalog codes to the node.

    Attributes:
        action (AssignCodeActionActionEnum): * `assign_code` - assign_code
        prefill_code_ids (list[UUID]): Up to 3 catalog code ids, best match first.
    """

    action: AssignCodeActionActionEnum
    prefill_code_ids: list[UUID]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        prefill_code_ids = []
        for prefill_code_ids_item_data in self.prefill_code_ids:
            prefill_code_ids_item = str(prefill_code_ids_item_data)
            prefill_code_ids.append(prefill_code_ids_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "prefill_code_ids": prefill_code_ids,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = AssignCodeActionActionEnum(d.pop("action"))

        prefill_code_ids = []
        _prefill_code_ids = d.pop("prefill_code_ids")
        for prefill_code_ids_item_data in _prefill_code_ids:
            prefill_code_ids_item = UUID(prefill_code_ids_item_data)

            prefill_code_ids.append(prefill_code_ids_item)

        assign_code_action = cls(
            action=action,
            prefill_code_ids=prefill_code_ids,
        )

        assign_code_action.additional_properties = d
        return assign_code_action

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.plan_data_change import PlanDataChange


T = TypeVar("T", bound="PlanDataChangedData")


@_attrs_define
class PlanDataChangedData:
    """
    Attributes:
        plan_id (UUID):
        plan_number (int):
        changes (list[PlanDataChange]): At most 100, in the order they happened.
    """

    plan_id: UUID
    plan_number: int
    changes: list[PlanDataChange]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        plan_id = str(self.plan_id)

        plan_number = self.plan_number

        changes = []
        for changes_item_data in self.changes:
            changes_item = changes_item_data.to_dict()
            changes.append(changes_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plan_id": plan_id,
                "plan_number": plan_number,
                "changes": changes,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.plan_data_change import PlanDataChange

        d = dict(src_dict)
        plan_id = UUID(d.pop("plan_id"))

        plan_number = d.pop("plan_number")

        changes = []
        _changes = d.pop("changes")
        for changes_item_data in _changes:
            changes_item = PlanDataChange.from_dict(changes_item_data)

            changes.append(changes_item)

        plan_data_changed_data = cls(
            plan_id=plan_id,
            plan_number=plan_number,
            changes=changes,
        )

        plan_data_changed_data.additional_properties = d
        return plan_data_changed_data

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

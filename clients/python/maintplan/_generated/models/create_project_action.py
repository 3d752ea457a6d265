from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.create_project_action_action_enum import CreateProjectActionActionEnum

T = TypeVar("T", bound="CreateProjectAction")


@_attrs_define
class CreateProjectAction:
    """project_grouping: create one project from the grouped actions.

    Attributes:
        action (CreateProjectActionActionEnum): * `create_project` - create_project
        group_item_ids (list[UUID]): Ids of the actions to group, sorted.
        proposed_project_name (str):
        year (int):
        total_cost (str):
    """

    action: CreateProjectActionActionEnum
    group_item_ids: list[UUID]
    proposed_project_name: str
    year: int
    total_cost: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        group_item_ids = []
        for group_item_ids_item_data in self.group_item_ids:
            group_item_ids_item = str(group_item_ids_item_data)
            group_item_ids.append(group_item_ids_item)

        proposed_project_name = self.proposed_project_name

        year = self.year

        total_cost = self.total_cost

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "group_item_ids": group_item_ids,
                "proposed_project_name": proposed_project_name,
                "year": year,
                "total_cost": total_cost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = CreateProjectActionActionEnum(d.pop("action"))

        group_item_ids = []
        _group_item_ids = d.pop("group_item_ids")
        for group_item_ids_item_data in _group_item_ids:
            group_item_ids_item = UUID(group_item_ids_item_data)

            group_item_ids.append(group_item_ids_item)

        proposed_project_name = d.pop("proposed_project_name")

        year = d.pop("year")

        total_cost = d.pop("total_cost")

        create_project_action = cls(
            action=action,
            group_item_ids=group_item_ids,
            proposed_project_name=proposed_project_name,
            year=year,
            total_cost=total_cost,
        )

        create_project_action.additional_properties = d
        return create_project_action

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

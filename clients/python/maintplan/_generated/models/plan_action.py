from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.plan_action_action_enum import PlanActionActionEnum

T = TypeVar("T", bound="PlanAction")


@_attrs_define
class PlanAction:
    """condition: plan a repair or replacement of the component by `latest_year`.

    Attributes:
        action (PlanActionActionEnum): * `plan_action` - plan_action
        node_id (UUID): The component (the suggestion's node).
        condition_grade (int): Its condition: 2 moderate, 3 severe symptoms.
        latest_year (int): The year by which a repair or replacement should be planned at the latest.
    """

    action: PlanActionActionEnum
    node_id: UUID
    condition_grade: int
    latest_year: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        node_id = str(self.node_id)

        condition_grade = self.condition_grade

        latest_year = self.latest_year

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "node_id": node_id,
                "condition_grade": condition_grade,
                "latest_year": latest_year,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = PlanActionActionEnum(d.pop("action"))

        node_id = UUID(d.pop("node_id"))

        condition_grade = d.pop("condition_grade")

        latest_year = d.pop("latest_year")

        plan_action = cls(
            action=action,
            node_id=node_id,
            condition_grade=condition_grade,
            latest_year=latest_year,
        )

        plan_action.additional_properties = d
        return plan_action

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

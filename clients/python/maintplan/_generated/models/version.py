from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Version")


@_attrs_define
class Version:
    """
    Attributes:
        id (UUID):
        number (int): 1, 2, ... within the plan.
        name (str):
        decided_on (datetime.date):
        note (str):
        adopted_at (datetime.datetime): ISO 8601, UTC (Z)
        currency (str):
        node_count (int):
        action_count (int):
        project_count (int):
        total_cost (str): The planned cost of the ten years from the year of `adopted_at`, today's prices, every live
            occurrence (what the plan list showed for the plan then).
    """

    id: UUID
    number: int
    name: str
    decided_on: datetime.date
    note: str
    adopted_at: datetime.datetime
    currency: str
    node_count: int
    action_count: int
    project_count: int
    total_cost: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        number = self.number

        name = self.name

        decided_on = self.decided_on.isoformat()

        note = self.note

        adopted_at = self.adopted_at.isoformat()

        currency = self.currency

        node_count = self.node_count

        action_count = self.action_count

        project_count = self.project_count

        total_cost = self.total_cost

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "number": number,
                "name": name,
                "decided_on": decided_on,
                "note": note,
                "adopted_at": adopted_at,
                "currency": currency,
                "node_count": node_count,
                "action_count": action_count,
                "project_count": project_count,
                "total_cost": total_cost,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        number = d.pop("number")

        name = d.pop("name")

        decided_on = datetime.date.fromisoformat(d.pop("decided_on"))

        note = d.pop("note")

        adopted_at = datetime.datetime.fromisoformat(d.pop("adopted_at"))

        currency = d.pop("currency")

        node_count = d.pop("node_count")

        action_count = d.pop("action_count")

        project_count = d.pop("project_count")

        total_cost = d.pop("total_cost")

        version = cls(
            id=id,
            number=number,
            name=name,
            decided_on=decided_on,
            note=note,
            adopted_at=adopted_at,
            currency=currency,
            node_count=node_count,
            action_count=action_count,
            project_count=project_count,
            total_cost=total_cost,
        )

        version.additional_properties = d
        return version

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

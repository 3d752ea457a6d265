from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.actor import Actor
    from ..models.plan_data_change_fields import PlanDataChangeFields


T = TypeVar("T", bound="PlanDataChange")


@_attrs_define
class PlanDataChange:
    """One change of a node, action or project, from the plan's history.

    Attributes:
        id (UUID): The node's, action's or project's id.
        at (datetime.datetime):
        actor (Actor):
        fields (PlanDataChangeFields): Each changed field, before and after.
        completion_id (int | Unset): actions.completed only: the completion recorded.
    """

    id: UUID
    at: datetime.datetime
    actor: Actor
    fields: PlanDataChangeFields
    completion_id: int | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        at = self.at.isoformat()

        actor = self.actor.to_dict()

        fields = self.fields.to_dict()

        completion_id = self.completion_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "at": at,
                "actor": actor,
                "fields": fields,
            }
        )
        if completion_id is not UNSET:
            field_dict["completion_id"] = completion_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.actor import Actor
        from ..models.plan_data_change_fields import PlanDataChangeFields

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        at = datetime.datetime.fromisoformat(d.pop("at"))

        actor = Actor.from_dict(d.pop("actor"))

        fields = PlanDataChangeFields.from_dict(d.pop("fields"))

        completion_id = d.pop("completion_id", UNSET)

        plan_data_change = cls(
            id=id,
            at=at,
            actor=actor,
            fields=fields,
            completion_id=completion_id,
        )

        plan_data_change.additional_properties = d
        return plan_data_change

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

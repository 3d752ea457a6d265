from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.version_action import VersionAction


T = TypeVar("T", bound="VersionActionPage")


@_attrs_define
class VersionActionPage:
    """
    Attributes:
        plan_id (UUID):
        version_id (UUID):
        actions (list[VersionAction]):
        next_cursor (None | str): Null on the last page.
    """

    plan_id: UUID
    version_id: UUID
    actions: list[VersionAction]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        plan_id = str(self.plan_id)

        version_id = str(self.version_id)

        actions = []
        for actions_item_data in self.actions:
            actions_item = actions_item_data.to_dict()
            actions.append(actions_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plan_id": plan_id,
                "version_id": version_id,
                "actions": actions,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.version_action import VersionAction

        d = dict(src_dict)
        plan_id = UUID(d.pop("plan_id"))

        version_id = UUID(d.pop("version_id"))

        actions = []
        _actions = d.pop("actions")
        for actions_item_data in _actions:
            actions_item = VersionAction.from_dict(actions_item_data)

            actions.append(actions_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        version_action_page = cls(
            plan_id=plan_id,
            version_id=version_id,
            actions=actions,
            next_cursor=next_cursor,
        )

        version_action_page.additional_properties = d
        return version_action_page

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

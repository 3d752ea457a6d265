from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.version import Version


T = TypeVar("T", bound="VersionList")


@_attrs_define
class VersionList:
    """
    Attributes:
        plan_id (UUID):
        plan_number (int):
        versions (list[Version]): Newest first.
        next_cursor (None | str): Null on the last page.
    """

    plan_id: UUID
    plan_number: int
    versions: list[Version]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        plan_id = str(self.plan_id)

        plan_number = self.plan_number

        versions = []
        for versions_item_data in self.versions:
            versions_item = versions_item_data.to_dict()
            versions.append(versions_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plan_id": plan_id,
                "plan_number": plan_number,
                "versions": versions,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.version import Version

        d = dict(src_dict)
        plan_id = UUID(d.pop("plan_id"))

        plan_number = d.pop("plan_number")

        versions = []
        _versions = d.pop("versions")
        for versions_item_data in _versions:
            versions_item = Version.from_dict(versions_item_data)

            versions.append(versions_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        version_list = cls(
            plan_id=plan_id,
            plan_number=plan_number,
            versions=versions,
            next_cursor=next_cursor,
        )

        version_list.additional_properties = d
        return version_list

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

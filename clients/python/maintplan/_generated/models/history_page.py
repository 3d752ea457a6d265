from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.history_entry import HistoryEntry


T = TypeVar("T", bound="HistoryPage")


@_attrs_define
class HistoryPage:
    """
    Attributes:
        plan_id (UUID):
        plan_number (int):
        entries (list[HistoryEntry]):
        next_cursor (None | str): Null on the last page.
    """

    plan_id: UUID
    plan_number: int
    entries: list[HistoryEntry]
    next_cursor: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        plan_id = str(self.plan_id)

        plan_number = self.plan_number

        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        next_cursor: None | str
        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plan_id": plan_id,
                "plan_number": plan_number,
                "entries": entries,
                "next_cursor": next_cursor,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.history_entry import HistoryEntry

        d = dict(src_dict)
        plan_id = UUID(d.pop("plan_id"))

        plan_number = d.pop("plan_number")

        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = HistoryEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        def _parse_next_cursor(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor"))

        history_page = cls(
            plan_id=plan_id,
            plan_number=plan_number,
            entries=entries,
            next_cursor=next_cursor,
        )

        history_page.additional_properties = d
        return history_page

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.suggestion import Suggestion


T = TypeVar("T", bound="SuggestionList")


@_attrs_define
class SuggestionList:
    """
    Attributes:
        plan_id (UUID):
        plan_number (int):
        open_count (int): Open suggestions matching the filters, on all pages together.
        suggestions (list[Suggestion]): Open suggestions only.
        next_cursor (None | str | Unset): Only with `limit`: pass it as `cursor` (with the same filters and a `limit`)
            for the next page; null on the last page. Opaque: do not build or change it.
    """

    plan_id: UUID
    plan_number: int
    open_count: int
    suggestions: list[Suggestion]
    next_cursor: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        plan_id = str(self.plan_id)

        plan_number = self.plan_number

        open_count = self.open_count

        suggestions = []
        for suggestions_item_data in self.suggestions:
            suggestions_item = suggestions_item_data.to_dict()
            suggestions.append(suggestions_item)

        next_cursor: None | str | Unset
        if isinstance(self.next_cursor, Unset):
            next_cursor = UNSET
        else:
            next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plan_id": plan_id,
                "plan_number": plan_number,
                "open_count": open_count,
                "suggestions": suggestions,
            }
        )
        if next_cursor is not UNSET:
            field_dict["next_cursor"] = next_cursor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.suggestion import Suggestion

        d = dict(src_dict)
        plan_id = UUID(d.pop("plan_id"))

        plan_number = d.pop("plan_number")

        open_count = d.pop("open_count")

        suggestions = []
        _suggestions = d.pop("suggestions")
        for suggestions_item_data in _suggestions:
            suggestions_item = Suggestion.from_dict(suggestions_item_data)

            suggestions.append(suggestions_item)

        def _parse_next_cursor(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        next_cursor = _parse_next_cursor(d.pop("next_cursor", UNSET))

        suggestion_list = cls(
            plan_id=plan_id,
            plan_number=plan_number,
            open_count=open_count,
            suggestions=suggestions,
            next_cursor=next_cursor,
        )

        suggestion_list.additional_properties = d
        return suggestion_list

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.suggestion_change_enum import SuggestionChangeEnum

if TYPE_CHECKING:
    from ..models.suggestion_with_status import SuggestionWithStatus


T = TypeVar("T", bound="EventChange")


@_attrs_define
class EventChange:
    """What happened to a suggestion (`change`), and the suggestion after it.

    Attributes:
        change (str | SuggestionChangeEnum): Known values are listed; others may come: handle an unknown one gracefully.
        suggestion (SuggestionWithStatus): One open suggestion: what the platform proposes for a node of the plan.
    """

    change: str | SuggestionChangeEnum
    suggestion: SuggestionWithStatus
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        change: str
        if isinstance(self.change, SuggestionChangeEnum):
            change = self.change.value
        else:
            change = self.change

        suggestion = self.suggestion.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "change": change,
                "suggestion": suggestion,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.suggestion_with_status import SuggestionWithStatus

        d = dict(src_dict)

        def _parse_change(data: object) -> str | SuggestionChangeEnum:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                change_type_0 = SuggestionChangeEnum(data)

                return change_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | SuggestionChangeEnum, data)

        change = _parse_change(d.pop("change"))

        suggestion = SuggestionWithStatus.from_dict(d.pop("suggestion"))

        event_change = cls(
            change=change,
            suggestion=suggestion,
        )

        event_change.additional_properties = d
        return event_change

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

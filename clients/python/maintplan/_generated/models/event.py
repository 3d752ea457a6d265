from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.event_type_enum import EventTypeEnum

if TYPE_CHECKING:
    from ..models.event_data_type_1 import EventDataType1
    from ..models.plan_data_changed_data import PlanDataChangedData
    from ..models.suggestions_bulk_changed_data import SuggestionsBulkChangedData
    from ..models.suggestions_changed_data import SuggestionsChangedData


T = TypeVar("T", bound="Event")


@_attrs_define
class Event:
    """One event: exactly the JSON body its webhook deliveries post.

    Attributes:
        id (str): evt_...; the `webhook-id` of its deliveries.
        type_ (EventTypeEnum | str): Known values are listed; others may come: handle an unknown one gracefully.
        created_at (datetime.datetime): ISO 8601, UTC (Z)
        data (EventDataType1 | PlanDataChangedData | SuggestionsBulkChangedData | SuggestionsChangedData):
            `suggestions.changed` carries suggestions; `suggestions.bulk_changed` counts them (read the list); actions.*,
            nodes.* and projects.* carry the changed rows' fields; a type added later carries its own object.
    """

    id: str
    type_: EventTypeEnum | str
    created_at: datetime.datetime
    data: (
        EventDataType1
        | PlanDataChangedData
        | SuggestionsBulkChangedData
        | SuggestionsChangedData
    )
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.plan_data_changed_data import PlanDataChangedData
        from ..models.suggestions_bulk_changed_data import SuggestionsBulkChangedData
        from ..models.suggestions_changed_data import SuggestionsChangedData

        id = self.id

        type_: str
        if isinstance(self.type_, EventTypeEnum):
            type_ = self.type_.value
        else:
            type_ = self.type_

        created_at = self.created_at.isoformat()

        data: dict[str, Any]
        if (
            isinstance(self.data, SuggestionsChangedData)
            or isinstance(self.data, SuggestionsBulkChangedData)
            or isinstance(self.data, PlanDataChangedData)
        ):
            data = self.data.to_dict()
        else:
            data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "created_at": created_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_data_type_1 import EventDataType1
        from ..models.plan_data_changed_data import PlanDataChangedData
        from ..models.suggestions_bulk_changed_data import SuggestionsBulkChangedData
        from ..models.suggestions_changed_data import SuggestionsChangedData

        d = dict(src_dict)
        id = d.pop("id")

        def _parse_type_(data: object) -> EventTypeEnum | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                type_type_0 = EventTypeEnum(data)

                return type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(EventTypeEnum | str, data)

        type_ = _parse_type_(d.pop("type"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_data(
            data: object,
        ) -> (
            EventDataType1
            | PlanDataChangedData
            | SuggestionsBulkChangedData
            | SuggestionsChangedData
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_data_type_0 = SuggestionsChangedData.from_dict(
                    data
                )

                return componentsschemas_event_data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_data_type_1 = (
                    SuggestionsBulkChangedData.from_dict(data)
                )

                return componentsschemas_event_data_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_event_data_type_2 = PlanDataChangedData.from_dict(
                    data
                )

                return componentsschemas_event_data_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            data_type_1 = EventDataType1.from_dict(data)

            return data_type_1

        data = _parse_data(d.pop("data"))

        event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        event.additional_properties = d
        return event

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

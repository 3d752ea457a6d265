from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.history_actor import HistoryActor
    from ..models.history_entry_changes import HistoryEntryChanges


T = TypeVar("T", bound="HistoryEntry")


@_attrs_define
class HistoryEntry:
    """
    Attributes:
        id (int): Grows with time; the list's order.
        at (datetime.datetime): ISO 8601, UTC (Z)
        actor (HistoryActor):
        entity (str): plan, node, action, project, grant, completion or suggestion (more may come).
        entity_id (str): The changed row's id.
        entity_label (str): Its name or title at the time.
        operation (str): create, update, delete or import.
        changes (HistoryEntryChanges): Each changed field: [before, after] (null on a side that did not exist).
        summary (str): An import's one line; else empty.
    """

    id: int
    at: datetime.datetime
    actor: HistoryActor
    entity: str
    entity_id: str
    entity_label: str
    operation: str
    changes: HistoryEntryChanges
    summary: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        at = self.at.isoformat()

        actor = self.actor.to_dict()

        entity = self.entity

        entity_id = self.entity_id

        entity_label = self.entity_label

        operation = self.operation

        changes = self.changes.to_dict()

        summary = self.summary

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "at": at,
                "actor": actor,
                "entity": entity,
                "entity_id": entity_id,
                "entity_label": entity_label,
                "operation": operation,
                "changes": changes,
                "summary": summary,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.history_actor import HistoryActor
        from ..models.history_entry_changes import HistoryEntryChanges

        d = dict(src_dict)
        id = d.pop("id")

        at = datetime.datetime.fromisoformat(d.pop("at"))

        actor = HistoryActor.from_dict(d.pop("actor"))

        entity = d.pop("entity")

        entity_id = d.pop("entity_id")

        entity_label = d.pop("entity_label")

        operation = d.pop("operation")

        changes = HistoryEntryChanges.from_dict(d.pop("changes"))

        summary = d.pop("summary")

        history_entry = cls(
            id=id,
            at=at,
            actor=actor,
            entity=entity,
            entity_id=entity_id,
            entity_label=entity_label,
            operation=operation,
            changes=changes,
            summary=summary,
        )

        history_entry.additional_properties = d
        return history_entry

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.event_actor import EventActor
    from ..models.suggestions_bulk_changed_data_counts import (
        SuggestionsBulkChangedDataCounts,
    )
    from ..models.suggestions_bulk_changed_data_open_by_severity import (
        SuggestionsBulkChangedDataOpenBySeverity,
    )
    from ..models.suggestions_bulk_changed_data_open_by_type import (
        SuggestionsBulkChangedDataOpenByType,
    )


T = TypeVar("T", bound="SuggestionsBulkChangedData")


@_attrs_define
class SuggestionsBulkChangedData:
    """`suggestions.bulk_changed`: many suggestions changed at once and are not listed one by
    one (a plan's first sync); read the plan's suggestion list for them.

        Attributes:
            plan_id (UUID):
            plan_number (int):
            actor (EventActor):
            reason (str): Why the changes are summed up: `first_sync`, the plan's suggestions derived for the first time
                (after an import, a generated or new plan). More reasons may come: read the list whatever it says.
            counts (SuggestionsBulkChangedDataCounts): How many suggestions had each `change` (opened, updated, resolved,
                dismissed, reopened; 0 when none).
            open_count (int): Open suggestions after the changes: the list's `open_count`.
            open_by_severity (SuggestionsBulkChangedDataOpenBySeverity): The open suggestions by severity (every severity
                named, 0 when none).
            open_by_type (SuggestionsBulkChangedDataOpenByType): The open suggestions by suggestion type (every type named,
                0 when none).
    """

    plan_id: UUID
    plan_number: int
    actor: EventActor
    reason: str
    counts: SuggestionsBulkChangedDataCounts
    open_count: int
    open_by_severity: SuggestionsBulkChangedDataOpenBySeverity
    open_by_type: SuggestionsBulkChangedDataOpenByType
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        plan_id = str(self.plan_id)

        plan_number = self.plan_number

        actor = self.actor.to_dict()

        reason = self.reason

        counts = self.counts.to_dict()

        open_count = self.open_count

        open_by_severity = self.open_by_severity.to_dict()

        open_by_type = self.open_by_type.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "plan_id": plan_id,
                "plan_number": plan_number,
                "actor": actor,
                "reason": reason,
                "counts": counts,
                "open_count": open_count,
                "open_by_severity": open_by_severity,
                "open_by_type": open_by_type,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.event_actor import EventActor
        from ..models.suggestions_bulk_changed_data_counts import (
            SuggestionsBulkChangedDataCounts,
        )
        from ..models.suggestions_bulk_changed_data_open_by_severity import (
            SuggestionsBulkChangedDataOpenBySeverity,
        )
        from ..models.suggestions_bulk_changed_data_open_by_type import (
            SuggestionsBulkChangedDataOpenByType,
        )

        d = dict(src_dict)
        plan_id = UUID(d.pop("plan_id"))

        plan_number = d.pop("plan_number")

        actor = EventActor.from_dict(d.pop("actor"))

        reason = d.pop("reason")

        counts = SuggestionsBulkChangedDataCounts.from_dict(d.pop("counts"))

        open_count = d.pop("open_count")

        open_by_severity = SuggestionsBulkChangedDataOpenBySeverity.from_dict(
            d.pop("open_by_severity")
        )

        open_by_type = SuggestionsBulkChangedDataOpenByType.from_dict(
            d.pop("open_by_type")
        )

        suggestions_bulk_changed_data = cls(
            plan_id=plan_id,
            plan_number=plan_number,
            actor=actor,
            reason=reason,
            counts=counts,
            open_count=open_count,
            open_by_severity=open_by_severity,
            open_by_type=open_by_type,
        )

        suggestions_bulk_changed_data.additional_properties = d
        return suggestions_bulk_changed_data

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

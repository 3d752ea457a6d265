from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.review_action_action_enum import ReviewActionActionEnum

if TYPE_CHECKING:
    from ..models.review_action_cost_reference import ReviewActionCostReference
    from ..models.review_action_timing_reference import ReviewActionTimingReference
    from ..models.review_filter import ReviewFilter


T = TypeVar("T", bound="ReviewAction")


@_attrs_define
class ReviewAction:
    """deviation and overdue: review the action in the filtered actions view.

    Attributes:
        action (ReviewActionActionEnum): * `review_action` - review_action
        action_ids (list[UUID]):
        filter_ (ReviewFilter):
        reference (ReviewActionCostReference | ReviewActionTimingReference):
    """

    action: ReviewActionActionEnum
    action_ids: list[UUID]
    filter_: ReviewFilter
    reference: ReviewActionCostReference | ReviewActionTimingReference
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.review_action_cost_reference import ReviewActionCostReference

        action = self.action.value

        action_ids = []
        for action_ids_item_data in self.action_ids:
            action_ids_item = str(action_ids_item_data)
            action_ids.append(action_ids_item)

        filter_ = self.filter_.to_dict()

        reference: dict[str, Any]
        if isinstance(self.reference, ReviewActionCostReference):
            reference = self.reference.to_dict()
        else:
            reference = self.reference.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "action_ids": action_ids,
                "filter": filter_,
                "reference": reference,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.review_action_cost_reference import ReviewActionCostReference
        from ..models.review_action_timing_reference import ReviewActionTimingReference
        from ..models.review_filter import ReviewFilter

        d = dict(src_dict)
        action = ReviewActionActionEnum(d.pop("action"))

        action_ids = []
        _action_ids = d.pop("action_ids")
        for action_ids_item_data in _action_ids:
            action_ids_item = UUID(action_ids_item_data)

            action_ids.append(action_ids_item)

        filter_ = ReviewFilter.from_dict(d.pop("filter"))

        def _parse_reference(
            data: object,
        ) -> ReviewActionCostReference | ReviewActionTimingReference:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                reference_cost_reference = ReviewActionCostReference.from_dict(data)

                return reference_cost_reference
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            reference_timing_reference = ReviewActionTimingReference.from_dict(data)

            return reference_timing_reference

        reference = _parse_reference(d.pop("reference"))

        review_action = cls(
            action=action,
            action_ids=action_ids,
            filter_=filter_,
            reference=reference,
        )

        review_action.additional_properties = d
        return review_action

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

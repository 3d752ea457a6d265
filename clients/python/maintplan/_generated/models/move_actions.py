from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.move_actions_action_enum import MoveActionsActionEnum

T = TypeVar("T", bound="MoveActions")


@_attrs_define
class MoveActions:
    """budget_peak: move the candidate actions out of a year whose planned costs exceed the
    plan's annual budget.

        Attributes:
            action (MoveActionsActionEnum): * `move_actions` - move_actions
            year (int): The year over the budget.
            budget (str): The annual budget.
            total (str): The planned costs of `year` in today's prices, every occurrence counted.
            excess (str): `total` - `budget`.
            candidate_action_ids (list[UUID]): The one-off repairs and replacements of `year` to move: the costliest first
                until their costs reach the excess (all of them if they never do); sorted.
            target_year (int | None): The first of the next five years that stays within the budget with the candidates
                moved in; null when none does.
    """

    action: MoveActionsActionEnum
    year: int
    budget: str
    total: str
    excess: str
    candidate_action_ids: list[UUID]
    target_year: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action = self.action.value

        year = self.year

        budget = self.budget

        total = self.total

        excess = self.excess

        candidate_action_ids = []
        for candidate_action_ids_item_data in self.candidate_action_ids:
            candidate_action_ids_item = str(candidate_action_ids_item_data)
            candidate_action_ids.append(candidate_action_ids_item)

        target_year: int | None
        target_year = self.target_year

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action": action,
                "year": year,
                "budget": budget,
                "total": total,
                "excess": excess,
                "candidate_action_ids": candidate_action_ids,
                "target_year": target_year,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action = MoveActionsActionEnum(d.pop("action"))

        year = d.pop("year")

        budget = d.pop("budget")

        total = d.pop("total")

        excess = d.pop("excess")

        candidate_action_ids = []
        _candidate_action_ids = d.pop("candidate_action_ids")
        for candidate_action_ids_item_data in _candidate_action_ids:
            candidate_action_ids_item = UUID(candidate_action_ids_item_data)

            candidate_action_ids.append(candidate_action_ids_item)

        def _parse_target_year(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        target_year = _parse_target_year(d.pop("target_year"))

        move_actions = cls(
            action=action,
            year=year,
            budget=budget,
            total=total,
            excess=excess,
            candidate_action_ids=candidate_action_ids,
            target_year=target_year,
        )

        move_actions.additional_properties = d
        return move_actions

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

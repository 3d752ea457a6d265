from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.funding_flow import FundingFlow
    from ..models.funding_goal_solution import FundingGoalSolution
    from ..models.funding_scenario_settings import FundingScenarioSettings


T = TypeVar("T", bound="PlanFundingScenario")


@_attrs_define
class PlanFundingScenario:
    """
    Attributes:
        settings (FundingScenarioSettings):
        figures (FundingFlow):
        solved (FundingGoalSolution | Unset):
    """

    settings: FundingScenarioSettings
    figures: FundingFlow
    solved: FundingGoalSolution | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        settings = self.settings.to_dict()

        figures = self.figures.to_dict()

        solved: dict[str, Any] | Unset = UNSET
        if not isinstance(self.solved, Unset):
            solved = self.solved.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "settings": settings,
                "figures": figures,
            }
        )
        if solved is not UNSET:
            field_dict["solved"] = solved

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.funding_flow import FundingFlow
        from ..models.funding_goal_solution import FundingGoalSolution
        from ..models.funding_scenario_settings import FundingScenarioSettings

        d = dict(src_dict)
        settings = FundingScenarioSettings.from_dict(d.pop("settings"))

        figures = FundingFlow.from_dict(d.pop("figures"))

        _solved = d.pop("solved", UNSET)
        solved: FundingGoalSolution | Unset
        if isinstance(_solved, Unset):
            solved = UNSET
        else:
            solved = FundingGoalSolution.from_dict(_solved)

        plan_funding_scenario = cls(
            settings=settings,
            figures=figures,
            solved=solved,
        )

        plan_funding_scenario.additional_properties = d
        return plan_funding_scenario

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.severity_enum import SeverityEnum
from ..models.suggestion_type_enum import SuggestionTypeEnum

if TYPE_CHECKING:
    from ..models.assign_code_action import AssignCodeAction
    from ..models.create_project_action import CreateProjectAction
    from ..models.move_actions import MoveActions
    from ..models.other_recommended_action import OtherRecommendedAction
    from ..models.plan_action import PlanAction
    from ..models.review_action import ReviewAction


T = TypeVar("T", bound="SuggestionWithStatus")


@_attrs_define
class SuggestionWithStatus:
    """One open suggestion: what the platform proposes for a node of the plan.

    Attributes:
        id (UUID):
        suggestion_type (str | SuggestionTypeEnum): Known values are listed; others may come: handle an unknown one
            gracefully.
        severity (SeverityEnum | str): Known values are listed; others may come: handle an unknown one gracefully.
        title (str):
        body (str):
        structure_node_id (UUID):
        recommended_action_json (AssignCodeAction | CreateProjectAction | MoveActions | OtherRecommendedAction |
            PlanAction | ReviewAction):
        created_at (datetime.datetime): ISO 8601, UTC (Z)
        status (str): open, dismissed or resolved (more may come).
    """

    id: UUID
    suggestion_type: str | SuggestionTypeEnum
    severity: SeverityEnum | str
    title: str
    body: str
    structure_node_id: UUID
    recommended_action_json: (
        AssignCodeAction
        | CreateProjectAction
        | MoveActions
        | OtherRecommendedAction
        | PlanAction
        | ReviewAction
    )
    created_at: datetime.datetime
    status: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.assign_code_action import AssignCodeAction
        from ..models.create_project_action import CreateProjectAction
        from ..models.move_actions import MoveActions
        from ..models.plan_action import PlanAction
        from ..models.review_action import ReviewAction

        id = str(self.id)

        suggestion_type: str
        if isinstance(self.suggestion_type, SuggestionTypeEnum):
            suggestion_type = self.suggestion_type.value
        else:
            suggestion_type = self.suggestion_type

        severity: str
        if isinstance(self.severity, SeverityEnum):
            severity = self.severity.value
        else:
            severity = self.severity

        title = self.title

        body = self.body

        structure_node_id = str(self.structure_node_id)

        recommended_action_json: dict[str, Any]
        if (
            isinstance(self.recommended_action_json, AssignCodeAction)
            or isinstance(self.recommended_action_json, ReviewAction)
            or isinstance(self.recommended_action_json, CreateProjectAction)
            or isinstance(self.recommended_action_json, PlanAction)
            or isinstance(self.recommended_action_json, MoveActions)
        ):
            recommended_action_json = self.recommended_action_json.to_dict()
        else:
            recommended_action_json = self.recommended_action_json.to_dict()

        created_at = self.created_at.isoformat()

        status = self.status

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "suggestion_type": suggestion_type,
                "severity": severity,
                "title": title,
                "body": body,
                "structure_node_id": structure_node_id,
                "recommended_action_json": recommended_action_json,
                "created_at": created_at,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.assign_code_action import AssignCodeAction
        from ..models.create_project_action import CreateProjectAction
        from ..models.move_actions import MoveActions
        from ..models.other_recommended_action import OtherRecommendedAction
        from ..models.plan_action import PlanAction
        from ..models.review_action import ReviewAction

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_suggestion_type(data: object) -> str | SuggestionTypeEnum:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                suggestion_type_type_0 = SuggestionTypeEnum(data)

                return suggestion_type_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(str | SuggestionTypeEnum, data)

        suggestion_type = _parse_suggestion_type(d.pop("suggestion_type"))

        def _parse_severity(data: object) -> SeverityEnum | str:
            try:
                if not isinstance(data, str):
                    raise TypeError()
                severity_type_0 = SeverityEnum(data)

                return severity_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(SeverityEnum | str, data)

        severity = _parse_severity(d.pop("severity"))

        title = d.pop("title")

        body = d.pop("body")

        structure_node_id = UUID(d.pop("structure_node_id"))

        def _parse_recommended_action_json(
            data: object,
        ) -> (
            AssignCodeAction
            | CreateProjectAction
            | MoveActions
            | OtherRecommendedAction
            | PlanAction
            | ReviewAction
        ):
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_recommended_action_type_0 = (
                    AssignCodeAction.from_dict(data)
                )

                return componentsschemas_recommended_action_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_recommended_action_type_1 = ReviewAction.from_dict(
                    data
                )

                return componentsschemas_recommended_action_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_recommended_action_type_2 = (
                    CreateProjectAction.from_dict(data)
                )

                return componentsschemas_recommended_action_type_2
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_recommended_action_type_3 = PlanAction.from_dict(data)

                return componentsschemas_recommended_action_type_3
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_recommended_action_type_4 = MoveActions.from_dict(
                    data
                )

                return componentsschemas_recommended_action_type_4
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_recommended_action_type_5 = (
                OtherRecommendedAction.from_dict(data)
            )

            return componentsschemas_recommended_action_type_5

        recommended_action_json = _parse_recommended_action_json(
            d.pop("recommended_action_json")
        )

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        status = d.pop("status")

        suggestion_with_status = cls(
            id=id,
            suggestion_type=suggestion_type,
            severity=severity,
            title=title,
            body=body,
            structure_node_id=structure_node_id,
            recommended_action_json=recommended_action_json,
            created_at=created_at,
            status=status,
        )

        suggestion_with_status.additional_properties = d
        return suggestion_with_status

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

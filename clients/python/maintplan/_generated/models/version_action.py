from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="VersionAction")


@_attrs_define
class VersionAction:
    """
    Attributes:
        action_id (UUID):
        node_id (UUID):
        building_id (None | UUID):
        title (str):
        kind (str): The action's kind (more may come).
        planned_year (int):
        estimated_cost (str): Today's prices.
        interval_years (int | None): Null: a one-off.
        status (str): planned, done or cancelled (more may come).
        project_id (None | UUID):
    """

    action_id: UUID
    node_id: UUID
    building_id: None | UUID
    title: str
    kind: str
    planned_year: int
    estimated_cost: str
    interval_years: int | None
    status: str
    project_id: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        action_id = str(self.action_id)

        node_id = str(self.node_id)

        building_id: None | str
        if isinstance(self.building_id, UUID):
            building_id = str(self.building_id)
        else:
            building_id = self.building_id

        title = self.title

        kind = self.kind

        planned_year = self.planned_year

        estimated_cost = self.estimated_cost

        interval_years: int | None
        interval_years = self.interval_years

        status = self.status

        project_id: None | str
        if isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "action_id": action_id,
                "node_id": node_id,
                "building_id": building_id,
                "title": title,
                "kind": kind,
                "planned_year": planned_year,
                "estimated_cost": estimated_cost,
                "interval_years": interval_years,
                "status": status,
                "project_id": project_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        action_id = UUID(d.pop("action_id"))

        node_id = UUID(d.pop("node_id"))

        def _parse_building_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                building_id_type_0 = UUID(data)

                return building_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        building_id = _parse_building_id(d.pop("building_id"))

        title = d.pop("title")

        kind = d.pop("kind")

        planned_year = d.pop("planned_year")

        estimated_cost = d.pop("estimated_cost")

        def _parse_interval_years(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        interval_years = _parse_interval_years(d.pop("interval_years"))

        status = d.pop("status")

        def _parse_project_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        project_id = _parse_project_id(d.pop("project_id"))

        version_action = cls(
            action_id=action_id,
            node_id=node_id,
            building_id=building_id,
            title=title,
            kind=kind,
            planned_year=planned_year,
            estimated_cost=estimated_cost,
            interval_years=interval_years,
            status=status,
            project_id=project_id,
        )

        version_action.additional_properties = d
        return version_action

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Action")


@_attrs_define
class Action:
    """
    Attributes:
        id (UUID):
        node_id (UUID):
        title (str):
        kind (str): The action's kind (more may come).
        planned_year (int):
        interval_years (int | None): Null: a one-off.
        estimated_cost (str): Today's prices.
        nominal_cost (str): Of its planned year, indexed and with the plan's markups.
        status (str): planned, done or cancelled (more may come).
        project_id (None | UUID):
    """

    id: UUID
    node_id: UUID
    title: str
    kind: str
    planned_year: int
    interval_years: int | None
    estimated_cost: str
    nominal_cost: str
    status: str
    project_id: None | UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        node_id = str(self.node_id)

        title = self.title

        kind = self.kind

        planned_year = self.planned_year

        interval_years: int | None
        interval_years = self.interval_years

        estimated_cost = self.estimated_cost

        nominal_cost = self.nominal_cost

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
                "id": id,
                "node_id": node_id,
                "title": title,
                "kind": kind,
                "planned_year": planned_year,
                "interval_years": interval_years,
                "estimated_cost": estimated_cost,
                "nominal_cost": nominal_cost,
                "status": status,
                "project_id": project_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        node_id = UUID(d.pop("node_id"))

        title = d.pop("title")

        kind = d.pop("kind")

        planned_year = d.pop("planned_year")

        def _parse_interval_years(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        interval_years = _parse_interval_years(d.pop("interval_years"))

        estimated_cost = d.pop("estimated_cost")

        nominal_cost = d.pop("nominal_cost")

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

        action = cls(
            id=id,
            node_id=node_id,
            title=title,
            kind=kind,
            planned_year=planned_year,
            interval_years=interval_years,
            estimated_cost=estimated_cost,
            nominal_cost=nominal_cost,
            status=status,
            project_id=project_id,
        )

        action.additional_properties = d
        return action

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.kind_enum import KindEnum
from ..models.status_enum import StatusEnum
from ..types import UNSET, Unset

T = TypeVar("T", bound="ActionBody")


@_attrs_define
class ActionBody:
    """An action's fields as a client sends them; the bounds are the model's (checked by the
    service, as in the web app).

        Attributes:
            title (str):
            kind (KindEnum): * `inspection` - Inspection
                * `repair` - Repair
                * `replacement` - Replacement
            planned_year (int):
            node_id (UUID):
            interval_years (int | None | Unset):
            estimated_cost (str | Unset):  Default: '0.00'.
            status (StatusEnum | Unset): * `planned` - planned
                * `cancelled` - cancelled
            project_id (None | Unset | UUID):
    """

    title: str
    kind: KindEnum
    planned_year: int
    node_id: UUID
    interval_years: int | None | Unset = UNSET
    estimated_cost: str | Unset = "0.00"
    status: StatusEnum | Unset = UNSET
    project_id: None | Unset | UUID = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        title = self.title

        kind = self.kind.value

        planned_year = self.planned_year

        node_id = str(self.node_id)

        interval_years: int | None | Unset
        if isinstance(self.interval_years, Unset):
            interval_years = UNSET
        else:
            interval_years = self.interval_years

        estimated_cost = self.estimated_cost

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        project_id: None | str | Unset
        if isinstance(self.project_id, Unset):
            project_id = UNSET
        elif isinstance(self.project_id, UUID):
            project_id = str(self.project_id)
        else:
            project_id = self.project_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "title": title,
                "kind": kind,
                "planned_year": planned_year,
                "node_id": node_id,
            }
        )
        if interval_years is not UNSET:
            field_dict["interval_years"] = interval_years
        if estimated_cost is not UNSET:
            field_dict["estimated_cost"] = estimated_cost
        if status is not UNSET:
            field_dict["status"] = status
        if project_id is not UNSET:
            field_dict["project_id"] = project_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        title = d.pop("title")

        kind = KindEnum(d.pop("kind"))

        planned_year = d.pop("planned_year")

        node_id = UUID(d.pop("node_id"))

        def _parse_interval_years(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        interval_years = _parse_interval_years(d.pop("interval_years", UNSET))

        estimated_cost = d.pop("estimated_cost", UNSET)

        _status = d.pop("status", UNSET)
        status: StatusEnum | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = StatusEnum(_status)

        def _parse_project_id(data: object) -> None | Unset | UUID:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                project_id_type_0 = UUID(data)

                return project_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UUID, data)

        project_id = _parse_project_id(d.pop("project_id", UNSET))

        action_body = cls(
            title=title,
            kind=kind,
            planned_year=planned_year,
            node_id=node_id,
            interval_years=interval_years,
            estimated_cost=estimated_cost,
            status=status,
            project_id=project_id,
        )

        action_body.additional_properties = d
        return action_body

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Node")


@_attrs_define
class Node:
    """
    Attributes:
        id (UUID):
        parent_id (None | UUID):
        name (str):
        kind (str): site, building, component, ... (more may come).
        code (None | str):
        quantity (None | str):
        unit (str):
        install_year (int | None):
        building_id (None | UUID): The building it is in.
        path (str): Ancestor ids from the top, '/'-separated.
        ref (None | str):
        address (str):
        gross_floor_area_m2 (None | str):
        year_built (int | None):
        condition_grade (int | None): A component's current condition, 0-3 (its latest survey).
        condition_assessed_on (datetime.date | None):
        condition_consequence (int | None): The consequence of the component's failure: 0 none, 1 small, 2 medium, 3
            large.
        condition_risk (int | None): condition_grade x condition_consequence (0-9); null unless both are known.
    """

    id: UUID
    parent_id: None | UUID
    name: str
    kind: str
    code: None | str
    quantity: None | str
    unit: str
    install_year: int | None
    building_id: None | UUID
    path: str
    ref: None | str
    address: str
    gross_floor_area_m2: None | str
    year_built: int | None
    condition_grade: int | None
    condition_assessed_on: datetime.date | None
    condition_consequence: int | None
    condition_risk: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        parent_id: None | str
        if isinstance(self.parent_id, UUID):
            parent_id = str(self.parent_id)
        else:
            parent_id = self.parent_id

        name = self.name

        kind = self.kind

        code: None | str
        code = self.code

        quantity: None | str
        quantity = self.quantity

        unit = self.unit

        install_year: int | None
        install_year = self.install_year

        building_id: None | str
        if isinstance(self.building_id, UUID):
            building_id = str(self.building_id)
        else:
            building_id = self.building_id

        path = self.path

        ref: None | str
        ref = self.ref

        address = self.address

        gross_floor_area_m2: None | str
        gross_floor_area_m2 = self.gross_floor_area_m2

        year_built: int | None
        year_built = self.year_built

        condition_grade: int | None
        condition_grade = self.condition_grade

        condition_assessed_on: None | str
        if isinstance(self.condition_assessed_on, datetime.date):
            condition_assessed_on = self.condition_assessed_on.isoformat()
        else:
            condition_assessed_on = self.condition_assessed_on

        condition_consequence: int | None
        condition_consequence = self.condition_consequence

        condition_risk: int | None
        condition_risk = self.condition_risk

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "parent_id": parent_id,
                "name": name,
                "kind": kind,
                "code": code,
                "quantity": quantity,
                "unit": unit,
                "install_year": install_year,
                "building_id": building_id,
                "path": path,
                "ref": ref,
                "address": address,
                "gross_floor_area_m2": gross_floor_area_m2,
                "year_built": year_built,
                "condition_grade": condition_grade,
                "condition_assessed_on": condition_assessed_on,
                "condition_consequence": condition_consequence,
                "condition_risk": condition_risk,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        def _parse_parent_id(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                parent_id_type_0 = UUID(data)

                return parent_id_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        parent_id = _parse_parent_id(d.pop("parent_id"))

        name = d.pop("name")

        kind = d.pop("kind")

        def _parse_code(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        code = _parse_code(d.pop("code"))

        def _parse_quantity(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        quantity = _parse_quantity(d.pop("quantity"))

        unit = d.pop("unit")

        def _parse_install_year(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        install_year = _parse_install_year(d.pop("install_year"))

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

        path = d.pop("path")

        def _parse_ref(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        ref = _parse_ref(d.pop("ref"))

        address = d.pop("address")

        def _parse_gross_floor_area_m2(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        gross_floor_area_m2 = _parse_gross_floor_area_m2(d.pop("gross_floor_area_m2"))

        def _parse_year_built(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        year_built = _parse_year_built(d.pop("year_built"))

        def _parse_condition_grade(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        condition_grade = _parse_condition_grade(d.pop("condition_grade"))

        def _parse_condition_assessed_on(data: object) -> datetime.date | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                condition_assessed_on_type_0 = datetime.date.fromisoformat(data)

                return condition_assessed_on_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.date | None, data)

        condition_assessed_on = _parse_condition_assessed_on(
            d.pop("condition_assessed_on")
        )

        def _parse_condition_consequence(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        condition_consequence = _parse_condition_consequence(
            d.pop("condition_consequence")
        )

        def _parse_condition_risk(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        condition_risk = _parse_condition_risk(d.pop("condition_risk"))

        node = cls(
            id=id,
            parent_id=parent_id,
            name=name,
            kind=kind,
            code=code,
            quantity=quantity,
            unit=unit,
            install_year=install_year,
            building_id=building_id,
            path=path,
            ref=ref,
            address=address,
            gross_floor_area_m2=gross_floor_area_m2,
            year_built=year_built,
            condition_grade=condition_grade,
            condition_assessed_on=condition_assessed_on,
            condition_consequence=condition_consequence,
            condition_risk=condition_risk,
        )

        node.additional_properties = d
        return node

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.organisation import Organisation


T = TypeVar("T", bound="PlanItem")


@_attrs_define
class PlanItem:
    """
    Attributes:
        id (UUID):
        number (int):
        name (str):
        organisation (Organisation):
        currency (str):
        open_count (int): Open suggestions as of the plan's last synchronisation.
        updated_at (datetime.datetime): ISO 8601, UTC (Z)
    """

    id: UUID
    number: int
    name: str
    organisation: Organisation
    currency: str
    open_count: int
    updated_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        number = self.number

        name = self.name

        organisation = self.organisation.to_dict()

        currency = self.currency

        open_count = self.open_count

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "number": number,
                "name": name,
                "organisation": organisation,
                "currency": currency,
                "open_count": open_count,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.organisation import Organisation

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        number = d.pop("number")

        name = d.pop("name")

        organisation = Organisation.from_dict(d.pop("organisation"))

        currency = d.pop("currency")

        open_count = d.pop("open_count")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        plan_item = cls(
            id=id,
            number=number,
            name=name,
            organisation=organisation,
            currency=currency,
            open_count=open_count,
            updated_at=updated_at,
        )

        plan_item.additional_properties = d
        return plan_item

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

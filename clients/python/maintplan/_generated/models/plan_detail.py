from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.key_figures import KeyFigures
    from ..models.money_settings import MoneySettings
    from ..models.organisation import Organisation


T = TypeVar("T", bound="PlanDetail")


@_attrs_define
class PlanDetail:
    """
    Attributes:
        id (UUID):
        number (int):
        name (str):
        organisation (Organisation):
        currency (str):
        open_count (int): Open suggestions as of the plan's last synchronisation.
        updated_at (datetime.datetime): ISO 8601, UTC (Z)
        description (str):
        money (MoneySettings):
        key_figures (KeyFigures):
    """

    id: UUID
    number: int
    name: str
    organisation: Organisation
    currency: str
    open_count: int
    updated_at: datetime.datetime
    description: str
    money: MoneySettings
    key_figures: KeyFigures
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        number = self.number

        name = self.name

        organisation = self.organisation.to_dict()

        currency = self.currency

        open_count = self.open_count

        updated_at = self.updated_at.isoformat()

        description = self.description

        money = self.money.to_dict()

        key_figures = self.key_figures.to_dict()

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
                "description": description,
                "money": money,
                "key_figures": key_figures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.key_figures import KeyFigures
        from ..models.money_settings import MoneySettings
        from ..models.organisation import Organisation

        d = dict(src_dict)
        id = UUID(d.pop("id"))

        number = d.pop("number")

        name = d.pop("name")

        organisation = Organisation.from_dict(d.pop("organisation"))

        currency = d.pop("currency")

        open_count = d.pop("open_count")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        description = d.pop("description")

        money = MoneySettings.from_dict(d.pop("money"))

        key_figures = KeyFigures.from_dict(d.pop("key_figures"))

        plan_detail = cls(
            id=id,
            number=number,
            name=name,
            organisation=organisation,
            currency=currency,
            open_count=open_count,
            updated_at=updated_at,
            description=description,
            money=money,
            key_figures=key_figures,
        )

        plan_detail.additional_properties = d
        return plan_detail

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ApiKeyPrincipal")


@_attrs_define
class ApiKeyPrincipal:
    """
    Attributes:
        type_ (str): `user` (a person's own key) or `service_account` (a key of one of an organisation's service
            accounts). More kinds may come: treat an unknown one like `service_account`.
        id (str): The person's id, or the service account's: the same through its keys' rolls, new keys and revocations,
            so it is what to key an integration's identity on.
        name (str): The person's name, or the service account's.
    """

    type_: str
    id: str
    name: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_

        id = self.id

        name = self.name

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "type": type_,
                "id": id,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = d.pop("type")

        id = d.pop("id")

        name = d.pop("name")

        api_key_principal = cls(
            type_=type_,
            id=id,
            name=name,
        )

        api_key_principal.additional_properties = d
        return api_key_principal

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

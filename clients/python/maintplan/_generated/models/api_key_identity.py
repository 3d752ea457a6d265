from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.api_key_identity_organisation_type_0 import (
        ApiKeyIdentityOrganisationType0,
    )
    from ..models.api_key_principal import ApiKeyPrincipal
    from ..models.api_key_session_key import ApiKeySessionKey
    from ..models.api_key_session_user import ApiKeySessionUser


T = TypeVar("T", bound="ApiKeyIdentity")


@_attrs_define
class ApiKeyIdentity:
    """
    Attributes:
        user (ApiKeySessionUser):
        api_key (ApiKeySessionKey):
        api_access_enabled (bool):
        principal (ApiKeyPrincipal):
        organisation (ApiKeyIdentityOrganisationType0 | None): The organisation a service account belongs to; null for a
            person's key.
    """

    user: ApiKeySessionUser
    api_key: ApiKeySessionKey
    api_access_enabled: bool
    principal: ApiKeyPrincipal
    organisation: ApiKeyIdentityOrganisationType0 | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.api_key_identity_organisation_type_0 import (
            ApiKeyIdentityOrganisationType0,
        )

        user = self.user.to_dict()

        api_key = self.api_key.to_dict()

        api_access_enabled = self.api_access_enabled

        principal = self.principal.to_dict()

        organisation: dict[str, Any] | None
        if isinstance(self.organisation, ApiKeyIdentityOrganisationType0):
            organisation = self.organisation.to_dict()
        else:
            organisation = self.organisation

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user": user,
                "api_key": api_key,
                "api_access_enabled": api_access_enabled,
                "principal": principal,
                "organisation": organisation,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.api_key_identity_organisation_type_0 import (
            ApiKeyIdentityOrganisationType0,
        )
        from ..models.api_key_principal import ApiKeyPrincipal
        from ..models.api_key_session_key import ApiKeySessionKey
        from ..models.api_key_session_user import ApiKeySessionUser

        d = dict(src_dict)
        user = ApiKeySessionUser.from_dict(d.pop("user"))

        api_key = ApiKeySessionKey.from_dict(d.pop("api_key"))

        api_access_enabled = d.pop("api_access_enabled")

        principal = ApiKeyPrincipal.from_dict(d.pop("principal"))

        def _parse_organisation(data: object) -> ApiKeyIdentityOrganisationType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                organisation_type_0 = ApiKeyIdentityOrganisationType0.from_dict(data)

                return organisation_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ApiKeyIdentityOrganisationType0 | None, data)

        organisation = _parse_organisation(d.pop("organisation"))

        api_key_identity = cls(
            user=user,
            api_key=api_key,
            api_access_enabled=api_access_enabled,
            principal=principal,
            organisation=organisation,
        )

        api_key_identity.additional_properties = d
        return api_key_identity

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

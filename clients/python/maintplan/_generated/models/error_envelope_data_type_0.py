from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.error_envelope_data_type_0_errors import ErrorEnvelopeDataType0Errors


T = TypeVar("T", bound="ErrorEnvelopeDataType0")


@_attrs_define
class ErrorEnvelopeDataType0:
    """null, or `{"errors": {field: [messages]}}` for field errors.

    Attributes:
        errors (ErrorEnvelopeDataType0Errors):
    """

    errors: ErrorEnvelopeDataType0Errors
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        errors = self.errors.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "errors": errors,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_envelope_data_type_0_errors import (
            ErrorEnvelopeDataType0Errors,
        )

        d = dict(src_dict)
        errors = ErrorEnvelopeDataType0Errors.from_dict(d.pop("errors"))

        error_envelope_data_type_0 = cls(
            errors=errors,
        )

        error_envelope_data_type_0.additional_properties = d
        return error_envelope_data_type_0

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

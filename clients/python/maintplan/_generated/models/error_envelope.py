from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.error_envelope_data_type_0 import ErrorEnvelopeDataType0


T = TypeVar("T", bound="ErrorEnvelope")


@_attrs_define
class ErrorEnvelope:
    """
    Attributes:
        success (bool): Always false for an error.
        message (str): Human-readable message.
        message_key (str): Stable dotted key, e.g. auth.invalid_api_key.
        data (ErrorEnvelopeDataType0 | None): null, or `{"errors": {field: [messages]}}` for field errors.
        trace_id (str): Quote it in a support request.
    """

    success: bool
    message: str
    message_key: str
    data: ErrorEnvelopeDataType0 | None
    trace_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.error_envelope_data_type_0 import ErrorEnvelopeDataType0

        success = self.success

        message = self.message

        message_key = self.message_key

        data: dict[str, Any] | None
        if isinstance(self.data, ErrorEnvelopeDataType0):
            data = self.data.to_dict()
        else:
            data = self.data

        trace_id = self.trace_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "success": success,
                "message": message,
                "messageKey": message_key,
                "data": data,
                "traceId": trace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_envelope_data_type_0 import ErrorEnvelopeDataType0

        d = dict(src_dict)
        success = d.pop("success")

        message = d.pop("message")

        message_key = d.pop("messageKey")

        def _parse_data(data: object) -> ErrorEnvelopeDataType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = ErrorEnvelopeDataType0.from_dict(data)

                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(ErrorEnvelopeDataType0 | None, data)

        data = _parse_data(d.pop("data"))

        trace_id = d.pop("traceId")

        error_envelope = cls(
            success=success,
            message=message,
            message_key=message_key,
            data=data,
            trace_id=trace_id,
        )

        error_envelope.additional_properties = d
        return error_envelope

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

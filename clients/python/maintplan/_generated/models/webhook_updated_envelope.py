from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.webhook_endpoint import WebhookEndpoint


T = TypeVar("T", bound="WebhookUpdatedEnvelope")


@_attrs_define
class WebhookUpdatedEnvelope:
    """
    Attributes:
        data (WebhookEndpoint):
        success (bool): Always true for a success.
        message (str): Human-readable message.
        message_key (str): Stable dotted key of the message.
        trace_id (str): Trace identifier of the request.
    """

    data: WebhookEndpoint
    success: bool
    message: str
    message_key: str
    trace_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        data = self.data.to_dict()

        success = self.success

        message = self.message

        message_key = self.message_key

        trace_id = self.trace_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "data": data,
                "success": success,
                "message": message,
                "messageKey": message_key,
                "traceId": trace_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_endpoint import WebhookEndpoint

        d = dict(src_dict)
        data = WebhookEndpoint.from_dict(d.pop("data"))

        success = d.pop("success")

        message = d.pop("message")

        message_key = d.pop("messageKey")

        trace_id = d.pop("traceId")

        webhook_updated_envelope = cls(
            data=data,
            success=success,
            message=message,
            message_key=message_key,
            trace_id=trace_id,
        )

        webhook_updated_envelope.additional_properties = d
        return webhook_updated_envelope

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

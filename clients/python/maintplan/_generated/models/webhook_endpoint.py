from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookEndpoint")


@_attrs_define
class WebhookEndpoint:
    """
    Attributes:
        id (UUID):
        url (str):
        description (str):
        plans (list[int] | None): The numbers of the plans it covers; null: every plan of the organisation.
        enabled (bool):
        disabled_reason (str): owner or failing (more may come); empty while enabled.
        secret_hint (str): The first characters of the secret.
        previous_secret_until (datetime.datetime | None): Until then deliveries are signed with the secret before the
            last rotation too.
        failing_since (datetime.datetime | None):
        created_at (datetime.datetime):
    """

    id: UUID
    url: str
    description: str
    plans: list[int] | None
    enabled: bool
    disabled_reason: str
    secret_hint: str
    previous_secret_until: datetime.datetime | None
    failing_since: datetime.datetime | None
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        url = self.url

        description = self.description

        plans: list[int] | None
        if isinstance(self.plans, list):
            plans = self.plans

        else:
            plans = self.plans

        enabled = self.enabled

        disabled_reason = self.disabled_reason

        secret_hint = self.secret_hint

        previous_secret_until: None | str
        if isinstance(self.previous_secret_until, datetime.datetime):
            previous_secret_until = self.previous_secret_until.isoformat()
        else:
            previous_secret_until = self.previous_secret_until

        failing_since: None | str
        if isinstance(self.failing_since, datetime.datetime):
            failing_since = self.failing_since.isoformat()
        else:
            failing_since = self.failing_since

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "url": url,
                "description": description,
                "plans": plans,
                "enabled": enabled,
                "disabled_reason": disabled_reason,
                "secret_hint": secret_hint,
                "previous_secret_until": previous_secret_until,
                "failing_since": failing_since,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        url = d.pop("url")

        description = d.pop("description")

        def _parse_plans(data: object) -> list[int] | None:
            if data is None:
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                plans_type_0 = cast(list[int], data)

                return plans_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[int] | None, data)

        plans = _parse_plans(d.pop("plans"))

        enabled = d.pop("enabled")

        disabled_reason = d.pop("disabled_reason")

        secret_hint = d.pop("secret_hint")

        def _parse_previous_secret_until(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_until_type_0 = datetime.datetime.fromisoformat(data)

                return previous_secret_until_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_until = _parse_previous_secret_until(
            d.pop("previous_secret_until")
        )

        def _parse_failing_since(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failing_since_type_0 = datetime.datetime.fromisoformat(data)

                return failing_since_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        failing_since = _parse_failing_since(d.pop("failing_since"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        webhook_endpoint = cls(
            id=id,
            url=url,
            description=description,
            plans=plans,
            enabled=enabled,
            disabled_reason=disabled_reason,
            secret_hint=secret_hint,
            previous_secret_until=previous_secret_until,
            failing_since=failing_since,
            created_at=created_at,
        )

        webhook_endpoint.additional_properties = d
        return webhook_endpoint

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

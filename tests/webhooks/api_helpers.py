"""Keys and requests for the webhook operations of the API (tests/webhooks/test_api_*.py)."""

from __future__ import annotations

from typing import Any

from django.test import Client

from apikeys.models import ApiKey
from apikeys.services import api_access_set, api_key_create
from organisations.models import Organisation
from tests.factories import OrganisationFactory, PlanFactory

BASE = "/api/v1/platform/webhooks"
PUBLIC_URL = "https://93.184.215.14/hooks"  # a public address: no DNS needed


def organisation_with_plans(count: int = 2) -> Organisation:
    organisation: Organisation = OrganisationFactory.create(api_access_enabled=True)
    PlanFactory.create_batch(count, organisation=organisation)
    return organisation


def service_key(organisation: Organisation, permission: str = ApiKey.Permission.READ_WRITE) -> str:
    _key, raw = api_key_create(
        user=None, name=f"ERP {permission}", organisation=organisation, permission=permission
    )
    return raw


def person_key(user: Any) -> str:
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="mine", permission=ApiKey.Permission.READ_WRITE)
    return raw


def call(raw: str, method: str, path: str = "", body: Any = None, **headers: str) -> Any:
    client = Client()
    send = getattr(client, method.lower())
    kwargs: dict[str, Any] = {"headers": {"Authorization": f"Bearer {raw}", **headers}}
    if method in ("POST", "PATCH", "DELETE"):
        kwargs["content_type"] = "application/json"
        if body is not None:
            kwargs["data"] = body
    return send(BASE + path, **kwargs)


def create(raw: str, **body: Any) -> dict[str, Any]:
    response = call(raw, "POST", "", {"url": PUBLIC_URL, **body})
    assert response.status_code == 200, response.json()
    data: dict[str, Any] = response.json()["data"]
    return data

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from integrations.models import ApiKey
from integrations.services import api_access_set, api_key_create
from tests.factories import UserFactory

SESSION_CHECK_URL = "/api/v1/auth/session/api-key"


@pytest.fixture
def api_user(user: Any) -> Any:
    """An account whose API access is enabled (the policy is on by default)."""
    api_access_set(user=user, enabled=True)
    return user


@pytest.fixture
def other_user(db: Any) -> Any:
    return UserFactory()


@pytest.fixture
def superuser(db: Any) -> Any:
    return UserFactory(is_staff=True, is_superuser=True)


@pytest.fixture
def api_key_and_raw(api_user: Any) -> tuple[ApiKey, str]:
    return api_key_create(user=api_user, name="ERP sync")


@pytest.fixture
def raw_key(api_key_and_raw: tuple[ApiKey, str]) -> str:
    return api_key_and_raw[1]


def session_check(client: Client, authorization: str | None, body: str = "{}") -> Any:
    headers: dict[str, Any] = {}
    if authorization is not None:
        headers["HTTP_AUTHORIZATION"] = authorization
    return client.post(SESSION_CHECK_URL, body, content_type="application/json", **headers)

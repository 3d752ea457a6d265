from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tests.factories import UserFactory

SESSION_CHECK_URL = "/api/v1/auth/session/api-key"


@pytest.fixture
def other_user(db: Any) -> Any:
    return UserFactory()


@pytest.fixture
def superuser(db: Any) -> Any:
    return UserFactory(is_staff=True, is_superuser=True)


def session_check(client: Client, authorization: str | None, body: str = "{}") -> Any:
    headers: dict[str, Any] = {}
    if authorization is not None:
        headers["HTTP_AUTHORIZATION"] = authorization
    return client.post(SESSION_CHECK_URL, body, content_type="application/json", **headers)

"""api.errors: no cache may keep an error answer (issue 27, point 10). A GET 401 on the
suggestions route used to carry no Cache-Control at all; only the session check's own answers
said no-store."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from api.errors import ERROR_CATALOG, ApiError
from apikeys.models import ApiKey
from apikeys.services import api_access_set
from tests.envelope import assert_envelope

SUGGESTIONS = "/api/v1/platform/plans/{}/suggestions"


@pytest.mark.parametrize("message_key", sorted(ERROR_CATALOG))
def test_every_error_of_the_catalog_says_no_store(message_key: str) -> None:
    assert ApiError(message_key).headers["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_a_get_401_on_the_suggestions_route_says_no_store(client: Client) -> None:
    missing = client.get(SUGGESTIONS.format(1))
    invalid = client.get(SUGGESTIONS.format(1), HTTP_AUTHORIZATION="Bearer mpk_nope")

    assert_envelope(missing, 401, "auth.missing_api_key")
    assert missing["Cache-Control"] == "no-store"
    assert_envelope(invalid, 401, "auth.invalid_api_key")
    assert invalid["Cache-Control"] == "no-store"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("path", "headers", "status", "message_key"),
    [
        (SUGGESTIONS.format("07"), {}, 400, "validation.plan_number"),
        (SUGGESTIONS.format(1) + "?severity=loud", {}, 400, "validation.query"),
        (SUGGESTIONS.format(999), {}, 404, "plans.not_found"),
        (SUGGESTIONS.format(1), {"HTTP_ACCEPT": "text/csv"}, 406, "routing.not_acceptable"),
        ("/api/v1/platform/no-such-thing", {}, 404, "routing.not_found"),
    ],
)
def test_every_error_of_a_get_says_no_store(
    client: Client, raw_key: str, path: str, headers: dict[str, Any], status: int, message_key: str
) -> None:
    response = client.get(path, HTTP_AUTHORIZATION=f"Bearer {raw_key}", **headers)

    assert_envelope(response, status, message_key)
    assert response["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_a_403_and_a_429_on_a_get_say_no_store(
    client: Client, api_key_and_raw: tuple[ApiKey, str], settings: Any
) -> None:
    api_key, raw = api_key_and_raw
    url, auth = SUGGESTIONS.format(1), f"Bearer {raw}"
    settings.MAINTPLAN_THROTTLE_RATES = {**settings.MAINTPLAN_THROTTLE_RATES, "api_key": "1/minute"}
    client.get(url, HTTP_AUTHORIZATION=auth)  # the one request of this minute

    throttled = client.get(url, HTTP_AUTHORIZATION=auth)
    assert api_key.owner is not None
    api_access_set(user=api_key.owner, enabled=False)
    refused = client.get(url, HTTP_AUTHORIZATION=auth)

    assert_envelope(throttled, 429, "throttle.rate_limited")
    assert throttled["Cache-Control"] == "no-store"
    assert_envelope(refused, 403, "auth.api_access_disabled")
    assert refused["Cache-Control"] == "no-store"


@pytest.mark.django_db
def test_a_success_keeps_its_own_cache_control(client: Client, raw_key: str, user: Any) -> None:
    from planning.plans.services.plans import plan_create

    plan = plan_create(owner=user, name="A")

    response = client.get(SUGGESTIONS.format(plan.number), HTTP_AUTHORIZATION=f"Bearer {raw_key}")

    assert_envelope(response, 200, "ok")
    assert response["Cache-Control"] == "private, no-cache"

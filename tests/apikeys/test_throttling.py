from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIRequestFactory

from api.throttling import ApiKeyThrottle, ApiUserThrottle
from apikeys.models import ApiKey
from apikeys.services import api_access_set, api_key_create, api_key_revoke
from tests.apikeys.conftest import session_check
from tests.envelope import assert_envelope
from tests.factories import UserFactory


@pytest.fixture
def two_per_minute(settings: Any) -> None:
    settings.MAINTPLAN_THROTTLE_RATES = {**settings.MAINTPLAN_THROTTLE_RATES, "api_key": "2/minute"}


def test_key_over_its_rate_gets_429_with_retry_after(
    client: Any, raw_key: str, two_per_minute: None
) -> None:
    for _ in range(2):
        assert session_check(client, f"Bearer {raw_key}").status_code == 200
    response = session_check(client, f"Bearer {raw_key}")
    assert_envelope(response, 429, "throttle.rate_limited")
    # At most the rest of this minute plus half the next, for one of the two to slide out.
    assert 1 <= int(response["Retry-After"]) <= 90


def test_rate_is_counted_per_key(
    client: Any, api_user: Any, raw_key: str, two_per_minute: None
) -> None:
    _other, other_raw = api_key_create(user=api_user, name="second key")
    for _ in range(2):
        session_check(client, f"Bearer {raw_key}")
    assert session_check(client, f"Bearer {raw_key}").status_code == 429
    assert session_check(client, f"Bearer {other_raw}").status_code == 200


def test_authentication_error_wins_over_throttling(
    client: Any, api_key_and_raw: tuple[ApiKey, str], two_per_minute: None
) -> None:
    api_key, raw = api_key_and_raw
    for _ in range(2):
        session_check(client, f"Bearer {raw}")
    assert_envelope(session_check(client, f"Bearer {raw}"), 429, "throttle.rate_limited")
    api_key_revoke(api_key=api_key)

    # The key's own counter is spent, yet the answer is about the key, not the rate.
    assert_envelope(session_check(client, f"Bearer {raw}"), 401, "auth.api_key_revoked")
    assert_envelope(session_check(client, None), 401, "auth.missing_api_key")
    mistyped = raw[:-1] + ("x" if raw[-1] != "x" else "y")
    assert_envelope(session_check(client, f"Bearer {mistyped}"), 401, "auth.invalid_api_key")


def test_default_rate_is_600_per_minute() -> None:
    assert ApiKeyThrottle().get_rate() == "600/minute"


def test_request_without_a_key_is_counted_per_address() -> None:
    request = APIRequestFactory().get("/", REMOTE_ADDR="203.0.113.9")
    request.auth = None
    key = ApiKeyThrottle().get_cache_key(request, None)
    assert key == "throttle_api_key_addr:203.0.113.9"


def test_request_with_a_key_is_counted_per_key_id(api_key_and_raw: tuple[ApiKey, str]) -> None:
    api_key, _raw = api_key_and_raw
    request = APIRequestFactory().get("/", REMOTE_ADDR="203.0.113.9")
    request.auth = api_key
    assert ApiKeyThrottle().get_cache_key(request, None) == f"throttle_api_key_key:{api_key.pk}"


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: Any) -> Clock:
    fake = Clock(1_000_000 * 60.0)  # the start of a one-minute window
    monkeypatch.setattr(ApiKeyThrottle, "timer", fake)
    return fake


def allowed(api_key: ApiKey) -> bool:
    request = APIRequestFactory().get("/")
    request.auth = api_key
    return ApiKeyThrottle().allow_request(request, None)


def test_window_boundary_does_not_reset_the_count(
    api_key_and_raw: tuple[ApiKey, str], two_per_minute: None, clock: Clock
) -> None:
    api_key, _raw = api_key_and_raw
    clock.now += 59.9
    assert [allowed(api_key), allowed(api_key)] == [True, True]
    clock.now += 0.2  # the next fixed window has begun
    assert allowed(api_key) is False


def test_requests_slide_out_of_the_window(
    api_key_and_raw: tuple[ApiKey, str], settings: Any, clock: Clock
) -> None:
    settings.MAINTPLAN_THROTTLE_RATES = {**settings.MAINTPLAN_THROTTLE_RATES, "api_key": "4/minute"}
    api_key, _raw = api_key_and_raw
    clock.now += 50
    assert [allowed(api_key) for _ in range(5)] == [True, True, True, True, False]
    clock.now += 40  # 30 s into the next window: half of the previous one still counts
    assert [allowed(api_key) for _ in range(3)] == [True, True, False]
    clock.now += 60  # the first window has slid out entirely
    assert allowed(api_key) is True


def test_retry_after_is_the_time_until_a_request_is_allowed(
    api_key_and_raw: tuple[ApiKey, str], two_per_minute: None, clock: Clock
) -> None:
    api_key, _raw = api_key_and_raw
    request = APIRequestFactory().get("/")
    request.auth = api_key
    clock.now += 15
    throttle = ApiKeyThrottle()
    for _ in range(2):
        assert ApiKeyThrottle().allow_request(request, None)
    assert throttle.allow_request(request, None) is False
    # 45 s to the end of this window, then 30 s for half of its two requests to slide out.
    assert throttle.wait() == pytest.approx(75)
    clock.now += 74
    assert ApiKeyThrottle().allow_request(request, None) is False
    clock.now += 1.01
    assert ApiKeyThrottle().allow_request(request, None) is True


def test_default_rate_per_account_is_1200_per_minute() -> None:
    assert ApiUserThrottle().get_rate() == "1200/minute"


def test_more_keys_do_not_buy_more_requests(client: Any, api_user: Any, settings: Any) -> None:
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_key": "2/minute",
        "api_user": "3/minute",
    }
    raws = [api_key_create(user=api_user, name=f"key {n}")[1] for n in range(4)]
    answers = [session_check(client, f"Bearer {raw}").status_code for raw in raws]

    assert answers == [200, 200, 200, 429]
    response = session_check(client, f"Bearer {raws[0]}")
    assert_envelope(response, 429, "throttle.rate_limited")
    assert int(response["Retry-After"]) >= 1


def test_the_account_limit_is_per_account(client: Any, api_user: Any, settings: Any) -> None:
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_user": "1/minute",
    }
    other = UserFactory.create()
    api_access_set(user=other, enabled=True)
    _key, mine = api_key_create(user=api_user, name="mine")
    _key, theirs = api_key_create(user=other, name="theirs")

    assert session_check(client, f"Bearer {mine}").status_code == 200
    assert session_check(client, f"Bearer {mine}").status_code == 429
    assert session_check(client, f"Bearer {theirs}").status_code == 200

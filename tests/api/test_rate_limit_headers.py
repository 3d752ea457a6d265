"""Limits said out loud (docs/subsystems/limits.md "Limits"): every answer a limit counted, and
every 429, carries RateLimit-Policy and RateLimit for the tightest limit; failed authentications are
limited per client address."""

from __future__ import annotations

import functools
import re
from typing import Any

import pytest
from django.test import Client

from api.throttling import ApiKeyThrottle, AuthFailureThrottle
from apikeys.keys import key_generate
from apikeys.services import api_access_set, api_key_create
from tests.envelope import assert_envelope
from tests.factories import PlanFactory, PlanMembershipFactory

pytestmark = pytest.mark.django_db

POLICY = re.compile(r'^"(key|account|address|failed-key)";q=(\d+);w=(\d+)$')
LEFT = re.compile(r'^"(key|account|address|failed-key)";r=(\d+);t=(\d+)$')


@pytest.fixture
def plan_and_key(user: Any) -> tuple[int, str]:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user)
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="erp")
    return plan.number, raw


def _get(url: str, key: str | None = None, address: str = "203.0.113.7") -> Any:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return Client(REMOTE_ADDR=address).get(url, headers=headers)


def test_every_answer_says_the_tightest_limit_and_what_is_left(
    plan_and_key: tuple[int, str], settings: Any
) -> None:
    number, key = plan_and_key
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_key": "5/minute",
        "api_user": "100/minute",
    }
    url = f"/api/v1/platform/plans/{number}/suggestions"
    lefts, resets = [], []
    for _ in range(5):
        response = _get(url, key)
        assert response.status_code == 200
        policy = POLICY.match(response["RateLimit-Policy"])
        left = LEFT.match(response["RateLimit"])
        assert policy and left and policy.group(1) == left.group(1) == "key"
        assert (policy.group(2), policy.group(3)) == ("5", "60")
        lefts.append(int(left.group(2)))
        resets.append(int(left.group(3)))
    assert lefts == [4, 3, 2, 1, 0]
    assert all(1 <= reset <= 60 for reset in resets[:-1])  # until the window moves on
    refused = _get(url, key)
    assert_envelope(refused, 429, "throttle.rate_limited")
    assert LEFT.match(refused["RateLimit"]).group(2) == "0"  # type: ignore[union-attr]
    # With nothing left, t is the wait for the next request: the 429's Retry-After.
    assert int(refused["Retry-After"]) >= 1
    assert abs(resets[-1] - int(refused["Retry-After"])) <= 1


def test_the_account_limit_is_named_when_it_is_the_tighter(
    plan_and_key: tuple[int, str], settings: Any
) -> None:
    number, key = plan_and_key
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_key": "100/minute",
        "api_user": "3/minute",
    }
    response = _get(f"/api/v1/platform/plans/{number}/suggestions", key)
    assert response["RateLimit-Policy"] == '"account";q=3;w=60'


def test_failed_authentications_are_limited_per_address_and_key(
    plan_and_key: tuple[int, str], settings: Any
) -> None:
    number, key = plan_and_key
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_auth_failure": "5/minute",
    }
    url = f"/api/v1/platform/plans/{number}/suggestions"
    for _ in range(5):
        assert _get(url, "mpk_wrong").status_code == 401
    refused = _get(url, "mpk_wrong")
    assert_envelope(refused, 429, "throttle.rate_limited")
    assert refused["RateLimit-Policy"] == '"failed-key";q=5;w=60'
    # the same wrong key from another address, and no key at all, have their own counts
    assert _get(url, "mpk_wrong", address="198.51.100.9").status_code == 401
    assert _get(url, None).status_code == 401
    assert _get(url, key).status_code == 200


# --- failed authentication per address and presented key (issue 37, point 7) ------------------


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    """One clock for every limit, at the start of a minute of the clock."""
    fake = Clock(1_000_000 * 60.0)
    monkeypatch.setattr(ApiKeyThrottle, "timer", fake)
    monkeypatch.setattr(AuthFailureThrottle, "timer", fake)
    return fake


@functools.cache
def _bad(number: int) -> str:
    """A well-formed key that exists nowhere, the same one for a number."""
    del number
    return key_generate()


def test_a_wrong_key_is_slowed_without_locking_out_a_right_key_from_the_same_address(
    plan_and_key: tuple[int, str], settings: Any
) -> None:
    """A misconfigured job behind the same NAT as a good one: its wrong key gets 429 after its
    allowance, the right key from the same address is served."""
    number, key = plan_and_key
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_auth_failure": "5/minute",
    }
    url = f"/api/v1/platform/plans/{number}/suggestions"
    wrong = _bad(1)
    assert [_get(url, wrong).status_code for _ in range(5)] == [401] * 5
    refused = _get(url, wrong)
    assert_envelope(refused, 429, "throttle.rate_limited")
    for _ in range(3):
        assert _get(url, key).status_code == 200
    assert _get(url, _bad(2)).status_code == 401  # another wrong key has its own allowance


def test_the_address_ceiling_stops_a_client_trying_many_keys(
    plan_and_key: tuple[int, str], settings: Any
) -> None:
    number, key = plan_and_key
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_auth_failure": "5/minute",
        "api_auth_failure_address": "8/minute",
    }
    url = f"/api/v1/platform/plans/{number}/suggestions"
    assert [_get(url, _bad(n)).status_code for n in range(8)] == [401] * 8
    refused = _get(url, _bad(9))
    assert_envelope(refused, 429, "throttle.rate_limited")
    assert refused["RateLimit-Policy"] == '"address";q=8;w=60'
    assert _get(url, key, address="198.51.100.9").status_code == 200


def test_a_counted_401_says_the_failure_limit_and_what_is_left(
    plan_and_key: tuple[int, str], clock: Clock
) -> None:
    number, _key = plan_and_key
    url = f"/api/v1/platform/plans/{number}/suggestions"
    clock.now += 18
    wrong = _bad(1)
    first = _get(url, wrong)
    assert_envelope(first, 401, "auth.invalid_api_key")
    assert first["RateLimit-Policy"] == '"failed-key";q=20;w=60'
    assert first["RateLimit"] == '"failed-key";r=19;t=42'
    assert _get(url, wrong)["RateLimit"] == '"failed-key";r=18;t=42'
    assert _get(url, None)["RateLimit"] == '"failed-key";r=19;t=42'  # no key: its own count


@pytest.mark.parametrize("offset", [0.5, 15, 29.2, 44.9, 59.5])
def test_retry_after_and_ratelimit_agree_on_every_429(
    plan_and_key: tuple[int, str], settings: Any, clock: Clock, offset: float
) -> None:
    number, key = plan_and_key
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_key": "3/minute",
        "api_auth_failure": "3/minute",
    }
    url = f"/api/v1/platform/plans/{number}/suggestions"
    clock.now += 30  # the previous minute has some of both
    for _ in range(2):
        _get(url, key), _get(url, _bad(1))
    clock.now += 30 + offset
    for credential in (key, _bad(1)):
        while (response := _get(url, credential)).status_code != 429:
            pass
        reset = int(LEFT.match(response["RateLimit"]).group(3))  # type: ignore[union-attr]
        assert int(response["Retry-After"]) == reset, (credential == key, response["RateLimit"])
        assert LEFT.match(response["RateLimit"]).group(2) == "0"  # type: ignore[union-attr]


def test_the_documented_allowance_holds_in_a_fresh_minute(
    plan_and_key: tuple[int, str], clock: Clock
) -> None:
    """20 failures a minute (the default): after a minute without failures a client has all
    20 again, however its earlier ones fell."""
    number, _key = plan_and_key
    url = f"/api/v1/platform/plans/{number}/suggestions"
    wrong = _bad(1)
    clock.now += 1
    assert [_get(url, wrong).status_code for _ in range(21)] == [401] * 20 + [429]
    clock.now += 60
    assert [_get(url, wrong).status_code for _ in range(21)] == [401] * 20 + [429]
    clock.now += 59.5  # a minute after the last failure: the allowance again
    assert [_get(url, wrong).status_code for _ in range(20)] == [401] * 20

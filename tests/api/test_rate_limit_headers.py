"""Limits said out loud (docs/subsystems/limits.md "Limits"): every answer a limit counted, and
every 429, carries RateLimit-Policy and RateLimit for the tightest limit; failed authentications are
limited per client address."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client

from apikeys.services import api_access_set, api_key_create
from tests.envelope import assert_envelope
from tests.factories import PlanFactory, PlanMembershipFactory

pytestmark = pytest.mark.django_db

POLICY = re.compile(r'^"(key|account|address)";q=(\d+);w=(\d+)$')
LEFT = re.compile(r'^"(key|account|address)";r=(\d+);t=(\d+)$')


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
    lefts = []
    for _ in range(5):
        response = _get(url, key)
        assert response.status_code == 200
        policy = POLICY.match(response["RateLimit-Policy"])
        left = LEFT.match(response["RateLimit"])
        assert policy and left and policy.group(1) == left.group(1) == "key"
        assert (policy.group(2), policy.group(3)) == ("5", "60")
        assert 1 <= int(left.group(3)) <= 60
        lefts.append(int(left.group(2)))
    assert lefts == [4, 3, 2, 1, 0]
    refused = _get(url, key)
    assert_envelope(refused, 429, "throttle.rate_limited")
    assert LEFT.match(refused["RateLimit"]).group(2) == "0"  # type: ignore[union-attr]
    assert int(refused["Retry-After"]) >= 1


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


def test_failed_authentications_are_limited_per_address(
    plan_and_key: tuple[int, str], settings: Any
) -> None:
    number, key = plan_and_key
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_auth_failure": "5/minute",
    }
    url = f"/api/v1/platform/plans/{number}/suggestions"
    for bad in (None, "mpk_wrong", None, "nonsense", None):
        assert _get(url, bad).status_code == 401
    refused = _get(url, "mpk_wrong")
    assert_envelope(refused, 429, "throttle.rate_limited")
    assert refused["RateLimit-Policy"] == '"address";q=5;w=60'
    # even a good key waits at that address; another address is not affected
    assert _get(url, key).status_code == 429
    assert _get(url, key, address="198.51.100.9").status_code == 200
    assert _get(url, None, address="198.51.100.9").status_code == 401

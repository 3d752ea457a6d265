"""The live-key limit under concurrency: a creation and a roll with a grace racing for the last
free place (PostgreSQL, real connections; issue 27, point 6).

Run with `scripts/with-postgres.sh .venv/bin/pytest
tests/apikeys/test_key_limit_concurrency.py -q`.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import timedelta
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from apikeys.models import ApiKey
from apikeys.services import api_key_create, api_key_roll
from tests.concurrency import race

ROUNDS = 5


def _race(*calls: Callable[[], Any]) -> list[str]:
    return race(*calls, refused=(ValidationError,))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_a_creation_and_a_graceful_roll_never_both_take_the_last_place(
    requires_postgres: None, api_user: Any, settings: Any
) -> None:
    settings.API_KEYS_MAX_ACTIVE = 3
    for round_ in range(ROUNDS):
        ApiKey.objects.all().delete()
        first, _raw = api_key_create(user=api_user, name="one")
        api_key_create(user=api_user, name="two")

        outcomes = _race(
            lambda: api_key_create(user=api_user, name="three"),
            lambda: api_key_roll(api_key=first, grace=timedelta(hours=1)),  # noqa: B023
        )

        live = ApiKey.objects.owned_by(api_user).active_at(timezone.now()).count()
        assert (outcomes, live) == (["done", "refused"], 3), round_

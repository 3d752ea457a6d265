from __future__ import annotations

from typing import Any

import pytest

from accounts.models import User
from integrations.services import api_access_set, api_key_create
from planning.models import Action, Plan, PlanMembership, PlanNumberCounter, StructureNode
from planning.services import code_catalog_defaults_load


@pytest.fixture
def starter_catalog(db: Any) -> None:
    """The starter catalog of migration 0003. A transactional test (browser, concurrency) empties
    every table after it ran, migration data included, so tests that need the catalog ask for it.
    """
    code_catalog_defaults_load()


@pytest.fixture
def api_user(user: Any) -> Any:
    """The `user` fixture with API access switched on."""
    api_access_set(user=user, enabled=True)
    return user


@pytest.fixture
def raw_key(api_user: Any) -> str:
    """A live API key of `api_user`, as the `Authorization: Bearer` header takes it."""
    return api_key_create(user=api_user, name="test key")[1]


def db_counts() -> tuple[int | None, ...]:
    """What a write that should not happen would change: the row counts of accounts, plans,
    nodes, actions and memberships, and the last plan number handed out (None without the
    counter row, which a transactional test may have emptied)."""
    return (
        User.objects.count(),
        Plan.objects.count(),
        StructureNode.objects.count(),
        Action.objects.count(),
        PlanMembership.objects.count(),
        PlanNumberCounter.objects.filter(pk=1).values_list("last_number", flat=True).first(),
    )

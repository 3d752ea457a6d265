"""Migration integrations 0007 on the keys of before it (docs/subsystems/api-keys.md "Service
accounts"): each organisation key gets its own service account, named as the key and made by
whoever made it; the key made by a roll joins its old key's; a person's key gets none; every
key keeps working.

It moves the schema with Django's MigrationExecutor, so it runs outside a transaction and leaves
the database at the latest migration whatever happens (as
tests/planning/test_migration_catalog_currency.py). It asserts on its own rows only.
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from django.utils import timezone

from apikeys.keys import key_generate, key_hash, key_hint
from apikeys.models import ApiKey, ServiceAccount
from tests.apikeys.conftest import session_check
from tests.envelope import assert_envelope

pytestmark = pytest.mark.django_db(transaction=True)

BEFORE = ("integrations", "0006_idempotent_requests")


def _migrate(targets: list[tuple[str, str]]) -> Apps:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before() -> Iterator[Apps]:
    try:
        yield _migrate([BEFORE])
    finally:
        _migrate(list(MigrationExecutor(connection).loader.graph.leaf_nodes()))


def test_each_organisation_key_gets_its_own_service_account_and_a_persons_key_none(
    before: Apps,
) -> None:
    OldOrganisation = before.get_model("organisations", "Organisation")
    OldUser = before.get_model("accounts", "User")
    OldApiKey = before.get_model("integrations", "ApiKey")
    admin = OldUser.objects.create(email="sa-admin@example.com", name="Admin", password="!")
    person = OldUser.objects.create(email="sa-person@example.com", name="Person", password="!")
    co_op = OldOrganisation.objects.create(
        name="SA Co-op", slug="sa-co-op", api_access_enabled=True
    )
    start = timezone.now() - timedelta(days=2)
    raws: dict[str, str] = {}

    def key(name: str, **fields: object) -> Any:
        raw = key_generate()
        made = OldApiKey.objects.create(
            name=name, key_hash=key_hash(raw), hint=key_hint(raw), **fields
        )
        raws[name] = raw
        return made.pk

    erp = key("ERP", organisation=co_op, created_by=admin, created_at=start)
    cmms = key("CMMS", organisation=co_op, created_at=start + timedelta(hours=1))
    own = key("Mine", owner=person, created_at=start)

    _migrate(list(MigrationExecutor(connection).loader.graph.leaf_nodes()))

    keys = {k.pk: k for k in ApiKey.objects.filter(pk__in=[erp, cmms, own])}
    assert keys[own].service_account_id is None
    accounts = ServiceAccount.objects.filter(
        pk__in=[keys[erp].service_account_id, keys[cmms].service_account_id]
    )
    assert sorted(
        (a.name, a.organisation.slug, a.created_by.email if a.created_by else None)
        for a in accounts
    ) == [("CMMS", "sa-co-op", None), ("ERP", "sa-co-op", "sa-admin@example.com")]
    principal = assert_envelope(
        session_check(Client(), f"Bearer {raws['ERP']}"), 200, "auth.api_key_valid"
    )["data"]["principal"]
    assert principal == {
        "type": "service_account",
        "id": str(keys[erp].service_account_id),
        "name": "ERP",
    }


def test_a_key_made_by_a_roll_joins_its_old_keys_service_account(before: Apps) -> None:
    OldOrganisation = before.get_model("organisations", "Organisation")
    OldApiKey = before.get_model("integrations", "ApiKey")
    co_op = OldOrganisation.objects.create(name="Roll Co-op", slug="roll-co-op")
    start = timezone.now() - timedelta(days=3)
    rolled_at = start + timedelta(days=1)

    def key(**fields: object) -> Any:
        raw = key_generate()
        return OldApiKey.objects.create(
            organisation=co_op, name="ERP", key_hash=key_hash(raw), hint=key_hint(raw), **fields
        ).pk

    old = key(created_at=start, rolled_at=rolled_at, expires_at=rolled_at + timedelta(hours=1))
    new = key(created_at=rolled_at)
    other = key(created_at=rolled_at + timedelta(hours=2))  # same name, made later: its own

    _migrate(list(MigrationExecutor(connection).loader.graph.leaf_nodes()))

    owners = dict(
        ApiKey.objects.filter(pk__in=[old, new, other]).values_list("pk", "service_account_id")
    )
    assert owners[old] == owners[new] != owners[other]

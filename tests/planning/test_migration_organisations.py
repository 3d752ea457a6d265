"""The organisations migration on a database with the data of before (docs/design.md
"Organisations"): every plan reachable by the same people with the same rights, keys and
webhooks still working, and back and forth again with the change triggers intact."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import Http404
from django.test import Client

from integrations.keys import key_generate, key_hash, key_hint
from planning.models import Plan, PlanChange, StructureNode
from planning.selectors import plan_access_get
from webhooks.models import WebhookEndpoint
from webhooks.selectors import endpoint_covers_plan

BEFORE = [
    ("accounts", "0002_security_log"),
    ("organisations", None),
    ("planning", "0012_plan_import_lease"),
    ("integrations", "0002_key_lifecycle"),
    ("webhooks", "0002_delivery_lease"),
]


def _migrate(targets: list[tuple[str, str | None]]) -> Any:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    executor.loader.build_graph()
    reached = [(app, name) for app, name in targets if name is not None]
    return executor.loader.project_state(reached).apps


def _latest() -> list[tuple[str, str | None]]:
    executor = MigrationExecutor(connection)
    return [node for node in executor.loader.graph.leaf_nodes() if node[0] in dict(BEFORE)]


def _old_data(apps: Any) -> dict[str, Any]:
    User = apps.get_model("accounts", "User")
    Plan_ = apps.get_model("planning", "Plan")
    Membership = apps.get_model("planning", "PlanMembership")
    Counter = apps.get_model("planning", "PlanNumberCounter")
    ApiKey = apps.get_model("integrations", "ApiKey")
    Endpoint = apps.get_model("webhooks", "WebhookEndpoint")
    users = {
        name: User.objects.create(
            email=f"{name}@example.com", name=name.title(), api_access_enabled=True
        )
        for name in ("ann", "bob", "cat", "dan", "eve")
    }
    counter, _ = Counter.objects.get_or_create(pk=1)
    plans = {}
    for number, name in enumerate(
        ["Shared", "Ann alone", "Nobody's"], start=counter.last_number + 1
    ):
        plans[name] = Plan_.objects.create(number=number, name=name, currency="EUR")
    Counter.objects.filter(pk=1).update(last_number=counter.last_number + 3)
    roles = {
        ("Shared", "ann"): "owner",  # the first owner
        ("Shared", "bob"): "owner",  # a co-owner
        ("Shared", "cat"): "editor",
        ("Shared", "dan"): "viewer",
        ("Ann alone", "ann"): "owner",
    }
    for (plan_name, user_name), role in roles.items():
        Membership.objects.create(plan=plans[plan_name], user=users[user_name], role=role)
    raws = {}
    for user_name in ("ann", "cat", "dan"):
        raw = key_generate()
        ApiKey.objects.create(
            owner=users[user_name], name="old", key_hash=key_hash(raw), hint=key_hint(raw)
        )
        raws[user_name] = raw
    Endpoint.objects.create(
        owner=users["cat"],
        url="https://93.184.215.14/hooks",
        all_plans=True,
        secret_encrypted="x",
        secret_hint="whsec_x",
    )
    return {"roles": roles, "raws": raws}


@pytest.mark.django_db(transaction=True)
def test_every_plan_keeps_its_people_rights_keys_and_webhooks(client: Client) -> None:
    old = _old_data(_migrate(BEFORE))

    _migrate(_latest())

    from accounts.models import User
    from organisations.models import Organisation

    people = {
        user.name.lower(): user for user in User.objects.filter(email__endswith="@example.com")
    }
    for (plan_name, user_name), role in old["roles"].items():
        plan = Plan.objects.get(name=plan_name)
        assert plan_access_get(user=people[user_name], number=plan.number).role == role
    for user in people.values():
        assert Organisation.objects.filter(personal_for=user).count() == 1
    ann = people["ann"]
    assert Plan.objects.get(name="Shared").organisation.personal_for == ann
    assert Plan.objects.get(name="Ann alone").organisation.personal_for == ann
    assert Plan.objects.get(name="Nobody's").organisation.name == "Plans without an owner"
    assert not Plan.objects.get(name="Nobody's").organisation.memberships.exists()
    # Eve had no plan and sees none; nobody else sees Ann's own plan.
    with pytest.raises(Http404):
        plan_access_get(user=people["eve"], number=Plan.objects.get(name="Shared").number)
    with pytest.raises(Http404):
        plan_access_get(user=people["cat"], number=Plan.objects.get(name="Ann alone").number)
    shared = Plan.objects.get(name="Shared")
    for user_name, raw in old["raws"].items():
        response = client.get(
            f"/api/v1/platform/plans/{shared.number}/suggestions",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )
        assert response.status_code == 200, user_name
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint_covers_plan(endpoint=endpoint, plan_id=shared.pk)
    assert not endpoint_covers_plan(
        endpoint=endpoint, plan_id=Plan.objects.get(name="Ann alone").pk
    )


@pytest.mark.django_db(transaction=True)
def test_back_and_forth_keeps_the_change_triggers() -> None:
    _migrate(BEFORE)
    _migrate(_latest())
    from tests.factories import PlanFactory, StructureNodeFactory

    plan = PlanFactory.create()
    Plan.objects.filter(pk=plan.pk).update(last_synced_at="2026-01-01T00:00:00Z")
    before = PlanChange.objects.count()

    StructureNodeFactory.create(plan=plan)
    StructureNode.objects.filter(plan=plan).update(name="Renamed")

    assert PlanChange.objects.count() >= before + 2

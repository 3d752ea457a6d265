"""The organisations migration on a database with the data of before it (issue 20, "Tests that
must exist"): every plan reachable by the same people with the same rights, API keys and webhook
endpoints still working; and the way back to planning 0012 and forward again, with the change
triggers of planning 0006/0010 intact (docs/subsystems/organisations.md "How plans moved into
organisations").

Each test moves the schema with Django's MigrationExecutor, so it runs outside a transaction
(`transaction=True`) and leaves the database at the latest migration whatever happens. Run it
on both databases (scripts/with-postgres.sh .venv/bin/pytest <this file> for PostgreSQL).
"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from typing import Any

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.http import Http404
from django.test import Client
from django.utils import timezone

from accounts.models import User
from apikeys.keys import key_generate, key_hash, key_hint
from organisations.models import Organisation, OrganisationMembership, OrganisationRole
from planning.models import Plan, PlanChange, StructureNode
from planning.plans.selectors import plan_access_get
from tests.envelope import assert_envelope
from webhooks.models import WebhookEndpoint
from webhooks.selectors import endpoint_covers_plan

pytestmark = pytest.mark.django_db(transaction=True)

# The schema just before organisations: planning without 0013-0015, no organisations app, API
# keys that always belong to a person, webhook endpoints and the security log as they were.
BEFORE: list[tuple[str, str | None]] = [
    ("planning", "0012_plan_import_lease"),
    ("organisations", None),
    ("integrations", "0002_key_lifecycle"),
    ("accounts", "0002_security_log"),
    ("webhooks", "0002_delivery_lease"),
]
ORPHANS = "Plans without an owner"


def _migrate(targets: list[tuple[str, str | None]]) -> Apps:
    """Moves the schema to `targets` and returns the models as they are there."""
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()  # what is applied now
    applied = [(app, name) for app, name in targets if name is not None]
    return executor.loader.project_state(applied).apps


def _latest() -> list[tuple[str, str | None]]:
    return list(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.fixture
def before() -> Iterator[Apps]:
    """The models of the schema before organisations; the latest schema again afterwards."""
    try:
        yield _migrate(BEFORE)
    finally:
        _migrate(_latest())


# --- the data of before ------------------------------------------------------------------------

# Who had which role on which plan (plan numbers; the order is the order the grants were made,
# so the first owner listed is the plan's first owner).
OLD_GRANTS: dict[int, list[tuple[str, str]]] = {
    101: [("alice", "owner"), ("bob", "owner"), ("carol", "editor"), ("dave", "viewer")],
    102: [("bob", "owner"), ("alice", "viewer"), ("erin", "editor")],
    103: [],  # no members at all
    104: [("carol", "editor"), ("dave", "viewer")],  # members, but no owner
}
PEOPLE = ["alice", "bob", "carol", "dave", "erin", "frank"]  # frank has no plan


def _email(name: str) -> str:
    return f"{name}@example.com"


def _old_data(apps: Apps) -> dict[str, Any]:
    """Today's data, written with the historical models: accounts, plans and grants, API keys
    (raw values kept), personal webhook endpoints; plan 101 synced once and holding a node."""
    OldUser = apps.get_model("accounts", "User")
    OldPlan = apps.get_model("planning", "Plan")
    OldMembership = apps.get_model("planning", "PlanMembership")
    OldNode = apps.get_model("planning", "StructureNode")
    OldApiKey = apps.get_model("integrations", "ApiKey")
    OldEndpoint = apps.get_model("webhooks", "WebhookEndpoint")
    start = timezone.now() - timedelta(days=30)
    users = {
        name: OldUser.objects.create(
            email=_email(name),
            name=name.title(),
            password="!",
            date_joined=start + timedelta(hours=index),
            api_access_enabled=name == "alice",
        )
        for index, name in enumerate(PEOPLE)
    }
    plans = {
        number: OldPlan.objects.create(number=number, name=f"Plan {number}")
        for number in OLD_GRANTS
    }
    for number, grants in OLD_GRANTS.items():
        for index, (name, role) in enumerate(grants):
            grant = OldMembership.objects.create(plan=plans[number], user=users[name], role=role)
            # created_at is auto_now_add: set it so the order above is the order of the grants
            OldMembership.objects.filter(pk=grant.pk).update(
                created_at=start + timedelta(days=1, minutes=index)
            )
    OldPlan.objects.filter(number=101).update(last_synced_at=start)
    OldNode.objects.create(plan=plans[101], name="Boiler house", kind="building", path="")

    def key(owner: str, *, limited_to: list[int] | None = None) -> str:
        raw = key_generate()
        api_key = OldApiKey.objects.create(
            owner=users[owner],
            name=f"{owner}'s ERP",
            key_hash=key_hash(raw),
            hint=key_hint(raw),
            limited_to_plans=limited_to is not None,
        )
        if limited_to:
            api_key.plans.set([plans[n] for n in limited_to])
        return raw

    keys = {"alice": key("alice"), "alice-102": key("alice", limited_to=[102]), "bob": key("bob")}

    def endpoint(owner: str, *, limited_to: list[int] | None = None) -> Any:
        made = OldEndpoint.objects.create(
            owner=users[owner],
            url=f"https://hooks.example.com/{owner}",
            all_plans=limited_to is None,
            secret_encrypted="not read here",
            secret_hint="whsec_xx",
        )
        made.plans.set([plans[n] for n in limited_to or []])
        return made.pk

    endpoints = {"alice": endpoint("alice"), "bob-101": endpoint("bob", limited_to=[101])}
    return {"keys": keys, "endpoints": endpoints}


def _old_roles(apps: Apps) -> dict[tuple[str, int], str]:
    """(email, plan number) -> role, as the old membership table says."""
    OldMembership = apps.get_model("planning", "PlanMembership")
    return {
        (email, number): role
        for email, number, role in OldMembership.objects.values_list(
            "user__email", "plan__number", "role"
        )
    }


def _old_coverage(apps: Apps, endpoints: dict[str, Any]) -> dict[tuple[str, int], bool]:
    """Which plans each endpoint received events of before: its owner was a member of the
    plan and the endpoint took every plan or this one."""
    OldEndpoint = apps.get_model("webhooks", "WebhookEndpoint")
    OldMembership = apps.get_model("planning", "PlanMembership")
    covered = {}
    for label, pk in endpoints.items():
        made: Any = OldEndpoint.objects.get(pk=pk)  # the historical model of 0002
        chosen = set(made.plans.values_list("number", flat=True))
        for number in OLD_GRANTS:
            member = OldMembership.objects.filter(
                user_id=made.owner_id, plan__number=number
            ).exists()
            covered[label, number] = member and (made.all_plans or number in chosen)
    return covered


def _suggestions(client: Client, raw_key: str, number: int) -> Any:
    return client.get(
        f"/api/v1/platform/plans/{number}/suggestions",
        headers={"Authorization": f"Bearer {raw_key}"},
    )


def _node_change_writes_a_change_row(node_model: Any, change_model: Any) -> bool:
    """Renames plan 101's node (the plan was synced, so its triggers record the change)."""
    node = node_model.objects.get(plan__number=101)
    before = change_model.objects.filter(plan_id=node.plan_id, node_id=node.pk).count()
    node_model.objects.filter(pk=node.pk).update(name="Boiler house (renamed)")
    return change_model.objects.filter(plan_id=node.plan_id, node_id=node.pk).count() == before + 1


# --- forward -----------------------------------------------------------------------------------


def test_forward_keeps_every_plan_key_and_webhook_as_it_was(
    before: Apps, client: Client, settings: Any
) -> None:
    settings.API_ACCESS_REQUIRES_GRANT = True
    made = _old_data(before)
    old_roles = _old_roles(before)
    old_coverage = _old_coverage(before, made["endpoints"])
    assert old_roles  # the old table was read, not an empty one

    _migrate(_latest())

    # Same people, same rights, on every plan (and nothing for anyone else).
    for name in PEOPLE:
        user = User.objects.get(email=_email(name))
        for number in OLD_GRANTS:
            old = old_roles.get((user.email, number))
            if old is None:
                with pytest.raises(Http404):
                    plan_access_get(user=user, number=number)
            else:
                assert plan_access_get(user=user, number=number).role == old, (name, number)
            client.force_login(user)
            page = client.get(f"/plans/{number}/")
            assert page.status_code == (404 if old is None else 200), (name, number)

    # Every account has exactly one personal organisation, which it owns.
    for user in User.objects.all():
        personal = Organisation.objects.filter(personal_for=user)
        assert personal.count() == 1, user.email
        assert (
            OrganisationMembership.objects.get(organisation=personal.get(), user=user).role
            == OrganisationRole.OWNER
        )
    # Each plan is in its first owner's personal organisation; ownerless ones in one without
    # members.
    plans = {plan.number: plan for plan in Plan.objects.select_related("organisation")}
    assert plans[101].organisation.personal_for == User.objects.get(email=_email("alice"))
    assert plans[102].organisation.personal_for == User.objects.get(email=_email("bob"))
    for number in (103, 104):
        assert plans[number].organisation.name == ORPHANS
        assert plans[number].organisation.personal_for is None
        assert not plans[number].organisation.memberships.exists()
    assert plans[103].organisation == plans[104].organisation

    # API keys: the same hashes still authenticate and read the same plans.
    client.logout()
    keys = made["keys"]
    for number in (101, 102):  # alice: owner of 101, viewer of 102; the per-user override
        assert_envelope(_suggestions(client, keys["alice"], number), 200, "ok")
    for number in (103, 104, 999):
        assert_envelope(_suggestions(client, keys["alice"], number), 404, "plans.not_found")
    assert_envelope(_suggestions(client, keys["alice-102"], 102), 200, "ok")
    assert_envelope(_suggestions(client, keys["alice-102"], 101), 404, "plans.not_found")
    # bob had no API access before, and has none now (no organisation of his was given any)
    assert_envelope(_suggestions(client, keys["bob"], 102), 403, "auth.api_access_disabled")

    # Webhook endpoints receive the same plans' events where their owner may read them over the
    # API: a webhook follows its holder's API access (docs/subsystems/webhooks.md), and bob has
    # none, so his endpoint receives nothing until an organisation of his is given access.
    for (label, number), covered in old_coverage.items():
        endpoint = WebhookEndpoint.objects.get(pk=made["endpoints"][label])
        expected = covered and not label.startswith("bob")
        assert endpoint_covers_plan(endpoint=endpoint, plan_id=plans[number].pk) == expected, (
            label,
            number,
        )
    assert any(old_coverage.values()) and not all(old_coverage.values())

    # The change triggers survived 0015's rebuild of planning_plan on SQLite.
    assert _node_change_writes_a_change_row(StructureNode, PlanChange)


# --- back and forth ----------------------------------------------------------------------------


def test_back_to_0012_and_forward_again_keeps_grants_and_triggers(
    before: Apps, client: Client
) -> None:
    _old_data(before)
    old_roles = _old_roles(before)
    _migrate(_latest())

    back = _migrate(BEFORE)

    # The way back gives each personal organisation's owner their owner grant again.
    assert _old_roles(back) == old_roles
    assert _node_change_writes_a_change_row(
        back.get_model("planning", "StructureNode"), back.get_model("planning", "PlanChange")
    )

    _migrate(_latest())

    for (email, number), role in old_roles.items():
        user = User.objects.get(email=email)
        assert plan_access_get(user=user, number=number).role == role
    assert Organisation.objects.filter(name=ORPHANS).count() == 1
    first_owners = {101: "alice", 102: "bob"}
    for number, name in first_owners.items():
        plan = Plan.objects.select_related("organisation").get(number=number)
        assert plan.organisation.personal_for == User.objects.get(email=_email(name)), number
    for user in User.objects.all():
        assert Organisation.objects.filter(personal_for=user).count() == 1
    assert _node_change_writes_a_change_row(StructureNode, PlanChange)

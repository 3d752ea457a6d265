"""Keys and organisations: service accounts, per-organisation API access and its requests, and a
removed member's key (docs/subsystems/api-keys.md "API keys")."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core import mail
from django.test import Client
from django.utils import timezone

from accounts.models import SecurityEvent
from apikeys.models import ApiKey
from apikeys.services import api_key_create, api_key_expiry_notices_send
from organisations.models import OrganisationMembership
from organisations.services import member_add, member_remove, organisation_create
from planning.plans.services.plans import plan_create
from tests.apikeys.conftest import session_check
from tests.envelope import assert_envelope
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _suggestions(client: Client, number: int, raw: str) -> Any:
    return client.get(
        f"/api/v1/platform/plans/{number}/suggestions", HTTP_AUTHORIZATION=f"Bearer {raw}"
    )


@pytest.fixture
def world() -> dict[str, Any]:
    owner = UserFactory.create(email="owner@example.com")
    admin = UserFactory.create(email="admin@example.com")
    planner = UserFactory.create(email="planner@example.com")
    co_op = organisation_create(name="Harbour Co-op", owner=owner)
    co_op.api_access_enabled = True
    co_op.save()
    admin_membership = member_add(organisation=co_op, user=admin, role="admin")
    planner_membership = member_add(organisation=co_op, user=planner, role="planner")
    other_owner = UserFactory.create()
    other = organisation_create(name="North Homes", owner=other_owner)
    other.api_access_enabled = True
    other.save()
    return {
        "owner": owner,
        "admin": admin,
        "admin_membership": admin_membership,
        "planner": planner,
        "planner_membership": planner_membership,
        "co_op": co_op,
        "plan": plan_create(owner=owner, name="Harbour 1", organisation=co_op),
        "plan_2": plan_create(owner=owner, name="Harbour 2", organisation=co_op),
        "other_plan": plan_create(owner=other_owner, name="North 1", organisation=other),
    }


def test_a_service_account_reaches_its_organisations_plans_and_no_others(
    client: Client, world: dict[str, Any]
) -> None:
    _key, raw = api_key_create(user=world["admin"], name="ERP", organisation=world["co_op"])

    assert_envelope(_suggestions(client, world["plan"].number, raw), 200, "ok")
    assert_envelope(_suggestions(client, world["plan_2"].number, raw), 200, "ok")
    assert_envelope(_suggestions(client, world["other_plan"].number, raw), 404, "plans.not_found")


def test_a_service_account_limited_to_one_plan_gets_404_on_the_other(
    client: Client, world: dict[str, Any]
) -> None:
    _key, raw = api_key_create(
        user=world["admin"], name="ERP", organisation=world["co_op"], plans=[world["plan"]]
    )

    assert_envelope(_suggestions(client, world["plan"].number, raw), 200, "ok")
    assert_envelope(_suggestions(client, world["plan_2"].number, raw), 404, "plans.not_found")


def test_a_service_account_cannot_be_limited_to_another_organisations_plan(
    world: dict[str, Any],
) -> None:
    from django.core.exceptions import ValidationError

    with pytest.raises(ValidationError):
        api_key_create(
            user=world["admin"],
            name="ERP",
            organisation=world["co_op"],
            plans=[world["other_plan"]],
        )


def test_a_service_account_keeps_working_after_its_creator_leaves(
    client: Client, world: dict[str, Any]
) -> None:
    _key, raw = api_key_create(user=world["admin"], name="ERP", organisation=world["co_op"])

    member_remove(membership=world["admin_membership"])
    world["admin"].delete()

    assert_envelope(_suggestions(client, world["plan"].number, raw), 200, "ok")


def test_a_removed_members_own_key_gets_404_at_once(client: Client, world: dict[str, Any]) -> None:
    # Still a member of another organisation with API access: the key itself stays usable.
    member_add(organisation=world["other_plan"].organisation, user=world["planner"], role="viewer")
    _key, raw = api_key_create(user=world["planner"], name="Mine")
    assert_envelope(_suggestions(client, world["plan"].number, raw), 200, "ok")

    member_remove(membership=world["planner_membership"])

    assert_envelope(_suggestions(client, world["plan"].number, raw), 404, "plans.not_found")


def test_the_session_check_names_a_service_account_and_its_organisation(
    client: Client, world: dict[str, Any]
) -> None:
    key, raw = api_key_create(user=world["admin"], name="ERP", organisation=world["co_op"])

    body = assert_envelope(session_check(client, f"Bearer {raw}"), 200, "auth.api_key_valid")

    data = body["data"]
    assert data["principal"] == {
        "type": "service_account",
        "id": str(key.service_account_id),
        "name": "ERP",
    }
    assert data["organisation"] == {
        "id": str(world["co_op"].pk),
        "slug": world["co_op"].slug,
        "name": "Harbour Co-op",
    }
    assert set(data["user"]) == {"id", "email", "name"}
    assert all(isinstance(value, str) for value in data["user"].values())


def test_an_organisation_without_api_access_refuses_its_service_accounts(
    client: Client, world: dict[str, Any]
) -> None:
    _key, raw = api_key_create(user=world["admin"], name="ERP", organisation=world["co_op"])
    world["co_op"].api_access_enabled = False
    world["co_op"].save()

    assert_envelope(
        _suggestions(client, world["plan"].number, raw), 403, "auth.api_access_disabled"
    )


def test_a_members_key_is_refused_on_a_plan_of_an_organisation_without_api_access(
    client: Client, world: dict[str, Any]
) -> None:
    # The planner is also a member of an organisation with access, so the key authenticates.
    member_add(organisation=world["other_plan"].organisation, user=world["planner"], role="viewer")
    _key, raw = api_key_create(user=world["planner"], name="Mine")
    world["co_op"].api_access_enabled = False
    world["co_op"].save()

    assert_envelope(
        _suggestions(client, world["plan"].number, raw), 403, "auth.api_access_disabled"
    )
    assert_envelope(_suggestions(client, world["other_plan"].number, raw), 200, "ok")


def test_request_api_access_emails_the_admins_and_approval_makes_the_key_work(
    client: Client, world: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    co_op = world["co_op"]
    co_op.api_access_enabled = False
    co_op.save()
    _key, raw = api_key_create(user=world["planner"], name="Mine")
    assert_envelope(
        _suggestions(client, world["plan"].number, raw), 403, "auth.api_access_disabled"
    )

    client.force_login(world["planner"])
    with django_capture_on_commit_callbacks(execute=True):
        asked = client.post(f"/organisations/{co_op.slug}/integrations/api-access/request/")
    assert asked.status_code == 302
    assert sorted(mail.outbox[0].to) == ["admin@example.com", "owner@example.com"]
    link = re.search(r"https?://\S+", str(mail.outbox[0].body))
    assert link is not None and link.group(0).endswith(
        f"/organisations/{co_op.slug}/integrations/api-access/"
    )

    client.force_login(world["admin"])
    page = client.get(f"/organisations/{co_op.slug}/integrations/api-access/").content.decode()
    assert "planner@example.com" in page and "Approve" in page
    banner = client.get("/profile/integrations/api-keys/").content.decode()
    assert "asks for API access to Harbour Co-op" in banner
    request_id = re.search(r"/api-access/requests/(\d+)/", page)
    assert request_id is not None
    with django_capture_on_commit_callbacks(execute=True):
        client.post(
            f"/organisations/{co_op.slug}/integrations/api-access/requests/{request_id.group(1)}/",
            {"decision": "approve"},
        )

    assert_envelope(_suggestions(client, world["plan"].number, raw), 200, "ok")
    assert mail.outbox[-1].to == ["planner@example.com"]
    assert "approved" in mail.outbox[-1].subject


def test_a_planner_cannot_switch_api_access_or_see_service_accounts(
    client: Client, world: dict[str, Any]
) -> None:
    client.force_login(world["planner"])
    slug = world["co_op"].slug

    switched = client.post(
        f"/organisations/{slug}/integrations/api-access/switch/", {"enabled": "0"}
    )
    keys = client.get(f"/organisations/{slug}/integrations/api-keys/")

    assert (switched.status_code, keys.status_code) == (403, 403)
    world["co_op"].refresh_from_db()
    assert world["co_op"].api_access_enabled


def test_a_non_member_gets_404_on_the_organisations_key_pages(
    client: Client, world: dict[str, Any]
) -> None:
    client.force_login(UserFactory.create())

    response = client.get(f"/organisations/{world['co_op'].slug}/integrations/api-keys/")

    assert response.status_code == 404


def test_an_admin_creates_a_service_account_on_the_page_and_sees_it_once(
    client: Client, world: dict[str, Any]
) -> None:
    client.force_login(world["admin"])
    slug = world["co_op"].slug

    response = client.post(
        f"/organisations/{slug}/integrations/api-keys/new/",
        {"name": "ERP", "expires_in": "30"},
    )

    key = ApiKey.objects.get(organisation=world["co_op"])
    assert response.status_code == 302
    assert response["Location"] == f"/organisations/{slug}/integrations/api-keys/{key.pk}/new/"
    shown = re.search(r"mpk_[A-Za-z0-9]{30,}", client.get(response["Location"]).content.decode())
    assert shown is not None and key.created_by == world["admin"] and key.owner is None
    assert shown.group(0) not in client.get(response["Location"]).content.decode()
    line = SecurityEvent.objects.get(organisation_id=world["co_op"].pk)
    assert line.kind == SecurityEvent.Kind.API_KEY_CREATED and line.user is None


def test_service_account_reminders_go_to_the_owners_and_admins(world: dict[str, Any]) -> None:
    now = timezone.now()
    api_key_create(
        user=world["admin"],
        name="ERP",
        organisation=world["co_op"],
        expires_at=now + timedelta(days=6),
    )
    ApiKey.objects.update(created_at=now - timedelta(days=30))

    api_key_expiry_notices_send(now=now)

    assert sorted(mail.outbox[0].to) == ["admin@example.com", "owner@example.com"]
    assert f"/organisations/{world['co_op'].slug}/integrations/api-keys/" in str(
        mail.outbox[0].body
    )


def test_the_service_account_limit_counts_per_organisation(
    world: dict[str, Any], settings: Any
) -> None:
    from django.core.exceptions import ValidationError

    settings.API_KEYS_MAX_ACTIVE = 1
    api_key_create(user=world["admin"], name="ERP", organisation=world["co_op"])
    api_key_create(user=world["admin"], name="My own")  # the person's own limit is separate

    with pytest.raises(ValidationError, match="Harbour Co-op already has 1 active keys"):
        api_key_create(user=world["owner"], name="Second", organisation=world["co_op"])
    assert OrganisationMembership.objects.filter(organisation=world["co_op"]).count() == 3


def test_the_commands_make_a_service_account_and_grant_the_organisation_access(
    client: Client, world: dict[str, Any], capsys: Any
) -> None:
    from django.core.management import call_command

    co_op = world["co_op"]
    call_command("grant_api_access", "--org", co_op.slug, "--revoke")
    co_op.refresh_from_db()
    assert not co_op.api_access_enabled
    call_command(
        "issue_api_key", "--org", co_op.slug, "--name", "ERP", "--plan", str(world["plan"].number)
    )
    raw = capsys.readouterr().out.strip().splitlines()[-1]
    assert_envelope(
        _suggestions(client, world["plan"].number, raw), 403, "auth.api_access_disabled"
    )

    call_command("grant_api_access", "--org", co_op.slug)

    assert_envelope(_suggestions(client, world["plan"].number, raw), 200, "ok")
    assert_envelope(_suggestions(client, world["plan_2"].number, raw), 404, "plans.not_found")


def test_a_member_of_an_organisation_with_access_but_no_plans_passes_the_session_check(
    client: Client,
) -> None:
    person = UserFactory.create()
    fresh = organisation_create(name="Fresh Co-op", owner=person)
    fresh.api_access_enabled = True
    fresh.save()
    _key, raw = api_key_create(user=person, name="First")

    assert_envelope(session_check(client, f"Bearer {raw}"), 200, "auth.api_key_valid")

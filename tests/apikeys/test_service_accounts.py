"""Service accounts as records (apikeys.models.ServiceAccount, docs/subsystems/api-keys.md
"Service accounts"): `principal.id` is the service account's through rolls, new keys and
revocations; the history and the events of its acts name it, not the key; its pages."""

from __future__ import annotations

import json
import re
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apikeys.models import ApiKey, ServiceAccount
from apikeys.selectors import PAST_KEYS_SHOWN
from apikeys.service_accounts import service_account_rename
from apikeys.services import api_key_create, api_key_revoke, api_key_roll
from organisations.models import Organisation
from organisations.services import organisation_create
from planning.models import HistoryEntry, NodeKind, Plan, Suggestion, SuggestionStatus
from planning.plans.services.plans import plan_create
from planning.suggestions.sync.run import suggestion_sync
from tests.apikeys.conftest import session_check
from tests.envelope import assert_envelope
from tests.factories import StructureNodeFactory, UserFactory
from webhooks.models import WebhookEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def organisation() -> Organisation:
    owner = UserFactory.create(email="owner@example.com")
    organisation = organisation_create(name="Harbour Co-op", owner=owner)
    organisation.api_access_enabled = True
    organisation.save()
    return organisation


def _principal(raw: str) -> dict[str, Any]:
    body = assert_envelope(session_check(Client(), f"Bearer {raw}"), 200, "auth.api_key_valid")
    principal: dict[str, Any] = body["data"]["principal"]
    return principal


def test_rolling_a_service_accounts_key_keeps_its_principal_id(
    organisation: Organisation,
) -> None:
    api_key, raw = api_key_create(user=None, name="ERP", organisation=organisation)
    before = _principal(raw)

    _new, rolled_raw = api_key_roll(api_key=api_key, grace=timedelta(hours=1))

    after = _principal(rolled_raw)
    assert (
        before
        == after
        == {
            "type": "service_account",
            "id": str(api_key.service_account_id),
            "name": "ERP",
        }
    )
    assert before["id"] != str(api_key.pk)  # the service account's, not the key's
    assert _principal(raw) == before  # the old key, in its grace, speaks for it too


def test_a_second_key_of_a_service_account_has_the_same_principal(
    organisation: Organisation,
) -> None:
    first, _raw = api_key_create(user=None, name="ERP", organisation=organisation)
    service_account = first.service_account
    assert service_account is not None
    _second, second_raw = api_key_create(
        user=None, name="ERP spare", service_account=service_account
    )

    api_key_revoke(api_key=first)

    assert _principal(second_raw) == {
        "type": "service_account",
        "id": str(service_account.pk),
        "name": "ERP",
    }
    assert ServiceAccount.objects.filter(organisation=organisation).count() == 1


def test_a_renamed_service_account_answers_with_its_new_name(organisation: Organisation) -> None:
    api_key, raw = api_key_create(user=None, name="ERP", organisation=organisation)
    assert api_key.service_account is not None

    service_account_rename(service_account=api_key.service_account, name="  SAP sync ")

    assert _principal(raw)["name"] == "SAP sync"


@pytest.fixture
def plan(organisation: Organisation) -> Plan:
    owner = organisation.memberships.get().user
    plan = plan_create(owner=owner, name="Harbour 1", organisation=organisation)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    StructureNodeFactory.create_batch(2, plan=plan, parent=house)  # two missing codes
    suggestion_sync(plan=plan)
    return plan


def _dismiss(raw: str, plan: Plan, suggestion: Suggestion) -> Any:
    return Client().post(
        f"/api/v1/platform/plans/{plan.number}/suggestions/{suggestion.pk}/dismiss",
        {"reason": "accepted", "comment": "Budgeted elsewhere"},
        content_type="application/json",
        headers={"Authorization": f"Bearer {raw}"},
    )


def test_the_history_and_the_event_of_an_act_name_the_service_account(
    organisation: Organisation, plan: Plan
) -> None:
    api_key, raw = api_key_create(
        user=None,
        name="ERP",
        organisation=organisation,
        permission=ApiKey.Permission.READ_WRITE,
    )
    _rolled, raw = api_key_roll(api_key=api_key, grace=timedelta(0))
    suggestion = Suggestion.objects.filter(plan=plan, status=SuggestionStatus.OPEN).first()
    assert suggestion is not None

    assert_envelope(_dismiss(raw, plan, suggestion), 200, "suggestions.dismissed")

    entry = HistoryEntry.objects.filter(plan_id=plan.pk, entity="suggestion").latest("id")
    assert (entry.actor_kind, entry.actor_id, entry.actor_label) == (
        "service",
        str(api_key.service_account_id),
        "service account “ERP”",
    )
    event = WebhookEvent.objects.filter(plan_id=plan.pk).latest("created_at")
    assert json.loads(event.body)["data"]["actor"] == {
        "kind": "service",
        "id": str(api_key.service_account_id),
        "name": "service account “ERP”",
    }
    listed = Client().get(
        f"/api/v1/platform/plans/{plan.number}/history",
        headers={"Authorization": f"Bearer {raw}"},
    )
    assert listed.status_code == 200
    actors = [row["actor"] for row in listed.json()["data"]["entries"]]
    assert {
        "kind": "service",
        "id": str(api_key.service_account_id),
        "name": "service account “ERP”",
    } in actors


def test_a_service_account_with_no_live_key_stays_listed(organisation: Organisation) -> None:
    owner = organisation.memberships.get().user
    api_key, _raw = api_key_create(user=owner, name="Old ERP", organisation=organisation)
    api_key_revoke(api_key=api_key)
    client = Client()
    client.force_login(owner)

    page = client.get(f"/organisations/{organisation.slug}/integrations/api-keys/")

    html = page.content.decode()
    section = re.search(
        rf'data-service-account-id="{api_key.service_account_id}".*?</section>', html, re.S
    )
    assert section is not None and "Old ERP" in section.group(0)
    assert "No working key" in section.group(0) and "1 revoked or expired key" in section.group(0)


def test_a_service_account_shows_its_newest_past_keys_and_how_many_it_has(
    organisation: Organisation,
) -> None:
    owner = organisation.memberships.get().user
    first, _raw = api_key_create(user=owner, name="ERP", organisation=organisation)
    service_account = first.service_account
    for number in range(PAST_KEYS_SHOWN + 3):  # each revoked in turn: the active limit holds
        api_key = first if number == 0 else None
        if api_key is None:
            api_key, _raw = api_key_create(
                user=owner, name=f"Old {number}", service_account=service_account
            )
        ApiKey.objects.filter(pk=api_key.pk).update(
            revoked_at=timezone.now(), created_at=timezone.now() + timedelta(seconds=number)
        )
    api_key_create(user=owner, name="Working", service_account=service_account)
    client = Client()
    client.force_login(owner)

    html = client.get(f"/organisations/{organisation.slug}/integrations/api-keys/").content.decode()

    section = re.search(r'data-service-account-id=".*?</section>', html, re.S)
    assert section is not None
    live, past = section.group(0).split('data-testid="past-keys"')
    assert "Working" in live and "Old " not in live
    assert f"{PAST_KEYS_SHOWN + 3} revoked or expired keys" in past
    shown = re.findall(r"Old (\d+)", past)
    assert shown == [str(n) for n in range(PAST_KEYS_SHOWN + 2, 2, -1)]  # newest first


def test_another_organisations_service_account_is_a_missing_one(
    organisation: Organisation,
) -> None:
    stranger = UserFactory.create()
    theirs = organisation_create(name="North Homes", owner=stranger)
    api_key, _raw = api_key_create(user=stranger, name="Their ERP", organisation=theirs)
    owner = organisation.memberships.get().user
    client = Client()
    client.force_login(owner)
    base = f"/organisations/{organisation.slug}/integrations/service-accounts"

    for page in ("keys/new", "rename"):
        response = client.post(f"{base}/{api_key.service_account_id}/{page}/", {"name": "Mine"})
        assert response.status_code == 404
    assert ServiceAccount.objects.get(pk=str(api_key.service_account_id)).name == "Their ERP"
    assert ApiKey.objects.filter(service_account_id=api_key.service_account_id).count() == 1


def test_a_service_account_name_cannot_be_blank(organisation: Organisation) -> None:
    api_key, _raw = api_key_create(user=None, name="ERP", organisation=organisation)
    owner = organisation.memberships.get().user
    client = Client()
    client.force_login(owner)

    response = client.post(
        f"/organisations/{organisation.slug}/integrations/service-accounts/"
        f"{api_key.service_account_id}/rename/",
        {"name": "   "},
    )

    assert response.status_code == 200
    assert "Give the service account a name." in response.content.decode()
    assert ServiceAccount.objects.get(pk=str(api_key.service_account_id)).name == "ERP"

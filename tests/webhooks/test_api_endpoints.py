"""Webhook endpoints over the API (platform_api.endpoints.webhooks, .webhook_deliveries): every
operation with a service-account key that may write, the web page's rules on each field, a
person's key and a read key refused, another organisation's endpoint 404, Idempotency-Key
replays (a shown secret kept encrypted for them), unknown fields ignored."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from apikeys.models import ApiKey, IdempotentRequest
from apikeys.services import api_key_create
from planning.models import Plan
from tests.envelope import assert_envelope
from tests.factories import PlanFactory
from tests.webhooks.api_helpers import (
    PUBLIC_URL,
    call,
    create,
    organisation_with_plans,
    person_key,
    service_key,
)
from webhooks.models import WebhookDelivery, WebhookEndpoint
from webhooks.services import endpoint_url_check

pytestmark = pytest.mark.django_db

PRIVATE_URL = "https://127.0.0.1/hooks"


@pytest.fixture
def organisation() -> Any:
    return organisation_with_plans()


@pytest.fixture
def raw(organisation: Any) -> str:
    return service_key(organisation)


def _errors(response: Any) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = assert_envelope(response, 400, "validation.failed")["data"][
        "errors"
    ]
    return errors


def test_create_shows_the_secret_once_and_the_list_and_detail_show_the_endpoint(
    raw: str, organisation: Any
) -> None:
    response = call(
        raw, "POST", "", {"url": PUBLIC_URL, "description": " ERP ", "colour": "ignored"}
    )
    created = assert_envelope(response, 200, "webhook_endpoints.created")["data"]
    assert created["secret"].startswith("whsec_")
    assert created["secret_hint"] == created["secret"][:10]
    assert (created["url"], created["description"], created["plans"]) == (PUBLIC_URL, "ERP", None)
    assert created["enabled"] is True
    endpoint = WebhookEndpoint.objects.get(pk=created["id"])
    assert endpoint.organisation == organisation and endpoint.owner is None

    listed = assert_envelope(call(raw, "GET"), 200, "ok")["data"]
    assert [row["id"] for row in listed["webhooks"]] == [created["id"]]
    assert "secret" not in listed["webhooks"][0] and listed["next_cursor"] is None
    shown = assert_envelope(call(raw, "GET", f"/{created['id']}"), 200, "ok")["data"]
    assert "secret" not in shown and shown["url"] == PUBLIC_URL


def test_create_with_chosen_plans_and_the_list_paged(raw: str, organisation: Any) -> None:
    numbers = sorted(
        Plan.objects.filter(organisation=organisation).values_list("number", flat=True)
    )
    first = create(raw, plans=numbers)
    assert first["plans"] == numbers
    second = create(raw)
    page = call(raw, "GET", "?limit=1").json()["data"]
    rest = call(raw, "GET", f"?limit=1&cursor={page['next_cursor']}").json()["data"]
    assert {page["webhooks"][0]["id"], rest["webhooks"][0]["id"]} == {first["id"], second["id"]}
    assert rest["next_cursor"] is None
    bad = call(raw, "GET", "?cursor=nonsense&limit=0")
    assert set(assert_envelope(bad, 400, "validation.query")["data"]["errors"]) == {
        "cursor",
        "limit",
    }


def test_a_private_url_is_refused_with_the_web_pages_message(raw: str) -> None:
    with pytest.raises(ValidationError) as refused:
        endpoint_url_check(PRIVATE_URL)
    page_message = refused.value.message_dict["url"]
    assert _errors(call(raw, "POST", "", {"url": PRIVATE_URL}))["url"] == page_message
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize(
    ("body", "field", "words"),
    [
        ({}, "url", "required"),
        ({"url": ""}, "url", "Enter the URL"),
        ({"url": "http://93.184.215.14/hooks"}, "url", "https"),
        ({"url": "https://93.184.215.14:22/hooks"}, "url", "port"),
        ({"url": None}, "url", "may not be null"),
        ({"description": "x" * 201}, "description", "200"),
        ({"plans": []}, "plans", "Choose at least one plan"),
        ({"plans": "all"}, "plans", "list"),
        ({"plans": [0]}, "plans", "Item 1: Ensure this value is greater than or equal to 1"),
    ],
)
def test_create_refuses_each_field_with_a_clear_message(
    raw: str, body: dict[str, Any], field: str, words: str
) -> None:
    if "url" not in body and field != "url":
        body = {"url": PUBLIC_URL, **body}
    errors = _errors(call(raw, "POST", "", body))
    assert field in errors and words.lower() in str(errors[field]).lower(), errors


def test_another_organisations_plan_cannot_be_chosen(raw: str) -> None:
    elsewhere = PlanFactory.create()
    errors = _errors(call(raw, "POST", "", {"url": PUBLIC_URL, "plans": [elsewhere.number]}))
    assert errors["plans"] == [f"Not a plan of your organisation: {elsewhere.number}."]


def test_patch_changes_the_fields_sent_with_the_same_rules(raw: str, organisation: Any) -> None:
    created = create(raw, description="first")
    number = Plan.objects.filter(organisation=organisation).values_list("number", flat=True)[0]
    path = f"/{created['id']}"
    changed = call(raw, "PATCH", path, {"plans": [number], "enabled": False, "extra": 1})
    data = assert_envelope(changed, 200, "webhook_endpoints.updated")["data"]
    assert (data["plans"], data["enabled"], data["description"]) == ([number], False, "first")
    assert data["disabled_reason"] == "owner"
    assert _errors(call(raw, "PATCH", path, {"url": PRIVATE_URL}))["url"]
    assert _errors(call(raw, "PATCH", path, {"enabled": "maybe"}))["enabled"]
    again = call(raw, "PATCH", path, {"plans": None, "enabled": True, "url": PUBLIC_URL + "/2"})
    data = assert_envelope(again, 200, "webhook_endpoints.updated")["data"]
    assert (data["plans"], data["enabled"], data["url"]) == (None, True, PUBLIC_URL + "/2")


def test_delete_removes_the_endpoint(raw: str) -> None:
    created = create(raw)
    gone = call(raw, "DELETE", f"/{created['id']}")
    assert assert_envelope(gone, 200, "webhook_endpoints.deleted")["data"] == {
        "id": created["id"],
        "deleted": True,
    }
    assert_envelope(call(raw, "GET", f"/{created['id']}"), 404, "webhook_endpoints.not_found")


def test_rotate_shows_a_new_secret_and_the_old_one_until_tomorrow(raw: str) -> None:
    created = create(raw)
    rotated = call(raw, "POST", f"/{created['id']}/rotate-secret")
    data = assert_envelope(rotated, 200, "webhook_endpoints.secret_rotated")["data"]
    assert data["secret"].startswith("whsec_") and data["secret"] != created["secret"]
    assert data["previous_secret_until"] is not None


def test_test_queues_a_webhook_test_event_and_the_deliveries_list_shows_it(raw: str) -> None:
    created = create(raw)
    sent = assert_envelope(
        call(raw, "POST", f"/{created['id']}/test"), 200, "webhook_endpoints.test_queued"
    )
    delivery = WebhookDelivery.objects.get(pk=sent["data"]["delivery_id"])
    assert delivery.event.event_type == "webhook.test"
    assert delivery.event_id == sent["data"]["event_id"]
    listed = call(raw, "GET", f"/{created['id']}/deliveries").json()["data"]
    (row,) = listed["deliveries"]
    assert (row["id"], row["event_type"], row["status"], row["attempts"]) == (
        delivery.pk,
        "webhook.test",
        "pending",
        0,
    )
    assert row["last_status_code"] is None and listed["next_cursor"] is None


def test_test_events_have_the_pages_ceiling(raw: str, settings: Any) -> None:
    settings.WEBHOOK_TEST_EVENTS_PENDING_MAX = 1
    path = f"/{create(raw)['id']}/test"
    assert_envelope(call(raw, "POST", path), 200, "webhook_endpoints.test_queued")
    assert_envelope(call(raw, "POST", path), 409, "webhook_endpoints.test_events_pending")


def test_the_deliveries_come_newest_first_in_pages(raw: str) -> None:
    path = f"/{create(raw)['id']}"
    ids = [call(raw, "POST", f"{path}/test").json()["data"]["delivery_id"] for _ in range(3)]
    first = call(raw, "GET", f"{path}/deliveries?limit=2").json()["data"]
    rest = call(raw, "GET", f"{path}/deliveries?limit=2&cursor={first['next_cursor']}").json()
    seen = [row["id"] for row in first["deliveries"] + rest["data"]["deliveries"]]
    assert seen == sorted(ids, reverse=True)


def test_redeliver_queues_the_delivery_again(raw: str) -> None:
    path = f"/{create(raw)['id']}"
    delivery_id = call(raw, "POST", f"{path}/test").json()["data"]["delivery_id"]
    WebhookDelivery.objects.filter(pk=delivery_id).update(status="failed")
    answer = call(raw, "POST", f"{path}/deliveries/{delivery_id}/redeliver")
    assert (
        assert_envelope(answer, 200, "webhook_endpoints.redelivery_queued")["data"]["status"]
        == "pending"
    )
    for missing in ("0", "999999", "x"):
        refused = call(raw, "POST", f"{path}/deliveries/{missing}/redeliver")
        assert_envelope(refused, 404, "webhook_endpoints.delivery_not_found")


def _operations(endpoint_id: str, delivery_id: int) -> list[tuple[str, str, Any]]:
    one = f"/{endpoint_id}"
    return [
        ("GET", "", None),
        ("POST", "", {"url": PUBLIC_URL}),
        ("GET", one, None),
        ("PATCH", one, {"description": "x"}),
        ("DELETE", one, None),
        ("POST", f"{one}/rotate-secret", {}),
        ("POST", f"{one}/test", {}),
        ("GET", f"{one}/deliveries", None),
        ("POST", f"{one}/deliveries/{delivery_id}/redeliver", {}),
    ]


@pytest.fixture
def existing(raw: str) -> tuple[str, int]:
    created = create(raw)
    delivery_id = call(raw, "POST", f"/{created['id']}/test").json()["data"]["delivery_id"]
    return created["id"], delivery_id


@pytest.mark.parametrize("holder", ["person", "read"])
def test_a_persons_key_and_a_read_key_are_refused_on_every_operation(
    holder: str, organisation: Any, user: Any, existing: tuple[str, int]
) -> None:
    if holder == "person":
        other = person_key(user)
        words = "A person's key may not"
    else:
        other = service_key(organisation, ApiKey.Permission.READ)
        words = "may only read"
    for method, path, body in _operations(*existing):
        refused = call(other, method, path, body)
        body_seen = assert_envelope(refused, 403, "auth.insufficient_permission")
        assert words in body_seen["message"], (method, path)
    assert WebhookEndpoint.objects.count() == 1


def test_another_organisations_endpoint_is_404_on_every_operation(
    existing: tuple[str, int],
) -> None:
    stranger = service_key(organisation_with_plans(1))
    for method, path, body in _operations(*existing)[2:]:
        assert_envelope(call(stranger, method, path, body), 404, "webhook_endpoints.not_found")
    missing = str(uuid.uuid4())
    assert_envelope(call(stranger, "GET", f"/{missing}"), 404, "webhook_endpoints.not_found")
    assert_envelope(call(stranger, "GET", "/not-an-id"), 404, "webhook_endpoints.not_found")
    assert WebhookEndpoint.objects.filter(pk=existing[0]).exists()


def test_create_replayed_with_an_idempotency_key_makes_one_endpoint_and_keeps_no_secret(
    raw: str,
) -> None:
    body = {"url": PUBLIC_URL}
    first = call(raw, "POST", "", body, **{"Idempotency-Key": "create-1"})
    again = call(raw, "POST", "", body, **{"Idempotency-Key": "create-1"})
    assert again["Idempotent-Replayed"] == "true"
    assert again.json()["data"] == first.json()["data"]
    assert WebhookEndpoint.objects.count() == 1
    secret = first.json()["data"]["secret"]
    (record,) = IdempotentRequest.objects.all()
    assert secret not in str(record.data)
    other = call(raw, "POST", "", {"url": PUBLIC_URL + "/2"}, **{"Idempotency-Key": "create-1"})
    assert_envelope(other, 409, "idempotency.mismatch")


@pytest.mark.parametrize("operation", [3, 4, 5, 6, 8])
def test_every_write_replays_with_an_idempotency_key(
    raw: str, existing: tuple[str, int], operation: int
) -> None:
    method, path, body = _operations(*existing)[operation]
    first = call(raw, method, path, body, **{"Idempotency-Key": f"op-{operation}"})
    assert first.status_code == 200, first.json()
    attempts = WebhookDelivery.objects.count()
    again = call(raw, method, path, body, **{"Idempotency-Key": f"op-{operation}"})
    assert (again.status_code, again["Idempotent-Replayed"]) == (200, "true")
    assert again.json()["data"] == first.json()["data"]
    assert WebhookDelivery.objects.count() == attempts  # a replayed test sends nothing new


def test_a_key_limited_to_plans_chooses_among_them_only(organisation: Any) -> None:
    mine, other = Plan.objects.filter(organisation=organisation).order_by("number")
    _key, limited = api_key_create(
        user=None,
        name="limited",
        organisation=organisation,
        permission=ApiKey.Permission.READ_WRITE,
        plans=[mine],
    )
    for plans in (None, [other.number], [mine.number, other.number]):
        errors = _errors(call(limited, "POST", "", {"url": PUBLIC_URL, "plans": plans}))
        assert errors["plans"] == [f"This key reaches only plans {mine.number}: choose among them."]
    assert create(limited, plans=[mine.number])["plans"] == [mine.number]


def test_a_key_limited_to_plans_sees_and_manages_no_endpoint_reaching_beyond_them(
    organisation: Any, raw: str
) -> None:
    """An endpoint of every plan, or of a plan outside the key's, would let a limited key take
    the events of plans it may not read (a new URL, a rotated secret): for it they do not
    exist."""
    mine, other = Plan.objects.filter(organisation=organisation).order_by("number")
    every = create(raw, plans=None)
    theirs = create(raw, plans=[other.number])
    both = create(raw, plans=[mine.number, other.number])
    own = create(raw, plans=[mine.number])
    _key, limited = api_key_create(
        user=None,
        name="limited",
        organisation=organisation,
        permission=ApiKey.Permission.READ_WRITE,
        plans=[mine],
    )

    listed = call(limited, "GET").json()["data"]["webhooks"]

    assert [endpoint["id"] for endpoint in listed] == [own["id"]]
    for endpoint in (every, theirs, both):
        for method, path, body in (
            ("GET", "", None),
            ("PATCH", "", {"url": "https://attacker.example/hook"}),
            ("POST", "/rotate-secret", {}),
            ("POST", "/test", {}),
            ("GET", "/deliveries", None),
            ("DELETE", "", None),
        ):
            response = call(limited, method, f"/{endpoint['id']}{path}", body)
            assert_envelope(response, 404, "webhook_endpoints.not_found")
    assert WebhookEndpoint.objects.get(pk=every["id"]).url == PUBLIC_URL
    assert call(limited, "GET", f"/{own['id']}").status_code == 200

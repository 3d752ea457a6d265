"""The events API (platform_api.endpoints.events): a key's events of the last 30 days, oldest first,
with the stored bodies, replay after an id, the filters, pages that never repeat or skip an
event while new ones arrive, what a key may see, 304, and the 30-day expiry."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from apikeys.keys import key_generate, key_hash, key_hint
from apikeys.models import ApiKey, ServiceAccount
from apikeys.services import api_access_set, api_key_create
from planning.models import Plan, PlanMembership, PlanRole
from planning.suggestions.sync.run import suggestion_sync
from tests.envelope import assert_envelope
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory
from tests.webhooks.factories import endpoint_for
from webhooks.events import (
    EVENT_TYPE_SUGGESTIONS_CHANGED,
    endpoint_test_event_send,
    event_id_generate,
)
from webhooks.models import WebhookEvent
from webhooks.services import events_expire, events_retention

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("suggestion_events_only")]


def _data(response: Any, status: int = 200, key: str = "ok") -> Any:
    return assert_envelope(response, status, key)["data"]


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(name="Harbour")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    return plan


@pytest.fixture
def raw_key(user: Any) -> str:
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="erp")
    return raw


@pytest.fixture
def api(raw_key: str) -> Any:
    client = Client()

    def get(**params: Any) -> Any:
        headers = {"Authorization": f"Bearer {raw_key}", **params.pop("headers", {})}
        return client.get("/api/v1/platform/events", params, headers=headers)

    return get


def _change(plan: Plan) -> str:
    """A change of the plan's suggestions (a node without a code opens one); its event's id."""
    StructureNodeFactory.create(plan=plan)
    assert suggestion_sync(plan=plan).created == 1
    return str(WebhookEvent.objects.filter(plan=plan).latest("created_at", "id").pk)


def _ids(data: dict[str, Any]) -> list[str]:
    return [event["id"] for event in data["events"]]


def _walk(api: Any, **params: Any) -> list[str]:
    ids: list[str] = []
    data = _data(api(**params))
    params.pop("after", None)  # the cursor says where the next page starts
    while True:
        ids += _ids(data)
        if data["next_cursor"] is None:
            return ids
        data = _data(api(cursor=data["next_cursor"], **params))


def test_the_events_come_oldest_first_with_the_bodies_their_deliveries_carry(
    api: Any, plan: Plan, user: Any
) -> None:
    second = PlanFactory.create()
    PlanMembershipFactory.create(plan=second, user=user)
    written = [_change(plan), _change(second), _change(plan)]

    response = api()
    data = _data(response)

    assert _ids(data) == written
    assert data["next_cursor"] is None
    for event in data["events"]:
        stored = WebhookEvent.objects.get(pk=event["id"])
        assert event == json.loads(stored.body)
        assert stored.body.encode() in response.content  # byte for byte, as posted
    first = data["events"][0]
    assert first["type"] == "suggestions.changed"
    assert first["data"]["plan_number"] == plan.number
    assert [c["change"] for c in first["data"]["changes"]] == ["opened"]
    assert first["data"]["changes"][0]["suggestion"]["status"] == "open"


def test_replay_after_an_id_returns_exactly_the_later_events(api: Any, plan: Plan) -> None:
    written = [_change(plan) for _ in range(5)]

    assert _ids(_data(api(after=written[1]))) == written[2:]
    assert _ids(_data(api(after=written[-1]))) == []
    later = _change(plan)
    assert _ids(_data(api(after=written[-1]))) == [later]
    # Pages of a replay go on with the cursor.
    assert _walk(api, after=written[0], limit=2) == [*written[1:], later]


def test_an_event_committed_late_still_comes_after_the_last_id_seen(api: Any, plan: Plan) -> None:
    """Numbered when it becomes visible, not by when it was written: a transaction that wrote
    its event before another's but committed after is not skipped by a replay."""
    seen = _change(plan)
    assert _ids(_data(api())) == [seen]
    late_id = event_id_generate()
    written = timezone.now() - timedelta(minutes=5)
    body = {
        **json.loads(WebhookEvent.objects.get(pk=seen).body),
        "id": late_id,
        "created_at": written.isoformat().replace("+00:00", "Z"),
    }
    late = WebhookEvent.objects.create(
        id=late_id,
        event_type=EVENT_TYPE_SUGGESTIONS_CHANGED,
        plan=plan,
        created_at=written,
        body=json.dumps(body),
    )
    assert _ids(_data(api(after=seen))) == [late.pk]


def test_the_plan_and_type_filters(api: Any, plan: Plan, user: Any) -> None:
    second = PlanFactory.create()
    PlanMembershipFactory.create(plan=second, user=user)
    mine = [_change(plan), _change(plan)]
    theirs = _change(second)

    assert _ids(_data(api(plan=plan.number))) == mine
    assert _ids(_data(api(plan=second.number, type="suggestions.changed"))) == [theirs]
    assert _ids(_data(api(plan=plan.number, after=mine[0]))) == mine[1:]
    assert _walk(api, plan=plan.number, limit=1) == mine

    errors = _data(api(type="webhook.test", plan="07"), 400, "validation.query")["errors"]
    assert set(errors) == {"type", "plan"}
    errors = _data(api(after="nope", limit=0), 400, "validation.query")["errors"]
    assert set(errors) == {"after", "limit"}
    cursor = _data(api(plan=plan.number, limit=1))["next_cursor"]
    errors = _data(api(cursor=cursor, limit=1), 400, "validation.query")["errors"]
    assert set(errors) == {"cursor"}  # a cursor of other filters
    both = api(cursor=cursor, after=mine[0], plan=plan.number, limit=1)
    errors = _data(both, 400, "validation.query")["errors"]
    assert set(errors) == {"after"}


def test_a_big_first_sync_is_listed_as_one_bulk_change_under_its_own_type(
    api: Any, plan: Plan
) -> None:
    StructureNodeFactory.create_batch(101, plan=plan)
    assert suggestion_sync(plan=plan).created == 101
    later = _change(plan)

    (summary,) = _data(api(plan=plan.number, type="suggestions.bulk_changed"))["events"]
    assert summary["type"] == "suggestions.bulk_changed"
    assert (summary["data"]["reason"], summary["data"]["open_count"]) == ("first_sync", 101)
    assert summary["data"]["counts"]["opened"] == 101
    assert _ids(_data(api(plan=plan.number, type="suggestions.changed"))) == [later]
    assert _ids(_data(api(plan=plan.number))) == [summary["id"], later]


def test_a_walk_with_events_arriving_between_pages_has_each_exactly_once(
    api: Any, plan: Plan
) -> None:
    before = [_change(plan) for _ in range(5)]
    ids: list[str] = []
    arrived: list[str] = []
    data = _data(api(limit=2))
    while True:
        ids += _ids(data)
        if data["next_cursor"] is None:
            break
        arrived.append(_change(plan))
        data = _data(api(cursor=data["next_cursor"], limit=2))
    assert len(ids) == len(set(ids))
    assert ids == before + arrived  # the newcomers come behind, each once


def test_a_key_never_sees_the_events_of_a_plan_it_cannot_read(
    api: Any, plan: Plan, user: Any
) -> None:
    stranger = PlanFactory.create(name="Not mine")
    hidden = _change(stranger)
    mine = _change(plan)

    assert _ids(_data(api())) == [mine]
    _data(api(plan=stranger.number), 404, "plans.not_found")
    _data(api(plan=999999), 404, "plans.not_found")
    # Its id is no place to replay from: the same answer as an id that never existed.
    unknown = _data(api(after=hidden), 400, "validation.query")["errors"]["after"][0]
    assert unknown.startswith(hidden)
    assert (
        "not among your events"
        in _data(api(after=event_id_generate()), 400, "validation.query")["errors"]["after"][0]
    )

    # Access is read on each request: a member removed no longer sees the plan's events.
    PlanMembership.objects.filter(plan=plan, user=user).delete()
    assert _ids(_data(api())) == []
    _data(api(plan=plan.number), 404, "plans.not_found")


def test_a_key_limited_to_plans_and_a_service_account_see_exactly_their_plans(
    plan: Plan, user: Any
) -> None:
    other = PlanFactory.create(organisation=plan.organisation)
    PlanMembershipFactory.create(plan=other, user=user)
    elsewhere = PlanFactory.create()
    events = {p.pk: _change(p) for p in (plan, other, elsewhere)}
    api_access_set(user=user, enabled=True)
    _key, limited = api_key_create(user=user, name="one plan", plans=[plan])
    organisation = plan.organisation
    organisation.api_access_enabled = True
    organisation.save()
    service = key_generate()
    ApiKey.objects.create(
        organisation=organisation,
        service_account=ServiceAccount.objects.create(organisation=organisation, name="ERP"),
        name="ERP",
        key_hash=key_hash(service),
        hint=key_hint(service),
    )

    def ids(raw: str, **params: Any) -> Any:
        return Client().get(
            "/api/v1/platform/events", params, headers={"Authorization": f"Bearer {raw}"}
        )

    assert _ids(_data(ids(limited))) == [events[plan.pk]]
    _data(ids(limited, plan=other.number), 404, "plans.not_found")
    assert _ids(_data(ids(service))) == [events[plan.pk], events[other.pk]]
    _data(ids(service, plan=elsewhere.number), 404, "plans.not_found")


def test_test_events_are_never_listed(api: Any, plan: Plan, user: Any) -> None:
    endpoint, _secret = endpoint_for(user)
    endpoint_test_event_send(endpoint=endpoint)
    mine = _change(plan)
    assert _ids(_data(api())) == [mine]


def test_304_while_nothing_new(api: Any, plan: Plan) -> None:
    _change(plan)
    first = api()
    etag = first["ETag"]
    assert first["Cache-Control"] == "private, no-cache"
    unchanged = api(headers={"If-None-Match": etag})
    assert unchanged.status_code == 304 and unchanged.content == b""
    _change(plan)
    changed = api(headers={"If-None-Match": etag})
    assert len(_ids(_data(changed))) == 2 and changed["ETag"] != etag


def test_events_are_listed_for_30_days_and_then_deleted(api: Any, plan: Plan) -> None:
    old, kept = _change(plan), _change(plan)
    WebhookEvent.objects.filter(pk=old).update(created_at=timezone.now() - timedelta(days=31))
    newest = _change(plan)

    assert _ids(_data(api())) == [kept, newest]
    errors = _data(api(after=old), 400, "validation.query")["errors"]
    assert "30 days" in errors["after"][0]

    events_retention()  # the daily job
    assert set(WebhookEvent.objects.values_list("pk", flat=True)) == {kept, newest}
    # The newest event stays whatever its age, so numbering never starts again.
    WebhookEvent.objects.update(created_at=timezone.now() - timedelta(days=40))
    assert events_expire(now=timezone.now()) == 1
    assert list(WebhookEvent.objects.values_list("pk", flat=True)) == [newest]
    assert _ids(_data(api())) == []
    assert _ids(_data(api(after=_change(plan)))) == []

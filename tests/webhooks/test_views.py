"""Profile > Integrations > Webhooks: add (secret shown once), roll, disable, delete, test
event, delivery log with Redeliver; nobody sees another user's endpoints."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from django_tasks_db.models import DBTaskResult

from planning.models import PlanRole
from tests.factories import PlanFactory, PlanMembershipFactory, UserFactory
from tests.webhooks.factories import endpoint_for
from webhooks.models import (
    DeliveryStatus,
    DisabledReason,
    WebhookAttempt,
    WebhookDelivery,
    WebhookEndpoint,
    WebhookEvent,
)
from webhooks.signing import secret_decrypt

pytestmark = pytest.mark.django_db

BASE = "/profile/integrations/webhooks/"
PUBLIC_URL = "https://93.184.215.14/hooks"
SECRET = re.compile(r"whsec_[0-9A-Za-z]{32}")


@pytest.fixture
def owner_client(user: Any, client: Client) -> Client:
    client.force_login(user)
    return client


def _add(client: Client, **fields: Any) -> Any:
    return client.post(f"{BASE}new/", {"url": PUBLIC_URL, "plan_scope": "all", **fields})


def test_adding_an_endpoint_shows_its_secret_once_after_a_redirect(owner_client: Client) -> None:
    response = _add(owner_client, description="ERP")

    endpoint = WebhookEndpoint.objects.get()
    assert response.status_code == 302
    assert response["Location"] == f"{BASE}{endpoint.pk}/secret/"
    page = owner_client.get(response["Location"])
    assert page["Cache-Control"].startswith("max-age=0")
    (shown,) = SECRET.findall(page.content.decode())
    assert secret_decrypt(endpoint.secret_encrypted) == shown
    assert (endpoint.url, endpoint.description, endpoint.all_plans) == (PUBLIC_URL, "ERP", True)

    again = owner_client.get(f"{BASE}{endpoint.pk}/secret/", follow=True)
    assert shown not in again.content.decode()
    assert "shown only once" in again.content.decode()
    listing = owner_client.get(BASE).content.decode()
    assert shown not in listing and shown[:10] in listing
    assert shown not in str(dict(owner_client.session))


def test_the_new_secret_is_kept_whole_neither_in_the_session_nor_in_the_cookie(
    owner_client: Client, user: Any
) -> None:
    posted = _add(owner_client)
    session_values = str(dict(owner_client.session.items()))
    pad = posted.cookies["shown_once_pad"]
    other = Client()
    other.force_login(user)  # the same account, without the first browser's pad cookie

    (shown,) = SECRET.findall(owner_client.get(posted["Location"]).content.decode())

    assert shown[6:] not in session_values and shown[6:] not in pad.value
    assert pad["httponly"] and pad["path"] == posted["Location"]
    assert SECRET.search(other.get(posted["Location"], follow=True).content.decode()) is None


def test_an_endpoint_can_be_limited_to_chosen_plans_the_user_can_see(
    owner_client: Client, user: Any
) -> None:
    mine = PlanFactory.create()
    PlanMembershipFactory.create(plan=mine, user=user, role=PlanRole.VIEWER)
    not_mine = PlanFactory.create()

    refused = _add(owner_client, plan_scope="chosen", plans=[str(not_mine.pk)])
    assert refused.status_code == 200
    assert "Select a valid choice" in refused.content.decode()
    empty = _add(owner_client, plan_scope="chosen")
    assert "Choose at least one plan" in empty.content.decode()
    assert not WebhookEndpoint.objects.exists()

    assert _add(owner_client, plan_scope="chosen", plans=[str(mine.pk)]).status_code == 302
    endpoint = WebhookEndpoint.objects.get()
    assert (endpoint.all_plans, list(endpoint.plans.all())) == (False, [mine])


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("http://93.184.215.14/hooks", "must start with https://"),
        ("https://127.0.0.1/hooks", "cannot receive webhooks"),
        ("https://10.0.0.1/hooks", "cannot receive webhooks"),
        ("https://169.254.169.254/latest", "cannot receive webhooks"),
        ("https://[64:ff9b::7f00:1]/hooks", "cannot receive webhooks"),
        ("https://93.184.215.14:6379/hooks", "must use port 443 or 8443"),
        ("not a url", "must start with https://"),
    ],
)
def test_a_refused_url_is_a_form_error_and_nothing_is_saved(
    owner_client: Client, url: str, message: str
) -> None:
    response = _add(owner_client, url=url)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not WebhookEndpoint.objects.exists()


def test_rolling_the_secret_shows_a_new_one_once(owner_client: Client, user: Any) -> None:
    endpoint, old = endpoint_for(user)
    response = owner_client.post(f"{BASE}{endpoint.pk}/roll-secret/")
    assert response.status_code == 302
    (new,) = SECRET.findall(owner_client.get(response["Location"]).content.decode())
    endpoint.refresh_from_db()
    assert new != old and secret_decrypt(endpoint.secret_encrypted) == new


def test_disable_enable_and_delete(owner_client: Client, user: Any) -> None:
    endpoint, _ = endpoint_for(user)
    owner_client.post(f"{BASE}{endpoint.pk}/disable/")
    endpoint.refresh_from_db()
    assert endpoint.disabled_reason == DisabledReason.OWNER
    owner_client.post(f"{BASE}{endpoint.pk}/enable/")
    endpoint.refresh_from_db()
    assert endpoint.is_active

    assert (
        "Delete this endpoint?" in owner_client.get(f"{BASE}{endpoint.pk}/delete/").content.decode()
    )
    response = owner_client.post(f"{BASE}{endpoint.pk}/delete/")
    assert response.status_code == 302 and response["Location"] == BASE
    assert not WebhookEndpoint.objects.exists()


def test_enabling_rechecks_the_url(owner_client: Client, user: Any, settings: Any) -> None:
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = True
    endpoint, _ = endpoint_for(user, url="http://127.0.0.1:9/hooks")
    owner_client.post(f"{BASE}{endpoint.pk}/disable/")
    settings.WEBHOOK_ALLOW_PRIVATE_TARGETS = False
    page = owner_client.post(f"{BASE}{endpoint.pk}/enable/", follow=True).content.decode()
    endpoint.refresh_from_db()
    assert not endpoint.is_active
    assert "must start with https://" in page


def test_send_test_event_queues_a_delivery(owner_client: Client, user: Any) -> None:
    endpoint, _ = endpoint_for(user)
    response = owner_client.post(f"{BASE}{endpoint.pk}/test/", follow=True)
    event = WebhookEvent.objects.get()
    assert event.event_type == "webhook.test"
    assert f"Test event {event.pk} is queued" in response.content.decode()
    job = DBTaskResult.objects.get()
    assert job.args_kwargs["kwargs"] == {
        "delivery_id": WebhookDelivery.objects.get().pk,
        "attempt": 1,
    }


def test_the_delivery_log_is_paged_and_redeliver_queues_the_next_attempt(
    owner_client: Client, user: Any
) -> None:
    endpoint, _ = endpoint_for(user)
    owner_client.post(f"{BASE}{endpoint.pk}/test/")
    delivery = WebhookDelivery.objects.get()
    WebhookDelivery.objects.filter(pk=delivery.pk).update(status=DeliveryStatus.FAILED, attempts=8)
    WebhookAttempt.objects.bulk_create(
        WebhookAttempt(delivery=delivery, endpoint=endpoint, number=n, status_code=500)
        for n in range(1, 61)
    )
    first = owner_client.get(f"{BASE}{endpoint.pk}/").content.decode()
    assert first.count("Redeliver") == 50 and "Page 1 of 2" in first
    assert delivery.event_id in first
    assert (
        owner_client.get(f"{BASE}{endpoint.pk}/?page=2").content.decode().count("Redeliver") == 10
    )

    owner_client.post(f"{BASE}{endpoint.pk}/deliveries/{delivery.pk}/redeliver/")
    delivery.refresh_from_db()
    assert delivery.status == DeliveryStatus.PENDING
    latest = DBTaskResult.objects.order_by("-enqueued_at").first()
    assert latest is not None and latest.args_kwargs["kwargs"]["attempt"] == 9


def test_another_users_endpoint_is_not_found(owner_client: Client) -> None:
    endpoint, _ = endpoint_for(UserFactory.create())
    for suffix in ("", "secret/", "roll-secret/", "delete/"):
        assert owner_client.get(f"{BASE}{endpoint.pk}/{suffix}").status_code == 404
    for suffix in ("disable/", "enable/", "test/", "roll-secret/", "delete/"):
        assert owner_client.post(f"{BASE}{endpoint.pk}/{suffix}").status_code == 404
    assert WebhookEndpoint.objects.get().is_active
    assert not WebhookEvent.objects.exists()


def test_the_pages_need_a_login(client: Client) -> None:
    response = client.get(BASE)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def _send_test(client: Client, endpoint: WebhookEndpoint) -> str:
    return client.post(f"{BASE}{endpoint.pk}/test/", follow=True).content.decode()


def test_a_test_event_beyond_the_accounts_pending_ones_is_refused_and_nothing_is_queued(
    owner_client: Client, user: Any, settings: Any
) -> None:
    settings.WEBHOOK_TEST_EVENTS_PENDING_MAX = 3
    first, _ = endpoint_for(user)
    second, _ = endpoint_for(user, url="https://93.184.215.15/hooks")
    for endpoint in (first, first, second):  # the limit is the account's, across endpoints
        assert "is queued" in _send_test(owner_client, endpoint)

    page = _send_test(owner_client, second)

    assert "No test event was sent: 3 of yours are still waiting to be delivered" in page
    assert WebhookEvent.objects.count() == 3 and WebhookDelivery.objects.count() == 3
    assert DBTaskResult.objects.count() == 3


def test_a_delivered_test_event_frees_its_place(
    owner_client: Client, user: Any, settings: Any
) -> None:
    settings.WEBHOOK_TEST_EVENTS_PENDING_MAX = 1
    endpoint, _ = endpoint_for(user)
    _send_test(owner_client, endpoint)
    assert "No test event was sent" in _send_test(owner_client, endpoint)
    WebhookDelivery.objects.update(status=DeliveryStatus.DELIVERED)

    page = _send_test(owner_client, endpoint)

    assert "is queued" in page and WebhookDelivery.objects.count() == 2


def test_another_accounts_pending_test_events_do_not_limit_this_one(
    owner_client: Client, user: Any, settings: Any
) -> None:
    settings.WEBHOOK_TEST_EVENTS_PENDING_MAX = 1
    other = UserFactory.create()
    others_endpoint, _ = endpoint_for(other)
    other_client = Client()
    other_client.force_login(other)
    _send_test(other_client, others_endpoint)
    refused = _send_test(other_client, others_endpoint)
    endpoint, _ = endpoint_for(user)

    page = _send_test(owner_client, endpoint)

    assert "No test event was sent" in refused and "is queued" in page
    assert WebhookDelivery.objects.filter(endpoint=endpoint).count() == 1


def test_an_admin_adds_an_organisation_endpoint_and_manages_it_at_its_address(
    client: Client,
) -> None:
    from organisations.services import member_add, organisation_create

    owner, admin, planner = UserFactory.create(), UserFactory.create(), UserFactory.create()
    co_op = organisation_create(name="Harbour Co-op", owner=owner)
    member_add(organisation=co_op, user=admin, role="admin")
    member_add(organisation=co_op, user=planner, role="planner")
    pages = f"/organisations/{co_op.slug}/integrations/webhooks/"
    client.force_login(admin)

    added = client.post(f"{pages}new/", {"url": PUBLIC_URL, "plan_scope": "all"})
    endpoint = WebhookEndpoint.objects.get()
    shown = client.get(added["Location"]).content.decode()
    listed = client.get(pages).content.decode()
    client.force_login(owner)  # another manager sees and manages it too
    detail = client.get(f"{BASE}{endpoint.pk}/")
    client.force_login(planner)

    assert (endpoint.organisation, endpoint.owner, endpoint.created_by) == (co_op, None, admin)
    assert SECRET.search(shown) is not None and PUBLIC_URL in listed
    assert detail.status_code == 200 and "Webhooks of Harbour Co-op" in detail.content.decode()
    assert client.get(pages).status_code == 403
    assert client.get(f"{BASE}{endpoint.pk}/").status_code == 404

"""Webhooks follow API access (docs/subsystems/webhooks.md "Webhooks follow API access"; issue 37,
point 4): an endpoint covers a plan only while its holder could read that plan over the API, so with
the organisation's API access off no delivery is created (the event is still written, as for a plan
no endpoint covers) and a delivery queued before access was withdrawn is not sent. The rule is
apikeys.selectors.plans_readable_for_key's; the last test checks the two agree."""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.urls import reverse

from accounts.models import User
from apikeys.models import ApiKey
from apikeys.selectors import plans_readable_for_key
from apikeys.services import api_key_create, organisation_api_access_set
from organisations.models import Organisation, OrganisationRole
from organisations.services import member_add, organisation_create
from planning.models import Plan, PlanRole
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory, UserFactory
from webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint, WebhookEvent
from webhooks.selectors import endpoint_covers_plan
from webhooks.services import endpoint_create
from webhooks.tasks import webhook_deliver

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("suggestion_events_only")]


@pytest.fixture(autouse=True)
def _policy_on(settings: Any) -> None:
    settings.API_ACCESS_REQUIRES_GRANT = True


@pytest.fixture
def co_op() -> Organisation:
    """An organisation without API access (the default) and one plan of it."""
    organisation = organisation_create(name="Co-op", owner=UserFactory.create())
    PlanFactory.create(organisation=organisation)
    return organisation


def _plan(organisation: Organisation) -> Plan:
    return Plan.objects.get(organisation=organisation)


def _change(plan: Plan) -> None:
    """A suggestion opens on the plan: one event."""
    StructureNodeFactory.create(plan=plan)
    suggestion_sync(plan=plan)


def _member_endpoint(co_op: Organisation, role: str = OrganisationRole.VIEWER) -> WebhookEndpoint:
    member = UserFactory.create()
    member_add(organisation=co_op, user=member, role=role)
    endpoint, _secret = endpoint_create(user=member, url="https://93.184.215.14/hooks")
    return endpoint


@pytest.mark.parametrize("role", [OrganisationRole.VIEWER, OrganisationRole.OWNER])
def test_a_members_endpoint_gets_no_delivery_while_the_organisation_has_no_api_access(
    co_op: Organisation, role: str
) -> None:
    endpoint = _member_endpoint(co_op, role)
    _change(_plan(co_op))
    assert WebhookEvent.objects.filter(plan=_plan(co_op)).exists()  # written, as always
    assert not WebhookDelivery.objects.filter(endpoint=endpoint).exists()


def test_a_guests_endpoint_gets_no_delivery_while_the_plans_organisation_has_no_api_access(
    co_op: Organisation,
) -> None:
    guest = UserFactory.create()  # their personal organisation has API access; co_op has not
    Organisation.objects.filter(personal_for=guest).update(api_access_enabled=True)
    PlanMembershipFactory.create(plan=_plan(co_op), user=guest, role=PlanRole.VIEWER)
    endpoint, _secret = endpoint_create(user=guest, url="https://93.184.215.14/hooks")
    _change(_plan(co_op))
    assert not WebhookDelivery.objects.filter(endpoint=endpoint).exists()


def test_an_organisations_endpoint_gets_no_delivery_without_its_api_access(
    co_op: Organisation,
) -> None:
    admin = UserFactory.create()
    member_add(organisation=co_op, user=admin, role=OrganisationRole.ADMIN)
    endpoint, _secret = endpoint_create(
        user=admin, organisation=co_op, url="https://93.184.215.14/hooks"
    )
    _change(_plan(co_op))
    assert not WebhookDelivery.objects.filter(endpoint=endpoint).exists()


def test_with_api_access_the_same_endpoints_get_their_deliveries(co_op: Organisation) -> None:
    endpoint = _member_endpoint(co_op)
    organisation_api_access_set(organisation=co_op, enabled=True, by=None)
    _change(_plan(co_op))
    assert WebhookDelivery.objects.filter(endpoint=endpoint).count() == 1


def test_the_per_person_override_and_the_policy_off_deliver(
    co_op: Organisation, settings: Any
) -> None:
    endpoint = _member_endpoint(co_op)
    assert endpoint.owner_id is not None
    User.objects.filter(pk=endpoint.owner_id).update(api_access_enabled=True)
    _change(_plan(co_op))
    assert WebhookDelivery.objects.filter(endpoint=endpoint).count() == 1

    User.objects.filter(pk=endpoint.owner_id).update(api_access_enabled=False)
    settings.API_ACCESS_REQUIRES_GRANT = False
    _change(_plan(co_op))
    assert WebhookDelivery.objects.filter(endpoint=endpoint).count() == 2


def test_a_delivery_queued_before_access_was_withdrawn_is_not_sent(
    co_op: Organisation, monkeypatch: pytest.MonkeyPatch
) -> None:
    endpoint = _member_endpoint(co_op)
    organisation_api_access_set(organisation=co_op, enabled=True, by=None)
    _change(_plan(co_op))
    delivery = WebhookDelivery.objects.get(endpoint=endpoint)
    organisation_api_access_set(organisation=co_op, enabled=False, by=None)
    connections: list[Any] = []
    monkeypatch.setattr(socket, "create_connection", lambda *a, **k: connections.append(a))

    webhook_deliver.call(delivery_id=delivery.pk, attempt=1)

    attempt = WebhookAttempt.objects.get(delivery=delivery)
    assert attempt.error == "the endpoint no longer covers this plan"
    assert connections == []


# --- the same rule as the API's -----------------------------------------------------------------


def _holders(world: dict[str, Organisation]) -> list[tuple[str, Any]]:
    """(name, holder) pairs: people in every relation to the plans, and the organisations."""
    a, b = world["A"], world["B"]
    people: list[tuple[str, Any]] = []
    for role in OrganisationRole.values:
        person = UserFactory.create()
        member_add(organisation=a, user=person, role=role)
        people.append((f"a-{role}", person))
    guest = UserFactory.create()
    PlanMembershipFactory.create(plan=_plan(b), user=guest, role=PlanRole.VIEWER)
    people.append(("guest of B", guest))
    both = UserFactory.create()
    member_add(organisation=a, user=both, role=OrganisationRole.PLANNER)
    member_add(organisation=b, user=both, role=OrganisationRole.VIEWER)
    people.append(("member of both", both))
    overridden = UserFactory.create(api_access_enabled=True)
    member_add(organisation=b, user=overridden, role=OrganisationRole.VIEWER)
    people.append(("override", overridden))
    return [*people, ("organisation A", a), ("organisation B", b)]


@pytest.mark.parametrize("policy", [True, False])
@pytest.mark.parametrize("a_has_access", [True, False])
def test_an_endpoint_covers_exactly_the_plans_a_key_of_its_holder_may_read(
    settings: Any, policy: bool, a_has_access: bool
) -> None:
    settings.API_ACCESS_REQUIRES_GRANT = policy
    world = {
        name: organisation_create(name=f"Organisation {name}", owner=UserFactory.create())
        for name in ("A", "B")
    }
    for organisation in world.values():
        PlanFactory.create(organisation=organisation)
    organisation_api_access_set(organisation=world["A"], enabled=a_has_access, by=None)
    plans = list(Plan.objects.all())
    for name, holder in _holders(world):
        if isinstance(holder, Organisation):
            endpoint, _ = endpoint_create(
                user=None, organisation=holder, url="https://93.184.215.14/hooks"
            )
            api_key = ApiKey(organisation=holder)
        else:
            endpoint, _ = endpoint_create(user=holder, url="https://93.184.215.14/hooks")
            api_key, _raw = api_key_create(user=holder, name="all")
        covered = {
            plan.pk for plan in plans if endpoint_covers_plan(endpoint=endpoint, plan_id=plan.pk)
        }
        readable = set(
            plans_readable_for_key(api_key=api_key)
            .filter(pk__in=[p.pk for p in plans])
            .values_list("pk", flat=True)
        )
        assert covered == readable, name


# --- the pages say so -----------------------------------------------------------------------


def test_the_endpoint_list_names_the_organisations_whose_events_are_held_back(
    co_op: Organisation, client: Any
) -> None:
    endpoint = _member_endpoint(co_op)
    assert endpoint.owner is not None
    client.force_login(endpoint.owner)
    page = client.get(reverse("webhooks:endpoint_list")).content.decode()
    assert 'data-testid="webhooks-api-access-notice"' in page
    assert "Co-op" in page

    organisation_api_access_set(organisation=co_op, enabled=True, by=None)
    page = client.get(reverse("webhooks:endpoint_list")).content.decode()
    assert 'data-testid="webhooks-api-access-notice"' not in page

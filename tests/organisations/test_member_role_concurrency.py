"""Member role checks run under the lock the change takes (docs/subsystems/organisations.md "Role
changes under the lock"; issue 37, point 6): a change that waited for another one reads both
memberships again under the organisation's lock and checks the caller's rights on what it finds.
PostgreSQL, real connections, the second request waiting on the first transaction's lock.

Run with `scripts/with-postgres.sh .venv/bin/pytest
tests/organisations/test_member_role_concurrency.py -q`.
"""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import User
from organisations.models import Organisation, OrganisationMembership, OrganisationRole
from organisations.services import member_add, member_role_set, organisation_create
from tests.concurrency import behind_a_lock
from tests.factories import UserFactory

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]


def _co_op() -> tuple[Organisation, dict[str, User], dict[str, OrganisationMembership]]:
    people = {name: UserFactory.create(name=name) for name in ("owner", "admin", "target")}
    organisation = organisation_create(name="Co-op", owner=people["owner"])
    member_add(organisation=organisation, user=people["admin"], role=OrganisationRole.ADMIN)
    member_add(organisation=organisation, user=people["target"], role=OrganisationRole.PLANNER)
    memberships = {
        name: OrganisationMembership.objects.get(organisation=organisation, user=person)
        for name, person in people.items()
    }
    return organisation, people, memberships


def _client(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _role_post(client: Client, organisation: Organisation, target: Any, role: str) -> Any:
    url = reverse("organisations:member_role_set", args=[organisation.slug, target.pk])
    return client.post(url, {f"m{target.pk}-role": role})


def test_an_admins_change_that_waited_for_an_owners_promotion_is_refused(
    requires_postgres: None,
) -> None:
    """The owner promotes the target to owner; the admin's demotion of the same person, sent
    while the promotion is uncommitted (the admin's page read "planner"), waits for it, then
    finds an owner and is refused: only an owner changes an owner."""
    organisation, people, memberships = _co_op()
    admin = _client(people["admin"])

    response = behind_a_lock(
        lambda: member_role_set(membership=memberships["target"], role=OrganisationRole.OWNER),
        lambda: _role_post(admin, organisation, memberships["target"], OrganisationRole.VIEWER),
    )

    assert response.status_code == 403
    memberships["target"].refresh_from_db()
    assert memberships["target"].role == OrganisationRole.OWNER


def test_an_admin_demoted_meanwhile_changes_no_role(requires_postgres: None) -> None:
    """The owner makes the admin a viewer; the admin's change sent meanwhile is refused once it
    reads the admin's own role again under the lock."""
    organisation, people, memberships = _co_op()
    admin = _client(people["admin"])

    response = behind_a_lock(
        lambda: member_role_set(membership=memberships["admin"], role=OrganisationRole.VIEWER),
        lambda: _role_post(admin, organisation, memberships["target"], OrganisationRole.VIEWER),
    )

    assert response.status_code == 403
    memberships["target"].refresh_from_db()
    assert memberships["target"].role == OrganisationRole.PLANNER


def test_an_admins_removal_that_waited_for_an_owners_promotion_is_refused(
    requires_postgres: None,
) -> None:
    organisation, people, memberships = _co_op()
    admin = _client(people["admin"])
    url = reverse("organisations:member_remove", args=[organisation.slug, memberships["target"].pk])

    response = behind_a_lock(
        lambda: member_role_set(membership=memberships["target"], role=OrganisationRole.OWNER),
        lambda: admin.post(url),
    )

    assert response.status_code == 403
    assert OrganisationMembership.objects.filter(pk=memberships["target"].pk).exists()

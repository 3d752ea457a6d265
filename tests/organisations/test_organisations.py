from __future__ import annotations

from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client

from organisations.models import Organisation, OrganisationMembership, OrganisationRole
from organisations.services import member_add, member_remove, member_role_set, organisation_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_every_new_account_gets_its_personal_organisation_as_owner() -> None:
    user = UserFactory.create(name="Ada Lovelace")

    organisation = Organisation.objects.get(personal_for=user)
    assert organisation.name == "Ada Lovelace's plans"
    assert organisation.memberships.get().role == OrganisationRole.OWNER


def test_slugs_stay_unique_for_one_name() -> None:
    first = organisation_create(name="Harbour Co-op", owner=UserFactory.create())
    second = organisation_create(name="Harbour Co-op", owner=UserFactory.create())

    assert (first.slug, second.slug) == ("harbour-co-op", "harbour-co-op-2")


def test_the_last_owner_can_neither_leave_nor_be_demoted() -> None:
    owner = UserFactory.create()
    organisation = organisation_create(name="Co-op", owner=owner)
    membership = OrganisationMembership.objects.get(organisation=organisation, user=owner)

    with pytest.raises(ValidationError):
        member_role_set(membership=membership, role=OrganisationRole.ADMIN)
    with pytest.raises(ValidationError):
        member_remove(membership=membership)

    membership.refresh_from_db()
    assert membership.role == OrganisationRole.OWNER


def test_an_owner_may_step_down_once_another_owner_exists() -> None:
    owner = UserFactory.create()
    organisation = organisation_create(name="Co-op", owner=owner)
    member_add(organisation=organisation, user=UserFactory.create(), role="owner")
    membership = OrganisationMembership.objects.get(organisation=organisation, user=owner)

    member_role_set(membership=membership, role="viewer")

    assert OrganisationMembership.objects.get(pk=membership.pk).role == "viewer"


def test_an_unknown_role_is_refused() -> None:
    organisation = organisation_create(name="Co-op", owner=UserFactory.create())

    with pytest.raises(ValidationError) as raised:
        member_add(organisation=organisation, user=UserFactory.create(), role="superuser")

    assert "role" in raised.value.message_dict


def test_the_members_page_is_a_404_to_a_non_member_like_a_missing_one(client: Client) -> None:
    organisation = organisation_create(name="Co-op", owner=UserFactory.create())
    client.force_login(UserFactory.create())

    theirs = client.get(f"/organisations/{organisation.slug}/")
    missing = client.get("/organisations/no-such-organisation/")

    assert theirs.status_code == missing.status_code == 404
    assert "Co-op" not in theirs.content.decode()


def test_a_member_sees_the_members_with_their_roles(client: Client) -> None:
    owner = UserFactory.create(email="owner@example.com")
    organisation = organisation_create(name="Co-op", owner=owner)
    viewer: Any = UserFactory.create(email="viewer@example.com")
    member_add(organisation=organisation, user=viewer, role="viewer")
    client.force_login(viewer)

    page = client.get(f"/organisations/{organisation.slug}/").content.decode()

    assert "owner@example.com" in page and "viewer@example.com" in page
    assert "Co-op" in page

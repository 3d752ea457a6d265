from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.test import Client

from organisations.models import Organisation, OrganisationMembership, OrganisationRole
from organisations.services import member_add, member_remove, member_role_set, organisation_create
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def test_every_new_account_gets_its_personal_organisation_as_owner() -> None:
    user = UserFactory.create(name="Ada Lovelace")

    organisation = Organisation.objects.get(personal_for=user)
    assert organisation.name == "Ada Lovelace (personal)"
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


def test_the_last_owner_cannot_leave_on_the_page(client: Client) -> None:
    owner = UserFactory.create()
    organisation = organisation_create(name="Co-op", owner=owner)
    mine = OrganisationMembership.objects.get(organisation=organisation, user=owner)
    client.force_login(owner)

    response = client.post(f"/organisations/{organisation.slug}/members/{mine.pk}/remove/")

    assert response.status_code == 400
    assert "always keeps at least one owner" in response.content.decode()
    assert OrganisationMembership.objects.filter(pk=mine.pk).exists()


def test_a_removed_member_loses_the_organisations_plans_on_the_next_request(
    client: Client,
) -> None:
    from planning.plans.services.plans import plan_create

    owner = UserFactory.create()
    organisation = organisation_create(name="Co-op", owner=owner)
    planner = UserFactory.create()
    membership = member_add(organisation=organisation, user=planner, role="planner")
    plan = plan_create(owner=owner, name="Harbour 1", organisation=organisation)
    client.force_login(planner)
    assert client.get(f"/plans/{plan.number}/").status_code == 200
    client.force_login(owner)

    client.post(f"/organisations/{organisation.slug}/members/{membership.pk}/remove/")
    client.force_login(planner)

    assert client.get(f"/plans/{plan.number}/").status_code == 404


def test_an_admin_cannot_remove_or_demote_an_owner(client: Client) -> None:
    owner = UserFactory.create()
    organisation = organisation_create(name="Co-op", owner=owner)
    admin = UserFactory.create()
    member_add(organisation=organisation, user=admin, role="admin")
    owners = OrganisationMembership.objects.get(organisation=organisation, user=owner)
    client.force_login(admin)

    removed = client.post(f"/organisations/{organisation.slug}/members/{owners.pk}/remove/")
    demoted = client.post(
        f"/organisations/{organisation.slug}/members/{owners.pk}/role/",
        {f"m{owners.pk}-role": "viewer"},
    )

    assert (removed.status_code, demoted.status_code) == (403, 403)
    owners.refresh_from_db()
    assert owners.role == "owner"


def test_an_organisation_is_created_from_the_list_and_its_creator_owns_it(
    client: Client,
) -> None:
    person = UserFactory.create()
    client.force_login(person)

    response = client.post("/organisations/", {"create-name": "North Homes"})

    assert response.status_code == 302
    organisation = Organisation.objects.get(name="North Homes")
    assert organisation.memberships.get().user == person
    # the new organisation is the one in view: its plan list, and the top bar names it
    assert response["Location"] == "/plans/"
    plans = client.get("/plans/").content.decode()
    assert "<h1>Plans of North Homes</h1>" in plans
    assert '<span class="org-name">North Homes</span>' in plans


def test_every_page_names_the_organisation_it_is_in(client: Client) -> None:
    """A page of an organisation or of one of its plans names that organisation in the top
    bar, and the bar's Plans link leads to its plans; another page names the chosen one."""
    from planning.plans.services.plans import plan_create

    person = UserFactory.create(name="Pia")
    co_op = organisation_create(name="Harbour Co-op", owner=person)
    plan = plan_create(owner=person, name="Quay houses", organisation=co_op)
    client.force_login(person)

    def named(path: str) -> str:
        page = client.get(path).content.decode()
        found = re.search(r'<span class="org-name">([^<]*)</span>', page)
        assert found is not None, path
        return found.group(1)

    assert named("/plans/") == "Pia (personal)"
    assert named(f"/plans/{plan.number}/") == "Harbour Co-op"
    plan_page = client.get(f"/plans/{plan.number}/actions/").content.decode()
    assert f'href="/plans/?org={co_op.slug}">Plans</a>' in plan_page
    assert named(f"/organisations/{co_op.slug}/") == "Harbour Co-op"
    assert named("/profile/") == "Pia (personal)"  # the choice is still the personal one
    assert named(f"/plans/?org={co_op.slug}") == "Harbour Co-op"
    assert named("/profile/") == "Harbour Co-op"  # now it is chosen


def test_staff_switching_api_access_in_the_admin_is_logged(client: Client) -> None:
    from accounts.models import SecurityEvent

    staff = UserFactory.create(is_staff=True, is_superuser=True)
    organisation = organisation_create(name="Co-op", owner=UserFactory.create())
    client.force_login(staff)
    url = f"/admin/organisations/organisation/{organisation.pk}/change/"
    form = {
        "name": "Co-op",
        "slug": organisation.slug,
        "api_access_enabled": "on",
        "memberships-TOTAL_FORMS": "0",
        "memberships-INITIAL_FORMS": "0",
        "memberships-MIN_NUM_FORMS": "0",
        "memberships-MAX_NUM_FORMS": "1000",
        "created_at": "",
    }

    response = client.post(url, form)

    assert response.status_code == 302, response.content.decode()[:2000]
    organisation.refresh_from_db()
    assert organisation.api_access_enabled
    line = SecurityEvent.objects.get(organisation_id=organisation.pk)
    assert line.kind == SecurityEvent.Kind.API_ACCESS_CHANGED and "by staff" in line.detail


def test_the_personal_organisation_comes_first_then_by_name() -> None:
    from organisations.selectors import memberships_for_user

    person = UserFactory.create(name="Zed")
    for name in ("Beta Co-op", "Alpha Homes"):
        member_add(
            organisation=organisation_create(name=name, owner=UserFactory.create()),
            user=person,
            role="viewer",
        )

    names = [m.organisation.name for m in memberships_for_user(user=person)]

    assert names == ["Zed (personal)", "Alpha Homes", "Beta Co-op"]


def test_a_guest_sees_a_shared_plans_organisation_marked_guest(client: Client) -> None:
    from planning.plans.services.plans import plan_create
    from tests.factories import PlanMembershipFactory

    owner = UserFactory.create()
    co_op = organisation_create(name="Harbour Co-op", owner=owner)
    plan = plan_create(owner=owner, name="Quay houses", organisation=co_op)
    guest = UserFactory.create(name="Gus")
    PlanMembershipFactory.create(plan=plan, user=guest, role="viewer")
    client.force_login(guest)

    page = client.get(f"/plans/{plan.number}/").content.decode()

    assert '<span class="org-name">Harbour Co-op</span> <span class="badge">guest</span>' in page
    # the guest is no member: the plan list stays on their own organisation
    assert 'href="/plans/">Plans</a>' in page
    assert "Gus (personal)" in client.get("/plans/").content.decode()


# --- the caller's rights, checked by the service under the lock (issue 37, point 6) -------------


@pytest.fixture
def co_op_people() -> dict[str, Any]:
    people = {role: UserFactory.create() for role in ("owner", "admin", "planner", "viewer")}
    organisation = organisation_create(name="Co-op", owner=people["owner"])
    for role in ("admin", "planner", "viewer"):
        member_add(organisation=organisation, user=people[role], role=role)
    memberships = {
        role: OrganisationMembership.objects.get(organisation=organisation, user=person)
        for role, person in people.items()
    }
    return {"people": people, "memberships": memberships}


@pytest.mark.parametrize(
    ("by", "target", "role", "allowed"),
    [
        ("owner", "planner", "owner", True),
        ("owner", "admin", "viewer", True),
        ("admin", "planner", "viewer", True),
        ("admin", "planner", "owner", False),  # only an owner makes an owner
        ("admin", "owner", "viewer", False),  # or changes one
        ("planner", "viewer", "planner", False),  # not a manager
        ("viewer", "viewer", "admin", False),  # not even for themselves
    ],
)
def test_a_role_change_checks_the_callers_rights(
    co_op_people: dict[str, Any], by: str, target: str, role: str, allowed: bool
) -> None:
    membership = co_op_people["memberships"][target]
    before = membership.role
    caller = co_op_people["people"][by]
    if allowed:
        member_role_set(membership=membership, role=role, by=caller)
    else:
        with pytest.raises(PermissionDenied):
            member_role_set(membership=membership, role=role, by=caller)
    assert OrganisationMembership.objects.get(pk=membership.pk).role == (
        role if allowed else before
    )


@pytest.mark.parametrize(
    ("by", "target", "allowed"),
    [
        ("owner", "admin", True),
        ("admin", "planner", True),
        ("admin", "owner", False),  # an admin cannot remove an owner
        ("planner", "viewer", False),
        ("viewer", "viewer", True),  # leaving
    ],
)
def test_a_removal_checks_the_callers_rights(
    co_op_people: dict[str, Any], by: str, target: str, allowed: bool
) -> None:
    membership = co_op_people["memberships"][target]
    caller = co_op_people["people"][by]
    if allowed:
        member_remove(membership=membership, by=caller)
    else:
        with pytest.raises(PermissionDenied):
            member_remove(membership=membership, by=caller)
    assert OrganisationMembership.objects.filter(pk=membership.pk).exists() is not allowed


def test_a_change_of_someone_removed_meanwhile_is_a_clear_error(
    co_op_people: dict[str, Any],
) -> None:
    membership = co_op_people["memberships"]["planner"]
    OrganisationMembership.objects.filter(pk=membership.pk).delete()
    with pytest.raises(ValidationError, match="no longer a member"):
        member_role_set(membership=membership, role="viewer", by=co_op_people["people"]["owner"])

"""Who may do what with a plan, as a table (docs/design.md "Organisations"): every principal x
every page of a plan (found from the URL configuration, so a new page cannot escape) x GET and
POST, and the integrator API with each principal's key, across two organisations and guests.

Expected rights come from the table below, not from the code under test: organisation owner
and admin manage the plan (change it, its guests, delete it), a planner and an editor guest
change it, a viewer and a viewer guest see it; anyone else gets exactly what a missing plan
gets (404, nothing of the plan in the page). A POST beyond one's rights is 403 (or 405 where the
page takes no POST); within them it is never 403 or 404. Every request runs in a transaction
that is rolled back, so an allowed POST changes nothing for the next row.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from integrations.services import api_key_create
from organisations.services import member_add, organisation_create
from planning.models import PlanMembership, StructureNode, Suggestion
from planning.services import plan_create
from planning.suggestions.sync import suggestion_sync
from tests.factories import ActionFactory, ProjectFactory, StructureNodeFactory, UserFactory

pytestmark = pytest.mark.django_db

NONE, VIEW, EDIT, MANAGE = 0, 1, 2, 3
# Rights on plan A1 (of organisation A) and on B1 (of organisation B).
PRINCIPALS: dict[str, tuple[int, int]] = {
    "a_owner": (MANAGE, NONE),
    "a_admin": (MANAGE, NONE),
    "a_planner": (EDIT, NONE),
    "a_viewer": (VIEW, NONE),
    "b_owner": (NONE, MANAGE),
    "b_viewer": (NONE, VIEW),
    "guest_editor": (EDIT, NONE),  # a grant on A1 only
    "guest_viewer": (VIEW, NONE),  # a grant on A1 only
    "outsider": (NONE, NONE),
}
# POSTs that need the plan's owner rights; every other POST needs editing rights.
MANAGING = {
    "planning:members",
    "planning:member_role_set",
    "planning:member_remove",
    "planning:plan_delete",
}


def _routes(
    patterns: list[Any], prefix: str = "", namespace: str = ""
) -> Iterator[tuple[str, str]]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            space = f"{namespace}{entry.namespace}:" if entry.namespace else namespace
            yield from _routes(entry.url_patterns, prefix + str(entry.pattern), space)
        elif isinstance(entry, URLPattern):
            yield prefix + str(entry.pattern), f"{namespace}{entry.name}"


def plan_routes() -> list[tuple[str, str]]:
    """Every page under /plans/<number>/."""
    return sorted(
        (route, name)
        for route, name in _routes(get_resolver().url_patterns)
        if route.startswith("plans/<int:number>/")
    )


def _world() -> dict[str, Any]:
    users = {name: UserFactory.create(email=f"{name}@example.com") for name in PRINCIPALS}
    org_a = organisation_create(name="Org A", owner=users["a_owner"])
    org_b = organisation_create(name="Org B", owner=users["b_owner"])
    for name, organisation, role in [
        ("a_admin", org_a, "admin"),
        ("a_planner", org_a, "planner"),
        ("a_viewer", org_a, "viewer"),
        ("b_viewer", org_b, "viewer"),
    ]:
        member_add(organisation=organisation, user=users[name], role=role)
    for organisation in (org_a, org_b):
        organisation.api_access_enabled = True
        organisation.save()
    a1 = plan_create(owner=users["a_owner"], name="Secret harbour plan", organisation=org_a)
    a2 = plan_create(owner=users["a_owner"], name="Other harbour plan", organisation=org_a)
    b1 = plan_create(owner=users["b_owner"], name="Northern plan", organisation=org_b)
    guest_editor = PlanMembership.objects.create(plan=a1, user=users["guest_editor"], role="editor")
    PlanMembership.objects.create(plan=a1, user=users["guest_viewer"], role="viewer")
    site = StructureNodeFactory.create(plan=a1, kind="site", name="Harbour site")
    building = StructureNodeFactory.create(plan=a1, parent=site, kind="building", name="Hall")
    component = StructureNodeFactory.create(plan=a1, parent=building, kind="component", code=None)
    project = ProjectFactory.create(plan=a1, name="Roof works", year=2030)
    action = ActionFactory.create(node=component, planned_year=2030, project=project)
    suggestion_sync(plan=a1)
    suggestion = Suggestion.objects.filter(plan=a1).first()
    assert suggestion is not None
    kwargs = {
        "node_id": building.pk,  # every node page takes any kind; the budget rows a building
        "action_id": action.pk,
        "project_id": project.pk,
        "membership_id": guest_editor.pk,
        "suggestion_id": suggestion.pk,
        "fmt": "csv",
    }
    return {"users": users, "plans": {"A1": a1, "A2": a2, "B1": b1}, "kwargs": kwargs}


def _url(route: str, number: int, kwargs: dict[str, Any]) -> str:
    def fill(match: re.Match[str]) -> str:
        name = match.group(2)
        return str(number if name == "number" else kwargs[name])

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", fill, route)


def _request(client: Client, method: str, url: str) -> Any:
    with transaction.atomic():
        response = client.get(url) if method == "GET" else client.post(url, {})
        transaction.set_rollback(True)
    return response


@pytest.mark.parametrize("principal", sorted(PRINCIPALS))
def test_every_plan_page_answers_by_the_principals_rights(client: Client, principal: str) -> None:
    world = _world()
    client.force_login(world["users"][principal])
    routes = plan_routes()
    assert len(routes) > 20  # the resolver walk found the plan pages
    wrong = []
    for plan_key, rights in (("A1", PRINCIPALS[principal][0]), ("B1", PRINCIPALS[principal][1])):
        plan = world["plans"][plan_key]
        for route, name in routes:
            if plan_key == "B1" and any(
                k in route
                for k in ("node_id", "action_id", "project_id", "membership_id", "suggestion_id")
            ):
                continue  # the sample rows are A1's
            url = _url(route, plan.number, world["kwargs"])
            for method in ("GET", "POST"):
                response = _request(client, method, url)
                status = response.status_code
                needed = MANAGE if name in MANAGING else EDIT
                if rights == NONE:
                    ok = status == 404 and plan.name not in response.content.decode()
                elif method == "GET" or rights >= needed:
                    ok = status not in (403, 404)
                else:
                    ok = status in (403, 405)
                if not ok:
                    wrong.append(f"{method} {url} ({name}) -> {status}")
    assert wrong == [], f"{principal}: " + "; ".join(wrong)


def test_anonymous_visitors_are_sent_to_the_login(client: Client) -> None:
    world = _world()
    a1 = world["plans"]["A1"]
    for route, _name in plan_routes():
        url = _url(route, a1.number, world["kwargs"])
        response = _request(client, "GET", url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url


@pytest.mark.parametrize("principal", sorted(PRINCIPALS))
def test_the_api_answers_each_key_by_its_holders_rights(client: Client, principal: str) -> None:
    world = _world()
    _key, raw = api_key_create(user=world["users"][principal], name="matrix")
    a_rights, b_rights = PRINCIPALS[principal]
    expected = {
        "A1": a_rights,
        "A2": a_rights if principal.startswith("a_") else NONE,
        "B1": b_rights,
    }

    def answer(number: int) -> Any:
        return client.get(
            f"/api/v1/platform/plans/{number}/suggestions", HTTP_AUTHORIZATION=f"Bearer {raw}"
        )

    missing = answer(999999)
    for plan_key, rights in expected.items():
        response = answer(world["plans"][plan_key].number)
        if rights == NONE:  # exactly a missing plan's answer (a 403 for a key of no access)
            assert (response.status_code, response.json()["messageKey"]) == (
                missing.status_code,
                missing.json()["messageKey"],
            )
            assert missing.status_code in (403, 404)
        else:
            assert response.status_code == 200, (principal, plan_key, response.json())


def test_a_service_account_reads_its_organisations_plans_and_no_others(client: Client) -> None:
    world = _world()
    organisation = world["plans"]["A1"].organisation
    _key, raw = api_key_create(
        user=world["users"]["a_admin"], name="ERP", organisation=organisation
    )
    for plan_key, status in (("A1", 200), ("A2", 200), ("B1", 404)):
        response = client.get(
            f"/api/v1/platform/plans/{world['plans'][plan_key].number}/suggestions",
            HTTP_AUTHORIZATION=f"Bearer {raw}",
        )
        assert response.status_code == status, plan_key


def test_a_missing_plan_and_a_foreign_one_answer_alike(client: Client) -> None:
    world = _world()
    client.force_login(world["users"]["b_owner"])
    foreign = client.get(f"/plans/{world['plans']['A1'].number}/")
    missing = client.get("/plans/999999/")

    assert foreign.status_code == missing.status_code == 404
    assert StructureNode.objects.filter(plan=world["plans"]["A1"]).exists()

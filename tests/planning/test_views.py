from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.models import Action, Plan, PlanMembership, PlanRole, Project, StructureNode
from tests.conftest import run_queued_jobs
from tests.factories import (
    ActionFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@dataclass
class World:
    plan: Plan
    owner: PlanMembership
    site: StructureNode
    component: StructureNode
    action: Action
    project: Project


@pytest.fixture
def world() -> World:
    owner = PlanMembershipFactory.create(role=PlanRole.OWNER)
    site = StructureNodeFactory.create(plan=owner.plan, kind="site", name="Campus")
    component = StructureNodeFactory.create(plan=owner.plan, parent=site, name="Old roof")
    project = ProjectFactory.create(plan=owner.plan, name="Roof works", year=2030)
    action = ActionFactory.create(
        node=component, title="Fix roof", planned_year=2030, project=project
    )
    return World(
        plan=owner.plan,
        owner=owner,
        site=site,
        component=component,
        action=action,
        project=project,
    )


def _urls(w: World) -> dict[str, tuple[str, str]]:
    """Every plan page: name -> (method, url)."""
    n, node, action, member = w.plan.number, w.component.pk, w.action.pk, w.owner.pk
    project = w.project.pk
    return {
        "plan_detail": ("GET", reverse("planning:plan_detail", args=[n])),
        "plan_actions": ("GET", reverse("planning:plan_actions", args=[n])),
        "plan_settings_page": ("GET", reverse("planning:plan_settings", args=[n])),
        "node_children": ("GET", reverse("planning:node_children", args=[n, w.site.pk])),
        "node_lookup": ("GET", reverse("planning:node_lookup", args=[n]) + "?q=roof"),
        "project_list": ("GET", reverse("planning:project_list", args=[n])),
        "project_page": ("GET", reverse("planning:project_detail", args=[n, project])),
        "export_actions": ("GET", reverse("planning:export_actions", args=[n, "csv"])),
        "export_budget": ("GET", reverse("planning:export_budget", args=[n, "xlsx"])),
        "export_plan": ("GET", reverse("planning:export_plan", args=[n])),
        "plan_settings": ("POST", reverse("planning:plan_settings", args=[n])),
        "plan_money": ("POST", reverse("planning:plan_money", args=[n])),
        "plan_delete": ("POST", reverse("planning:plan_delete", args=[n])),
        "project_edit": ("POST", reverse("planning:project_detail", args=[n, project])),
        "project_delete": ("POST", reverse("planning:project_delete", args=[n, project])),
        "project_actions_add": (
            "POST",
            reverse("planning:project_actions_add", args=[n, project]),
        ),
        "project_action_remove": (
            "POST",
            reverse("planning:project_action_remove", args=[n, project, action]),
        ),
        "node_detail": ("GET", reverse("planning:node_detail", args=[n, node])),
        "node_delete_confirm": ("GET", reverse("planning:node_delete", args=[n, node])),
        "action_edit_page": ("GET", reverse("planning:action_edit", args=[n, action])),
        "members_page": ("GET", reverse("planning:members", args=[n])),
        "node_root_create": ("POST", reverse("planning:node_root_create", args=[n])),
        "node_rename": ("POST", reverse("planning:node_rename", args=[n, node])),
        "node_move": ("POST", reverse("planning:node_move", args=[n, node])),
        "node_details": ("POST", reverse("planning:node_details", args=[n, node])),
        "node_building": ("POST", reverse("planning:node_building", args=[n, node])),
        "node_condition": ("POST", reverse("planning:node_condition", args=[n, node])),
        "action_done_undo": ("POST", reverse("planning:action_done_undo", args=[n, action])),
        "node_child_create": ("POST", reverse("planning:node_child_create", args=[n, node])),
        "node_code": ("POST", reverse("planning:node_code", args=[n, node])),
        "node_code_clear": ("POST", reverse("planning:node_code_clear", args=[n, node])),
        "node_delete": ("POST", reverse("planning:node_delete", args=[n, node])),
        "action_create": ("POST", reverse("planning:action_create", args=[n])),
        "action_edit": ("POST", reverse("planning:action_edit", args=[n, action])),
        "action_cancel": ("POST", reverse("planning:action_cancel", args=[n, action])),
        "action_done": ("POST", reverse("planning:action_done", args=[n, action])),
        "members_add": ("POST", reverse("planning:members", args=[n])),
        "member_role_set": ("POST", reverse("planning:member_role_set", args=[n, member])),
        "member_remove": ("POST", reverse("planning:member_remove", args=[n, member])),
    }


EDIT_POSTS = [
    "node_root_create",
    "node_rename",
    "node_details",
    "node_building",
    "node_condition",
    "action_done_undo",
    "node_move",
    "node_child_create",
    "node_code",
    "node_code_clear",
    "node_delete",
    "action_create",
    "action_edit",
    "action_cancel",
    "action_done",
    "plan_settings",
    "plan_money",
    "project_edit",
    "project_delete",
    "project_actions_add",
    "project_action_remove",
]
OWNER_POSTS = ["members_add", "member_role_set", "member_remove", "plan_delete"]


def _state(w: World) -> tuple[Any, ...]:
    return (
        list(
            StructureNode.objects.filter(plan=w.plan).values_list(
                "id", "name", "parent_id", "kind", "quantity", "install_year", "code_id"
            )
        ),
        list(Action.objects.filter(plan=w.plan).values_list("id", "title", "status", "project_id")),
        list(PlanMembership.objects.filter(plan=w.plan).values_list("id", "role")),
        list(Plan.objects.filter(pk=w.plan.pk).values_list("name", "currency")),
        list(Project.objects.filter(plan=w.plan).values_list("id", "name", "year")),
    )


def _request(client: Client, method: str, url: str) -> Any:
    """GET, or POST a body that the view would accept from someone allowed to send it."""
    data = {
        "rename-name": "Changed",
        "root-name": "New",
        "root-kind": "site",
        "add-email": "x@y.z",
        "plan-name": "Renamed",
        "plan-currency": "USD",
        "delete-confirm_name": Plan.objects.get().name if Plan.objects.count() == 1 else "",
        "project-name": "Renamed project",
        "project-year": "2031",
    }
    return client.get(url) if method == "GET" else client.post(url, data)


PAGE_NAMES = [
    "plan_detail",
    "node_detail",
    "node_delete_confirm",
    "action_edit_page",
    "members_page",
    "plan_actions",
    "plan_settings_page",
    "node_children",
    "node_lookup",
    "project_list",
    "project_page",
    "export_actions",
    "export_budget",
    "export_plan",
    *EDIT_POSTS,
    *OWNER_POSTS,
]


# --- access ---------------------------------------------------------------------------------


@pytest.mark.parametrize("page_name", PAGE_NAMES)
def test_non_member_gets_404_on_every_plan_page(
    client: Client, world: World, page_name: str
) -> None:
    client.force_login(UserFactory.create())
    before = _state(world)
    method, url = _urls(world)[page_name]

    response = _request(client, method, url)

    assert response.status_code == 404
    assert world.plan.name not in response.content.decode()
    assert _state(world) == before


@pytest.mark.parametrize("page_name", PAGE_NAMES)
def test_missing_plan_answers_like_a_hidden_one(
    client: Client, world: World, page_name: str
) -> None:
    client.force_login(world.owner.user)
    method, url = _urls(world)[page_name]
    missing = url.replace(f"/plans/{world.plan.number}/", "/plans/99999/", 1)

    assert _request(client, method, missing).status_code == 404
    client.force_login(UserFactory.create())  # a user for whom world.plan is hidden

    hidden_response = _request(client, method, url)
    missing_response = _request(client, method, missing)

    assert hidden_response.status_code == missing_response.status_code == 404
    # The same bytes, but for the CSRF token of the logout form, masked anew on every response.
    assert _without_csrf_token(missing_response.content) == _without_csrf_token(
        hidden_response.content
    )


def _without_csrf_token(content: bytes) -> bytes:
    masked, count = re.subn(rb'(name="csrfmiddlewaretoken" value=")[^"]+"', rb'\1"', content)
    assert count == 1, content  # the logout form's; a form of the plan page would be a leak
    return masked


def test_plan_number_beyond_range_is_404(client: Client, world: World) -> None:
    client.force_login(world.owner.user)

    assert client.get("/plans/99999999999999999999/").status_code == 404


def test_anonymous_user_is_sent_to_login(client: Client, world: World) -> None:
    response = client.get(reverse("planning:plan_detail", args=[world.plan.number]))

    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_node_of_another_plan_is_404_inside_my_plan(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    foreign = StructureNodeFactory.create()

    response = client.get(reverse("planning:node_detail", args=[world.plan.number, foreign.pk]))

    assert response.status_code == 404


@pytest.mark.parametrize("page_name", EDIT_POSTS + OWNER_POSTS)
def test_viewer_cannot_change_the_plan(client: Client, world: World, page_name: str) -> None:
    viewer = PlanMembershipFactory.create(plan=world.plan, role=PlanRole.VIEWER)
    client.force_login(viewer.user)
    before = _state(world)
    method, url = _urls(world)[page_name]

    response = _request(client, method, url)

    assert response.status_code == 403
    assert _state(world) == before


@pytest.mark.parametrize("page_name", OWNER_POSTS)
def test_editor_cannot_change_members(client: Client, world: World, page_name: str) -> None:
    editor = PlanMembershipFactory.create(plan=world.plan, role=PlanRole.EDITOR)
    client.force_login(editor.user)
    before = _state(world)
    method, url = _urls(world)[page_name]

    assert _request(client, method, url).status_code == 403
    assert _state(world) == before


def test_viewer_sees_the_plan_without_edit_forms(client: Client, world: World) -> None:
    viewer = PlanMembershipFactory.create(plan=world.plan, role=PlanRole.VIEWER)
    client.force_login(viewer.user)

    page = client.get(reverse("planning:plan_detail", args=[world.plan.number])).content.decode()
    actions = client.get(
        reverse("planning:plan_actions", args=[world.plan.number])
    ).content.decode()
    node_page = client.get(
        reverse("planning:node_detail", args=[world.plan.number, world.component.pk])
    ).content.decode()

    assert "Old roof" in page and "Fix roof" in actions
    assert "You can view this plan but not change it." in page
    assert 'id="add-action"' not in actions and 'id="add-root"' not in page
    assert "Mark done" not in actions
    assert "Assign code" not in node_page and "Rename" not in node_page


def test_editor_can_change_the_plan(client: Client, world: World) -> None:
    editor = PlanMembershipFactory.create(plan=world.plan, role=PlanRole.EDITOR)
    client.force_login(editor.user)

    response = client.post(_urls(world)["action_done"][1])

    assert response.status_code == 302
    world.action.refresh_from_db()
    assert world.action.status == "done"


# --- plan list ------------------------------------------------------------------------------


def test_plan_list_shows_only_my_plans_with_role_and_counts(client: Client, world: World) -> None:
    other = PlanMembershipFactory.create()
    StructureNodeFactory.create_batch(4, plan=other.plan)  # another plan's rows are not counted
    ActionFactory.create(node=StructureNodeFactory.create(plan=other.plan))
    ActionFactory.create(node=world.site, planned_year=2031)
    ActionFactory.create(node=world.component, planned_year=2032)
    client.force_login(world.owner.user)

    page = client.get(reverse("planning:plan_list")).content.decode()

    assert world.plan.name in page and f"#{world.plan.number}" in page
    assert other.plan.name not in page
    assert "Owner (guest)" in page
    rows = re.findall(r'<tr data-plan-number="(\d+)">(.*?)</tr>', page, re.S)
    assert [number for number, _ in rows] == [str(world.plan.number)]
    cells = [
        re.sub(r"<[^>]+>", "", cell).strip()
        for cell in re.findall(r"<td[^>]*>(.*?)</td>", rows[0][1], re.S)
    ]
    # number, name (of another organisation: a shared plan), role, open suggestions, planned
    # cost of the ten years, last change, 2 nodes (site, component), 3 actions
    assert cells[:4] == [
        f"#{world.plan.number}",
        f"{world.plan.name} ({world.plan.organisation.name})",
        "Owner (guest)",
        "0",
    ]
    assert cells[-2:] == ["2", "3"]


def test_plan_is_created_from_the_list(client: Client, user: Any) -> None:
    client.force_login(user)

    response = client.post(
        reverse("planning:plan_list"), {"create-name": "Town hall", "create-description": ""}
    )

    plan = Plan.objects.get(name="Town hall")
    assert response.status_code == 302
    assert response["Location"] == reverse("planning:plan_detail", args=[plan.number])
    assert plan.organisation == user.personal_organisation
    assert "Town hall" in client.get(response["Location"]).content.decode()


def test_plan_with_blank_name_is_refused_with_a_message(client: Client, user: Any) -> None:
    client.force_login(user)

    response = client.post(reverse("planning:plan_list"), {"create-name": "   "})

    assert response.status_code == 200
    assert "This field is required." in response.content.decode()
    assert not Plan.objects.exists()


# --- structure pages ------------------------------------------------------------------------


def test_root_node_is_added_and_shown_in_the_tree(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_root_create", args=[world.plan.number])

    response = client.post(url, {"root-name": "North site", "root-kind": "site"}, follow=True)

    assert StructureNode.objects.get(plan=world.plan, name="North site").parent is None
    assert 'data-node-id="' in response.content.decode()
    assert "North site" in response.content.decode()


def test_child_node_is_added_under_its_parent(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_child_create", args=[world.plan.number, world.site.pk])

    client.post(url, {"child-name": "Gym", "child-kind": "building", "child-install_year": "1990"})

    gym = StructureNode.objects.get(name="Gym")
    assert (gym.parent, gym.install_year) == (world.site, 1990)


def test_node_is_renamed(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_rename", args=[world.plan.number, world.component.pk])

    response = client.post(url, {"rename-name": "Flat roof"}, follow=True)

    world.component.refresh_from_db()
    assert world.component.name == "Flat roof"
    assert "Renamed to “Flat roof”." in response.content.decode()


def test_node_details_are_saved(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_details", args=[world.plan.number, world.component.pk])

    response = client.post(
        url,
        {
            "details-kind": "component",
            "details-quantity": "640",
            "details-unit": "m2",
            "details-install_year": "2001",
        },
        follow=True,
    )

    world.component.refresh_from_db()
    assert (world.component.quantity, world.component.unit, world.component.install_year) == (
        Decimal("640"),
        "m2",
        2001,
    )
    page = response.content.decode()
    assert "Quantity: 640.00 m2" in page and "Installed: 2001" in page


def test_move_into_own_subtree_shows_an_error(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_move", args=[world.plan.number, world.site.pk])

    response = client.post(url, {"move-parent": str(world.component.pk)})

    assert response.status_code == 200
    assert "cannot be moved under itself or one of its descendants" in response.content.decode()
    world.site.refresh_from_db()
    assert world.site.parent is None


def test_node_is_moved_to_the_top_level(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_move", args=[world.plan.number, world.component.pk])

    response = client.post(url, {"move-parent": ""})

    assert response.status_code == 302
    world.component.refresh_from_db()
    assert world.component.parent is None


@pytest.mark.usefixtures("starter_catalog")
def test_code_is_assigned_from_the_catalog(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_code", args=[world.plan.number, world.component.pk])

    response = client.post(url, {"code-code": "363.2"}, follow=True)

    world.component.refresh_from_db()
    assert world.component.code is not None and world.component.code.code == "363.2"
    assert "Flat roof waterproofing, bitumen membrane" in response.content.decode()


def test_unknown_code_shows_an_error(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_code", args=[world.plan.number, world.component.pk])

    response = client.post(url, {"code-code": "999.9"})

    assert response.status_code == 200
    assert "No catalog code matches" in response.content.decode()
    world.component.refresh_from_db()
    assert world.component.code is None


@pytest.mark.usefixtures("starter_catalog")
def test_catalog_search_lists_matching_codes(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_detail", args=[world.plan.number, world.component.pk])

    page = client.get(url, {"q": "elevator"}).content.decode()

    assert 'data-code="461.1"' in page
    assert 'data-code="334.1"' not in page


def test_delete_asks_for_confirmation_then_removes_the_subtree(
    client: Client, world: World
) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_delete", args=[world.plan.number, world.site.pk])

    confirmation = client.get(url).content.decode()
    assert "1 node below it" in confirmation and "1 action" in confirmation
    assert StructureNode.objects.filter(plan=world.plan).count() == 2

    response = client.post(url)

    assert response.status_code == 302
    assert not StructureNode.objects.filter(plan=world.plan).exists()
    assert not Action.objects.filter(plan=world.plan).exists()


# --- actions --------------------------------------------------------------------------------


def test_action_is_added_and_listed(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:action_create", args=[world.plan.number])

    response = client.post(
        url,
        {
            "action-node": str(world.component.pk),
            "action-title": "Replace membrane",
            "action-kind": "replacement",
            "action-planned_year": "2032",
            "action-estimated_cost": "51200.50",
        },
        follow=True,
    )

    action = Action.objects.get(title="Replace membrane")
    assert (action.planned_year, action.estimated_cost) == (2032, Decimal("51200.50"))
    assert f'data-action-id="{action.pk}"' in response.content.decode()


def test_action_is_edited(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:action_edit", args=[world.plan.number, world.action.pk])
    assert "Fix roof" in client.get(url).content.decode()

    client.post(
        url,
        {
            "action-node": str(world.site.pk),
            "action-title": "Fix roof properly",
            "action-kind": "repair",
            "action-planned_year": "2033",
            "action-estimated_cost": "10",
        },
    )

    world.action.refresh_from_db()
    assert (world.action.title, world.action.node, world.action.planned_year) == (
        "Fix roof properly",
        world.site,
        2033,
    )


def test_action_is_cancelled(client: Client, world: World) -> None:
    client.force_login(world.owner.user)

    client.post(reverse("planning:action_cancel", args=[world.plan.number, world.action.pk]))

    world.action.refresh_from_db()
    assert world.action.status == "cancelled"


@pytest.mark.parametrize(
    ("verb", "status", "undo_path"),
    [("cancel", "cancelled", "reopen"), ("done", "done", "done/undo")],
)
def test_cancel_and_mark_done_offer_an_undo_that_reopens_the_action(
    client: Client, world: World, verb: str, status: str, undo_path: str
) -> None:
    client.force_login(world.owner.user)
    actions = reverse("planning:plan_actions", args=[world.plan.number])
    back = f"{actions}?year_from=2030&page=1"

    response = client.post(
        reverse(f"planning:action_{verb}", args=[world.plan.number, world.action.pk]),
        {"next": back},
        follow=True,
    )

    world.action.refresh_from_db()
    assert world.action.status == status
    page = response.content.decode()
    undo = re.search(r'<form method="post" action="([^"]+)" class="inline undo">', page)
    assert undo is not None and undo.group(1).endswith(f"/actions/{world.action.pk}/{undo_path}/")
    assert f'value="{back}"' in page.replace("&amp;", "&")
    undone = client.post(undo.group(1), {"next": back})
    assert undone["Location"] == back
    world.action.refresh_from_db()
    assert world.action.status == "planned"


def test_a_done_action_can_be_reopened_from_the_list(client: Client, world: World) -> None:
    world.action.status = "done"
    world.action.save()
    client.force_login(world.owner.user)

    page = client.get(reverse("planning:plan_actions", args=[world.plan.number])).content
    reopen = reverse("planning:action_reopen", args=[world.plan.number, world.action.pk])

    assert f'action="{reopen}"' in page.decode()
    client.post(reopen)
    world.action.refresh_from_db()
    assert world.action.status == "planned"


def test_actions_table_filters_by_subtree_and_year(client: Client, world: World) -> None:
    other_site = StructureNodeFactory.create(plan=world.plan, kind="site")
    ActionFactory.create(node=other_site, title="Paint fence", planned_year=2030)
    ActionFactory.create(node=world.component, title="Later roof work", planned_year=2035)
    client.force_login(world.owner.user)
    url = reverse("planning:plan_actions", args=[world.plan.number])

    by_node = client.get(url, {"node": str(world.site.pk)}).content.decode()
    by_year = client.get(url, {"year_from": "2030", "year_to": "2030"}).content.decode()
    both = client.get(url, {"node": str(world.site.pk), "year_from": "2035"}).content.decode()

    assert "Fix roof" in by_node and "Later roof work" in by_node
    assert "Paint fence" not in by_node
    assert "Fix roof" in by_year and "Paint fence" in by_year
    assert "Later roof work" not in by_year
    assert "Later roof work" in both and "Fix roof" not in both


# --- garbage input --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "params",
    [
        {"node": "not-a-uuid"},
        {"node": "00000000-0000-0000-0000-000000000000"},
        {"building": str(uuid.uuid4())},
        {"year_from": "soon"},
        {"year_to": "99999999999999999999"},
        {"year_from": "-5"},
        {"kind": "mend"},
        {"status": "lost"},
        {"project": "nope"},
        {"sort": "-colour"},
        {"q": "x" * 300},
    ],
)
def test_garbage_filters_are_reported_not_a_500(
    client: Client, world: World, params: dict[str, str]
) -> None:
    client.force_login(world.owner.user)

    response = client.get(reverse("planning:plan_actions", args=[world.plan.number]), params)

    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert "Fix roof" in response.content.decode()  # the unfiltered table is shown


@pytest.mark.parametrize(
    "data",
    [
        {},
        {"action-node": "garbage", "action-title": "x" * 500, "action-kind": "nope"},
        {
            "action-node": "00000000-0000-0000-0000-000000000000",
            "action-title": "T",
            "action-kind": "repair",
            "action-planned_year": "1800",
            "action-estimated_cost": "-3",
        },
        {
            "action-title": "T",
            "action-kind": "repair",
            "action-planned_year": "99999999999999999999",
            "action-estimated_cost": "1e400",
        },
        {"action-estimated_cost": "NaN", "action-planned_year": "2030.5"},
        {"action-estimated_cost": "123456789012345678901234567890"},
    ],
)
def test_garbage_action_input_shows_errors(
    client: Client, world: World, data: dict[str, str]
) -> None:
    client.force_login(world.owner.user)

    response = client.post(reverse("planning:action_create", args=[world.plan.number]), data)

    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert Action.objects.count() == 1


@pytest.mark.parametrize(
    ("name", "data"),
    [
        ("node_root_create", {"root-name": "", "root-kind": "castle"}),
        ("node_root_create", {"root-name": "A", "root-kind": "site", "root-quantity": "-1"}),
        ("node_root_create", {"root-name": "A", "root-kind": "site", "root-install_year": "x"}),
        ("node_child_create", {"child-name": "A" * 300, "child-kind": "site"}),
        ("node_rename", {"rename-name": "  "}),
        ("node_details", {"details-kind": "component", "details-quantity": "-2"}),
        ("node_details", {"details-kind": "moon", "details-install_year": "1066"}),
        ("node_move", {"move-parent": "garbage"}),
        ("node_code", {"code-code": ""}),
        ("action_edit", {"action-planned_year": "soon"}),
        ("members_add", {"add-email": "not an email", "add-role": "king"}),
    ],
)
def test_garbage_form_input_shows_errors(
    client: Client, world: World, name: str, data: dict[str, str]
) -> None:
    client.force_login(world.owner.user)
    before = _state(world)

    response = client.post(_urls(world)[name][1], data)

    assert response.status_code == 200
    assert 'class="error"' in response.content.decode()
    assert _state(world) == before


def test_wrong_method_is_405(client: Client, world: World) -> None:
    client.force_login(world.owner.user)

    response = client.get(_urls(world)["action_cancel"][1])

    assert response.status_code == 405


# --- members --------------------------------------------------------------------------------


def test_owner_invites_a_guest_who_accepts_and_gets_the_grant(
    client: Client, world: World, mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    person = UserFactory.create(email="colleague@example.com")
    client.force_login(world.owner.user)

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            _urls(world)["members_add"][1],
            {"add-email": "colleague@example.com", "add-role": "editor"},
            follow=True,
        )
    assert "Invitation sent to colleague@example.com as editor" in response.content.decode()
    link = re.search(r"(/invitations/[\w-]+/)", mailoutbox[0].body)
    assert link is not None
    client.force_login(person)
    client.get(link.group(1))
    client.post("/invitations/accept/")

    assert PlanMembership.objects.get(plan=world.plan, user=person).role == "editor"


def test_inviting_a_guest_answers_alike_for_an_unknown_email(client: Client, world: World) -> None:
    UserFactory.create(email="known@example.com")
    client.force_login(world.owner.user)
    url = _urls(world)["members_add"][1]

    known = client.post(url, {"add-email": "known@example.com", "add-role": "viewer"})
    unknown = client.post(url, {"add-email": "ghost@example.com", "add-role": "viewer"})

    assert known.status_code == unknown.status_code == 302
    assert "No account" not in client.get(url).content.decode()
    assert world.plan.memberships.count() == 1


def test_owner_sets_a_role_and_removes_a_member(client: Client, world: World) -> None:
    member = PlanMembershipFactory.create(plan=world.plan, role=PlanRole.VIEWER)
    client.force_login(world.owner.user)
    n = world.plan.number

    client.post(
        reverse("planning:member_role_set", args=[n, member.pk]), {f"m{member.pk}-role": "editor"}
    )
    member.refresh_from_db()
    assert member.role == "editor"

    client.post(reverse("planning:member_remove", args=[n, member.pk]))
    assert not PlanMembership.objects.filter(pk=member.pk).exists()


def test_a_guest_owner_who_demotes_themselves_loses_the_guests_page(
    client: Client, world: World
) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:member_role_set", args=[world.plan.number, world.owner.pk])

    response = client.post(url, {f"m{world.owner.pk}-role": "viewer"})

    assert response.status_code == 302
    world.owner.refresh_from_db()
    assert world.owner.role == "viewer"
    assert client.post(reverse("planning:members", args=[world.plan.number])).status_code == 403


# --- import upload --------------------------------------------------------------------------

SMALL_PLAN_JSON = b"""{
  "name": "Uploaded school",
  "nodes": [
    {"ref": "S", "parent_ref": null, "name": "School site", "kind": "site"},
    {"ref": "R", "parent_ref": "S", "name": "Roof", "kind": "component", "code": "363.2"}
  ],
  "actions": [
    {"node_ref": "R", "title": "Replace membrane", "kind": "replacement",
     "planned_year": 2030, "estimated_cost": 5000}
  ]
}"""


def _upload(name: str, content: bytes) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return SimpleUploadedFile(name, content)


def _import_posted_and_run(client: Client, captured: Any, data: dict[str, Any]) -> Any:
    """Posts the import form, runs the job it enqueued (as the worker would) and opens the
    import's page."""
    with captured(execute=True):
        response = client.post(reverse("planning:plan_import"), data)
    assert response.status_code == 302
    assert response["Location"].startswith("/plans/imports/")
    assert run_queued_jobs() == 1
    return client.get(response["Location"])


@pytest.mark.usefixtures("starter_catalog")
def test_json_plan_is_imported_through_the_upload_form(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    client.force_login(user)

    response = _import_posted_and_run(
        client,
        django_capture_on_commit_callbacks,
        {"import-plan_file": _upload("plan.json", SMALL_PLAN_JSON), "import-name": ""},
    )

    plan = Plan.objects.get(name="Uploaded school")
    assert response.status_code == 302
    assert response["Location"] == reverse("planning:plan_detail", args=[plan.number])
    assert plan.organisation == user.personal_organisation
    page = client.get(f"{response['Location']}?q=roof").content.decode()
    actions = client.get(reverse("planning:plan_actions", args=[plan.number])).content.decode()
    assert "Roof" in page and "363.2" in page and "Replace membrane" in actions


@pytest.mark.usefixtures("starter_catalog")
def test_rejected_import_lists_every_problem_and_writes_nothing(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    bad = SMALL_PLAN_JSON.replace(b'"363.2"', b'"000.0"').replace(b"2030", b"1500")
    client.force_login(user)

    response = _import_posted_and_run(
        client, django_capture_on_commit_callbacks, {"import-plan_file": _upload("p.json", bad)}
    )

    page = response.content.decode()
    assert response.status_code == 200
    assert 'id="import-problems"' in page
    assert "node 2" in page and "code" in page
    assert "action 1" in page and "planned_year" in page
    assert "The file was not imported: 2 problems" in page
    assert not Plan.objects.exists()


@pytest.mark.usefixtures("starter_catalog")
def test_csv_pair_is_imported_through_the_upload_form(
    client: Client, user: Any, django_capture_on_commit_callbacks: Any
) -> None:
    nodes = b"ref,parent_ref,name,kind,code,quantity,unit,install_year\nS1,,Depot,site,,,,\n"
    actions = (
        b"node_ref,title,kind,planned_year,estimated_cost,status\nS1,Check,inspection,2029,100,\n"
    )
    client.force_login(user)

    response = _import_posted_and_run(
        client,
        django_capture_on_commit_callbacks,
        {
            "import-name": "Depot plan",
            "import-nodes_csv": _upload("nodes.csv", nodes),
            "import-actions_csv": _upload("actions.csv", actions),
        },
    )

    plan = Plan.objects.get(name="Depot plan")
    assert response.status_code == 302
    assert list(plan.actions.values_list("title", flat=True)) == ["Check"]


@pytest.mark.parametrize(
    ("files", "message"),
    [
        ({}, "Choose a plan file (Excel, CSV or JSON), or both CSV files."),
        ({"import-nodes_csv": b"ref\n"}, "A CSV import needs both nodes.csv and actions.csv."),
        (
            {"import-plan_file": b"{}", "import-nodes_csv": b"ref\n"},
            "Upload either a plan file or the CSV pair, not both.",
        ),
    ],
)
def test_incomplete_upload_is_explained(
    client: Client, user: Any, files: dict[str, bytes], message: str
) -> None:
    client.force_login(user)
    data = {name: _upload(name + ".x", content) for name, content in files.items()}

    response = client.post(reverse("planning:plan_import"), data)

    assert response.status_code == 200
    assert message in response.content.decode()
    assert not Plan.objects.exists()


def test_oversized_upload_is_refused(client: Client, user: Any, settings: Any) -> None:
    settings.IMPORT_MAX_BYTES = 10
    client.force_login(user)

    response = client.post(
        reverse("planning:plan_import"), {"import-plan_file": _upload("p.json", SMALL_PLAN_JSON)}
    )

    assert response.status_code == 200
    assert "too large" in response.content.decode()
    assert not Plan.objects.exists()


def test_plan_page_links_to_action_planning(client: Client, world: World) -> None:
    client.force_login(world.owner.user)

    page = client.get(reverse("planning:plan_detail", args=[world.plan.number])).content.decode()

    assert f'href="/plans/{world.plan.number}/planning/"' in page


def _tree_nesting(page: str) -> dict[str, str | None]:
    """node id -> id of the <li> it is nested in, read from the #structure list."""
    from html.parser import HTMLParser

    class TreeParser(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.stack: list[str | None] = []
            self.parents: dict[str, str | None] = {}

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "li":
                node_id = dict(attrs).get("data-node-id")
                if node_id:
                    self.parents[node_id] = next((i for i in reversed(self.stack) if i), None)
                self.stack.append(node_id)

        def handle_endtag(self, tag: str) -> None:
            if tag == "li":
                self.stack.pop()

    parser = TreeParser()
    parser.feed(page[page.index('id="structure"') : page.index('id="add-root"')])
    assert parser.stack == []  # every <li> was closed
    return parser.parents


def test_structure_opens_down_to_the_buildings_with_subtree_counts(
    client: Client, world: World
) -> None:
    building = StructureNodeFactory.create(plan=world.plan, parent=world.site, kind="building")
    deep = StructureNodeFactory.create(plan=world.plan, parent=building, name="Deep")
    deeper = StructureNodeFactory.create(plan=world.plan, parent=deep, name="Deeper")
    second_site = StructureNodeFactory.create(plan=world.plan, kind="site", name="Second")
    client.force_login(world.owner.user)

    page = client.get(reverse("planning:plan_detail", args=[world.plan.number])).content.decode()

    assert _tree_nesting(page) == {
        str(world.site.pk): None,
        str(building.pk): str(world.site.pk),
        str(world.component.pk): str(world.site.pk),
        str(second_site.pk): None,
    }
    assert "Deep" not in page  # below a building: closed until asked for
    assert "4 below" in page and "2 below" in page  # the site, the building
    assert f'data-children-url="/plans/{world.plan.number}/nodes/{building.pk}/children/"' in page
    fragment = client.get(
        reverse("planning:node_children", args=[world.plan.number, building.pk])
    ).content.decode()
    assert f'data-node-id="{deep.pk}"' in fragment and "1 below" in fragment
    assert f'data-node-id="{deeper.pk}"' not in fragment


def test_actions_table_is_paged_and_keeps_the_filters(client: Client, world: World) -> None:
    for i in range(120):
        ActionFactory.create(node=world.component, title=f"Bulk {i:03d}", planned_year=2040)
    client.force_login(world.owner.user)
    url = reverse("planning:plan_actions", args=[world.plan.number])

    first = client.get(url, {"year_from": "2040"}).content.decode()
    third = client.get(url, {"year_from": "2040", "page": "3"}).content.decode()
    garbage = client.get(url, {"page": "lots"})

    assert first.count('<tr data-action-id="') == 50
    assert third.count('<tr data-action-id="') == 20
    assert "120 actions" in first and "Page 1 of 3" in first
    assert "?year_from=2040&amp;page=2" in first
    assert garbage.status_code == 200 and "Page 1 of 3" in garbage.content.decode()


def test_actions_total_is_the_planned_cost_of_the_listed_actions_years(
    client: Client, world: World
) -> None:
    year = timezone.localdate().year
    world.action.planned_year = year + 1
    world.action.save()
    ActionFactory.create(node=world.component, planned_year=year, estimated_cost=Decimal("500.00"))
    ActionFactory.create(
        node=world.component, planned_year=year, interval_years=4, estimated_cost=Decimal("10.00")
    )
    ActionFactory.create(
        node=world.component, planned_year=year, estimated_cost=Decimal("70.00"), status="cancelled"
    )
    ActionFactory.create(node=world.component, planned_year=year + 10, estimated_cost=Decimal("9"))
    client.force_login(world.owner.user)
    url = reverse("planning:plan_actions", args=[world.plan.number])

    page = client.get(url).content.decode()
    one_year = client.get(url, {"year_from": year, "year_to": year}).content.decode()

    total = re.search(r'id="actions-total">([^<]*)<', page)
    # 1000 + 500 + 10 in Y, Y+4 and Y+8; not the cancelled 70 nor what comes after Y+9.
    assert total is not None and total.group(1) == "1,530.00\xa0EUR"
    assert f"planned cost {year}\u2013{year + 9}, today's prices" in page
    total = re.search(r'id="actions-total">([^<]*)<', one_year)
    assert total is not None and total.group(1) == "510.00\xa0EUR"
    assert f"planned cost {year}, today's prices" in one_year


def test_reversed_years_on_the_actions_tab_are_a_message_not_a_500(
    client: Client, world: World
) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:plan_actions", args=[world.plan.number])

    response = client.get(url, {"year_from": "2030", "year_to": "2020"})

    assert response.status_code == 200
    assert "The last year comes before the first." in response.content.decode()


@pytest.mark.usefixtures("starter_catalog")
def test_node_page_searches_the_catalog_only_when_asked(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:node_detail", args=[world.plan.number, world.component.pk])

    visit = client.get(url).content.decode()
    search = client.get(url, {"q": "membrane"}).content.decode()

    assert "363.2" not in visit and 'id="code-results"' not in visit
    assert '<details id="assign-code">' in visit  # closed until opened
    assert 'tr data-code="363.2"' in search and '<details id="assign-code" open>' in search


def test_node_page_lists_its_own_actions_and_open_suggestions(client: Client, world: World) -> None:
    from planning.suggestions.sync.run import suggestion_sync

    ActionFactory.create(node=world.site, title="Fence", planned_year=2031)
    suggestion_sync(plan=world.plan)
    client.force_login(world.owner.user)

    page = client.get(
        reverse("planning:node_detail", args=[world.plan.number, world.component.pk])
    ).content.decode()

    own = page[page.index('id="node-actions"') : page.index('id="node-suggestions"')]
    assert "Fix roof" in own and "Fence" not in own
    suggestions = page[page.index('id="node-suggestions"') :]
    assert "Assign a classification code to “Old roof”" in suggestions


@pytest.mark.parametrize("page_name", ["plan_detail", "node_detail"])
def test_page_query_count_does_not_grow_with_the_plan(
    client: Client, world: World, page_name: str
) -> None:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.force_login(world.owner.user)
    url = _urls(world)[page_name][1]
    client.get(url)
    with CaptureQueriesContext(connection) as small:
        client.get(url)
    building = StructureNodeFactory.create(plan=world.plan, parent=world.site, kind="building")
    for i in range(30):
        node = StructureNodeFactory.create(plan=world.plan, parent=building, code=None)
        ActionFactory.create(node=node, title=f"Work {i}")
    with CaptureQueriesContext(connection) as large:
        response = client.get(url)

    assert response.status_code == 200
    assert len(large) == len(small)


def test_member_lookups_are_limited_per_owner(client: Client, world: World, settings: Any) -> None:
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "member_add": "3/hour",
    }
    client.force_login(world.owner.user)
    url = _urls(world)["members_add"][1]
    guesses = [f"guess{n}@example.com" for n in range(4)]

    answers = [client.post(url, {"add-email": g, "add-role": "viewer"}) for g in guesses]

    assert [a.status_code for a in answers] == [302, 302, 302, 429]
    refused = answers[-1].content.decode()
    assert "Too many invitations sent" in refused
    assert int(answers[-1]["Retry-After"]) > 0
    # Another plan of the same owner shares the limit.
    other = PlanMembershipFactory.create(user=world.owner.user, role=PlanRole.OWNER)
    again = client.post(
        reverse("planning:members", args=[other.plan.number]),
        {"add-email": "x@example.com", "add-role": "viewer"},
    )
    assert again.status_code == 429


def test_the_plan_list_groups_the_digits_of_its_counts(client: Client, world: World) -> None:
    from planning.models import Action as ActionModel

    ActionModel.objects.bulk_create(
        [ActionFactory.build(node=world.component, plan=world.plan) for _ in range(1_234)]
    )
    client.force_login(world.owner.user)

    page = client.get(reverse("planning:plan_list")).content.decode()

    row = re.search(rf'<tr data-plan-number="{world.plan.number}">(.*?)</tr>', page, re.S)
    assert row is not None and ">1,235<" in row.group(1)


def test_a_new_project_is_created_on_the_projects_tab(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    url = reverse("planning:project_list", args=[world.plan.number])

    refused = client.post(url, {"new-name": "", "new-year": "2031"})
    response = client.post(url, {"new-name": "Facade 2031", "new-year": "2031"})

    assert refused.status_code == 400 and "This field is required." in refused.content.decode()
    project = Project.objects.get(plan=world.plan, name="Facade 2031")
    assert project.year == 2031
    assert response["Location"] == reverse(
        "planning:project_detail", args=[world.plan.number, project.pk]
    )


def test_a_viewer_sees_no_new_project_form_and_cannot_post_one(
    client: Client, world: World
) -> None:
    viewer = PlanMembershipFactory.create(plan=world.plan, role=PlanRole.VIEWER)
    client.force_login(viewer.user)
    url = reverse("planning:project_list", args=[world.plan.number])

    assert "New project" not in client.get(url).content.decode()
    assert client.post(url, {"new-name": "X", "new-year": "2031"}).status_code == 403


def test_mark_done_returns_to_the_row_it_was_pressed_on(client: Client, world: World) -> None:
    client.force_login(world.owner.user)
    page = client.get(
        reverse("planning:plan_actions", args=[world.plan.number]) + "?page=1"
    ).content.decode()
    form = re.search(rf'actions/{world.action.pk}/done/".*?name="next" value="([^"]+)"', page, re.S)
    assert form is not None

    response = client.post(
        reverse("planning:action_done", args=[world.plan.number, world.action.pk]),
        {"next": form.group(1).replace("&amp;", "&")},
    )

    assert response.status_code == 302
    assert response["Location"].endswith(f"?page=1#action-{world.action.pk}")

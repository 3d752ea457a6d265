from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from organisations.invitations import InvitationInvalid, invitation_accept, invitation_create
from planning.models import Action, ActionStatus, Plan, PlanMembership, PlanRole, StructureNode
from planning.plans.services.actions import (
    action_cancel,
    action_create,
    action_mark_done,
    action_update,
)
from planning.plans.services.grants import guest_invite, membership_remove, membership_role_set
from planning.plans.services.nodes import (
    node_code_assign,
    node_code_clear,
    node_create,
    node_delete,
    node_details_update,
    node_move,
    node_rename,
)
from planning.plans.services.plans import plan_delete
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


# --- tree invariants ------------------------------------------------------------------------


def test_node_is_created_under_a_parent_of_the_same_plan() -> None:
    site = StructureNodeFactory.create(kind="site")

    building = node_create(plan=site.plan, parent=site, name=" House A ", kind="building")

    assert (building.parent, building.plan, building.name) == (site, site.plan, "House A")


def test_parent_in_another_plan_is_refused() -> None:
    foreign_parent = StructureNodeFactory.create()
    plan = PlanFactory.create()

    with pytest.raises(ValidationError) as raised:
        node_create(plan=plan, parent=foreign_parent, name="Roof", kind="component")

    assert "another plan" in raised.value.message_dict["parent"][0]
    assert not StructureNode.objects.filter(plan=plan).exists()


def test_move_under_a_node_of_another_plan_is_refused() -> None:
    node = StructureNodeFactory.create()
    foreign_parent = StructureNodeFactory.create()

    with pytest.raises(ValidationError):
        node_move(node=node, parent=foreign_parent)

    node.refresh_from_db()
    assert node.parent is None


def test_move_under_itself_is_refused() -> None:
    node = StructureNodeFactory.create()

    with pytest.raises(ValidationError) as raised:
        node_move(node=node, parent=node)

    assert "descendants" in raised.value.message_dict["parent"][0]


def test_move_under_a_descendant_is_refused_as_a_cycle() -> None:
    site = StructureNodeFactory.create(kind="site")
    building = StructureNodeFactory.create(plan=site.plan, parent=site, kind="building")
    component = StructureNodeFactory.create(plan=site.plan, parent=building)

    with pytest.raises(ValidationError):
        node_move(node=site, parent=component)

    site.refresh_from_db()
    assert site.parent is None


def test_move_to_another_branch_and_to_the_top_level() -> None:
    site = StructureNodeFactory.create(kind="site")
    other_site = StructureNodeFactory.create(plan=site.plan, kind="site")
    building = StructureNodeFactory.create(plan=site.plan, parent=site, kind="building")

    node_move(node=building, parent=other_site)
    building.refresh_from_db()
    assert building.parent == other_site

    node_move(node=building, parent=None)
    building.refresh_from_db()
    assert building.parent is None


def test_delete_removes_the_whole_subtree_and_its_actions() -> None:
    site = StructureNodeFactory.create(kind="site")
    building = StructureNodeFactory.create(plan=site.plan, parent=site, kind="building")
    component = StructureNodeFactory.create(plan=site.plan, parent=building)
    ActionFactory.create(node=component)
    untouched = StructureNodeFactory.create(plan=site.plan, kind="site")
    kept_action = ActionFactory.create(node=untouched)

    deleted = node_delete(node=site)

    assert deleted == 3
    assert list(StructureNode.objects.filter(plan=site.plan)) == [untouched]
    assert list(Action.objects.all()) == [kept_action]


def test_unknown_node_kind_is_refused() -> None:
    plan = PlanFactory.create()

    with pytest.raises(ValidationError) as raised:
        node_create(plan=plan, name="Thing", kind="spaceship")

    assert "kind" in raised.value.message_dict


def test_blank_node_name_is_refused() -> None:
    node = StructureNodeFactory.create(name="Roof")

    with pytest.raises(ValidationError):
        node_rename(node=node, name="   ")

    node.refresh_from_db()
    assert node.name == "Roof"


def test_install_year_out_of_range_is_refused() -> None:
    with pytest.raises(ValidationError) as raised:
        node_create(plan=PlanFactory.create(), name="Boiler", kind="component", install_year=1200)

    assert "install_year" in raised.value.message_dict


def test_code_is_assigned_and_cleared() -> None:
    node = StructureNodeFactory.create()
    code = CodeFactory.create()

    node_code_assign(node=node, code=code)
    node.refresh_from_db()
    assert node.code == code

    node_code_clear(node=node)
    node.refresh_from_db()
    assert node.code is None


def test_node_beyond_the_plan_limit_is_refused_and_not_written(settings: Any) -> None:
    settings.PLAN_MAX_NODES = 2
    site = StructureNodeFactory.create(kind="site")
    StructureNodeFactory.create(plan=site.plan, parent=site)

    with pytest.raises(ValidationError) as raised:
        node_create(plan=site.plan, parent=site, name="Third", kind="component")

    assert raised.value.message_dict == {
        "nodes": ["A plan can hold at most 2 nodes; this one would have 3."]
    }
    assert StructureNode.objects.filter(plan=site.plan).count() == 2


def test_node_up_to_the_plan_limit_is_created(settings: Any) -> None:
    settings.PLAN_MAX_NODES = 2
    site = StructureNodeFactory.create(kind="site")

    node_create(plan=site.plan, parent=site, name="Second", kind="component")

    assert StructureNode.objects.filter(plan=site.plan).count() == 2


def test_node_limit_counts_only_the_plans_own_nodes(settings: Any) -> None:
    settings.PLAN_MAX_NODES = 1
    StructureNodeFactory.create()  # another plan's
    plan = PlanFactory.create()

    node = node_create(plan=plan, name="Only", kind="site")

    assert list(StructureNode.objects.filter(plan=plan)) == [node]


# --- actions --------------------------------------------------------------------------------


def test_action_beyond_the_plan_limit_is_refused_and_not_written(settings: Any) -> None:
    settings.PLAN_MAX_ACTIONS = 2
    node = StructureNodeFactory.create()
    ActionFactory.create_batch(2, node=node)

    with pytest.raises(ValidationError) as raised:
        action_create(plan=node.plan, node=node, title="Third", kind="repair", planned_year=2030)

    assert raised.value.message_dict == {
        "actions": ["A plan can hold at most 2 actions; this one would have 3."]
    }
    assert Action.objects.filter(plan=node.plan).count() == 2


def test_action_update_is_not_an_addition(settings: Any) -> None:
    settings.PLAN_MAX_ACTIONS = 1
    action = ActionFactory.create(title="Paint")

    action_update(
        action=action,
        node=action.node,
        title="Repaint",
        kind=action.kind,
        planned_year=action.planned_year,
        estimated_cost=action.estimated_cost,
        interval_years=None,
    )

    action.refresh_from_db()
    assert action.title == "Repaint"


def test_action_is_created_planned() -> None:
    node = StructureNodeFactory.create()

    action = action_create(
        plan=node.plan,
        node=node,
        title="Replace boiler",
        kind="replacement",
        planned_year=2031,
        estimated_cost=Decimal("12000.00"),
    )

    assert (action.status, action.plan, action.node) == ("planned", node.plan, node)


@pytest.mark.parametrize(
    ("field", "overrides"),
    [
        ("planned_year", {"planned_year": 1899}),
        ("planned_year", {"planned_year": 2201}),
        ("estimated_cost", {"estimated_cost": Decimal("-1")}),
        ("kind", {"kind": "demolition"}),
        ("title", {"title": ""}),
    ],
)
def test_invalid_action_values_are_refused(field: str, overrides: dict[str, Any]) -> None:
    node = StructureNodeFactory.create()
    values: dict[str, Any] = {
        "title": "Paint",
        "kind": "repair",
        "planned_year": 2030,
        "estimated_cost": Decimal("10"),
        **overrides,
    }

    with pytest.raises(ValidationError) as raised:
        action_create(plan=node.plan, node=node, **values)

    assert field in raised.value.message_dict
    assert not Action.objects.exists()


def test_action_on_a_node_of_another_plan_is_refused() -> None:
    plan = PlanFactory.create()
    foreign_node = StructureNodeFactory.create()

    with pytest.raises(ValidationError) as raised:
        action_create(plan=plan, node=foreign_node, title="X", kind="repair", planned_year=2030)

    assert "node" in raised.value.message_dict


def test_action_in_a_project_of_another_plan_is_refused() -> None:
    action = ActionFactory.create()
    foreign_project = ProjectFactory.create()

    with pytest.raises(ValidationError) as raised:
        action_update(
            action=action,
            node=action.node,
            title=action.title,
            kind=action.kind,
            planned_year=action.planned_year,
            estimated_cost=action.estimated_cost,
            interval_years=None,
            project=foreign_project,
        )

    assert "project" in raised.value.message_dict
    action.refresh_from_db()
    assert action.project is None


def test_action_update_changes_the_fields() -> None:
    action = ActionFactory.create()
    project = ProjectFactory.create(plan=action.plan)

    action_update(
        action=action,
        node=action.node,
        title="New title",
        kind="inspection",
        planned_year=2040,
        estimated_cost=Decimal("5.50"),
        interval_years=None,
        project=project,
    )

    action.refresh_from_db()
    assert (action.title, action.kind, action.planned_year, action.estimated_cost) == (
        "New title",
        "inspection",
        2040,
        Decimal("5.50"),
    )
    assert action.project == project


def test_action_is_cancelled_and_marked_done() -> None:
    first, second = ActionFactory.create(), ActionFactory.create()

    action_cancel(action=first)
    action_mark_done(action=second)

    first.refresh_from_db()
    second.refresh_from_db()
    assert (first.status, second.status) == (ActionStatus.CANCELLED, ActionStatus.DONE)


# --- memberships ----------------------------------------------------------------------------


def test_a_guest_invitation_accepted_by_its_address_makes_the_grant(
    mailoutbox: Any, django_capture_on_commit_callbacks: Any
) -> None:
    plan = PlanFactory.create()
    person = UserFactory.create(email="planner@example.com")

    with django_capture_on_commit_callbacks(execute=True):
        guest_invite(
            plan=plan, email="Planner@Example.com", role="editor", invited_by=UserFactory.create()
        )
    token = re.search(r"/invitations/([\w-]+)/", mailoutbox[0].body)
    assert token is not None
    invitation_accept(token=token.group(1), user=person)

    grant = PlanMembership.objects.get(plan=plan, user=person)
    assert grant.role == "editor"


def test_a_guest_invitation_keeps_the_higher_of_two_grants() -> None:
    grant = PlanMembershipFactory.create(role=PlanRole.EDITOR)

    _invitation, token = invitation_create(
        organisation=grant.plan.organisation,
        email=grant.user.email,
        invited_by=None,
        plan_id=grant.plan.pk,
        grant_role="viewer",
    )
    invitation_accept(token=token, user=grant.user)

    grant.refresh_from_db()
    assert grant.role == "editor"


def test_a_guest_invitation_to_a_deleted_plan_does_not_work() -> None:
    plan = PlanFactory.create()
    person = UserFactory.create()
    _invitation, token = invitation_create(
        organisation=plan.organisation,
        email=person.email,
        invited_by=None,
        plan_id=plan.pk,
        grant_role="viewer",
    )
    plan_delete(plan=plan)

    with pytest.raises(InvitationInvalid):
        invitation_accept(token=token, user=person)


def test_a_guest_is_invited_as_editor_or_viewer_only() -> None:
    with pytest.raises(ValidationError):
        guest_invite(
            plan=PlanFactory.create(), email="x@example.com", role="owner", invited_by=None
        )


def test_the_only_owner_grant_can_be_demoted_and_removed_the_organisation_keeps_the_plan() -> None:
    owner = PlanMembershipFactory.create(role=PlanRole.OWNER)

    membership_role_set(membership=owner, role=PlanRole.VIEWER)
    owner.refresh_from_db()
    assert owner.role == PlanRole.VIEWER
    membership_remove(membership=owner)

    assert not PlanMembership.objects.filter(pk=owner.pk).exists()
    assert Plan.objects.filter(pk=owner.plan_id).exists()


def test_an_owner_can_be_demoted_when_another_owner_remains() -> None:
    owner = PlanMembershipFactory.create(role=PlanRole.OWNER)
    PlanMembershipFactory.create(plan=owner.plan, role=PlanRole.OWNER)

    membership_role_set(membership=owner, role=PlanRole.EDITOR)

    owner.refresh_from_db()
    assert owner.role == PlanRole.EDITOR


# --- code catalog ---------------------------------------------------------------------------


@pytest.mark.usefixtures("starter_catalog")
def test_catalog_defaults_load_adds_only_missing_codes() -> None:
    from planning.catalog.services import code_catalog_defaults_load
    from planning.catalog.starter import STARTER_CATALOG
    from planning.models import Code

    Code.objects.filter(code="334.1").update(unit_cost=Decimal("999.00"))
    Code.objects.filter(code="421.1").delete()

    added = code_catalog_defaults_load()

    assert added == 1
    assert Code.objects.filter(is_default=True).count() == len(STARTER_CATALOG)
    assert Code.objects.get(code="334.1").unit_cost == Decimal("999.00")


def test_node_under_a_deleted_parent_is_refused() -> None:
    parent = StructureNodeFactory.create(kind="site")
    plan = parent.plan
    StructureNode.objects.filter(pk=parent.pk).delete()  # deleted by someone else meanwhile

    with pytest.raises(ValidationError) as raised:
        node_create(plan=plan, parent=parent, name="Orphan", kind="building")

    assert "no longer exists" in raised.value.message_dict["parent"][0]


def test_action_on_a_deleted_node_is_refused() -> None:
    node = StructureNodeFactory.create()
    plan = node.plan
    StructureNode.objects.filter(pk=node.pk).delete()

    with pytest.raises(ValidationError) as raised:
        action_create(plan=plan, node=node, title="T", kind="repair", planned_year=2030)

    assert "no longer exists" in raised.value.message_dict["node"][0]


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_two_concurrent_crossing_moves_never_make_a_cycle(requires_postgres: None) -> None:
    import threading

    from django.db import connection

    first = StructureNodeFactory.create(kind="site")
    second = StructureNodeFactory.create(plan=first.plan, kind="site")
    barrier = threading.Barrier(2)
    outcomes: list[str] = []

    def move(node_id: Any, parent_id: Any) -> None:
        try:
            node = StructureNode.objects.select_related("plan").get(pk=node_id)
            parent = StructureNode.objects.get(pk=parent_id)
            barrier.wait()
            node_move(node=node, parent=parent)
            outcomes.append("moved")
        except ValidationError:
            outcomes.append("refused")
        finally:
            connection.close()

    threads = [
        threading.Thread(target=move, args=(first.pk, second.pk)),
        threading.Thread(target=move, args=(second.pk, first.pk)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()

    assert sorted(outcomes) == ["moved", "refused"]
    parents = dict(StructureNode.objects.filter(plan=first.plan).values_list("id", "parent_id"))
    assert None in parents.values()  # one of the two is still a root: no cycle


def test_node_details_are_validated_and_saved() -> None:
    node = StructureNodeFactory.create(kind="component")

    with pytest.raises(ValidationError) as raised:
        node_details_update(
            node=node, kind="component", quantity=Decimal(-1), unit="", install_year=None
        )
    assert "quantity" in raised.value.message_dict

    node_details_update(
        node=node, kind="system", quantity=Decimal("12.5"), unit=" m ", install_year=1999
    )
    node.refresh_from_db()
    assert (node.kind, node.quantity, node.unit, node.install_year) == (
        "system",
        Decimal("12.50"),
        "m",
        1999,
    )

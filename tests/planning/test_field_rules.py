"""Each field rule is written once, on the model, and every way in refuses a bad value with the
same message: the page's form, the service, and the import (as a row-and-field problem)."""

from __future__ import annotations

import datetime
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from planning.models import Action, PlanMembership, PlanRole, PlanVersion, StructureNode
from planning.plans.services.actions import action_create, action_mark_done
from planning.plans.services.grants import membership_role_set
from planning.plans.services.nodes import node_create
from planning.plans.services.plans import plan_create
from planning.records.adoption import plan_adopt
from planning.transfer.imports.plan_document import plan_import_document
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.web.forms.actions import ActionDoneForm, ActionForm
from planning.web.forms.members import MemberRoleForm
from planning.web.forms.nodes import NodeCreateForm
from planning.web.forms.plans import PlanCreateForm
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

YEARS = "Enter a year between 1900 and 2200."
# Y as the code reads it (planning.models.fields.this_year): this year, UTC.
Y = timezone.now().year
NODE = {"name": "Roof", "kind": "component", "unit": "m2"}
ACTION = {"title": "Replace", "kind": "replacement", "planned_year": 2030, "estimated_cost": 10}

# (what, field, bad value, the one message)
RULES = [
    ("node", "name", "x" * 201, "Ensure this value has at most 200 characters (it has 201)."),
    ("node", "kind", "moon", "“moon” is not one of: site, building, system, component."),
    ("node", "quantity", Decimal("-1"), "Cannot be negative."),
    ("node", "unit", "u" * 21, "Ensure this value has at most 20 characters (it has 21)."),
    ("node", "install_year", 1899, YEARS),
    ("node", "install_year", 2201, YEARS),
    ("action", "title", "t" * 201, "Ensure this value has at most 200 characters (it has 201)."),
    ("action", "kind", "mend", "“mend” is not one of: inspection, repair, replacement."),
    (
        "action",
        "planned_year",
        Y - 51,
        f"Enter a planned year from {Y - 50} on (at most 50 years back).",
    ),
    (
        "action",
        "planned_year",
        Y + 101,
        f"Enter a planned year up to {Y + 100} (at most 100 years ahead).",
    ),
    (
        "action",
        "planned_year",
        1900,
        f"Enter a planned year from {Y - 50} on (at most 50 years back).",
    ),
    ("action", "estimated_cost", Decimal("-5"), "Cannot be negative."),
    (
        "action",
        "estimated_cost",
        Decimal("10000000000000"),
        "Ensure that there are no more than 12 digits before the decimal point.",
    ),
    ("plan", "name", "p" * 201, "Ensure this value has at most 200 characters (it has 201)."),
]


def _form_errors(what: str, field: str, value: Any, user: Any) -> list[str]:
    if what == "plan":
        form: Any = PlanCreateForm({"name": value})
    elif what == "node":
        form = NodeCreateForm({**NODE, field: value})
    else:
        plan = PlanFactory.create()
        node = StructureNodeFactory.create(plan=plan)
        form = ActionForm({**ACTION, "node": str(node.pk), field: value}, plan=plan)
    assert not form.is_valid()
    return list(form.errors[field])


def _service_errors(what: str, field: str, value: Any, user: Any) -> list[str]:
    with pytest.raises(ValidationError) as refused:
        if what == "plan":
            plan_create(owner=user, name=value)
        elif what == "node":
            node_create(plan=PlanFactory.create(), **{**NODE, field: value})
        else:
            node = StructureNodeFactory.create()
            action_create(plan=node.plan, node=node, **{**ACTION, field: value})
    return list(refused.value.message_dict[field])


def _import_problems(what: str, field: str, value: Any, user: Any) -> list[ImportProblem]:
    node, action = {"ref": "N1", **NODE}, {"node_ref": "N1", **ACTION}
    document: dict[str, Any] = {"name": "Imported", "nodes": [node], "actions": [action]}
    if what == "plan":
        document["name"] = value
    else:
        (node if what == "node" else action)[field] = value
    with pytest.raises(ImportRejected) as refused:
        plan_import_document(owner=user, document=document)
    return refused.value.problems


@pytest.mark.parametrize(("what", "field", "value", "message"), RULES)
def test_form_service_and_import_refuse_a_bad_value_with_the_same_message(
    what: str, field: str, value: Any, message: str, user: Any
) -> None:
    assert _form_errors(what, field, str(value), user) == [message]
    assert _service_errors(what, field, value, user) == [message]
    row, ref = {"plan": ("", ""), "node": ("node 1", "N1"), "action": ("action 1", "")}[what]
    assert _import_problems(what, field, value, user) == [ImportProblem(row, field, message, ref)]
    # Neither the refused service call nor the refused import wrote the node.
    assert not StructureNode.objects.filter(name="Roof").exists()


@pytest.mark.django_db
def test_a_role_outside_the_choices_gets_the_models_message_from_form_and_service() -> None:
    membership = PlanMembershipFactory.create()
    message = "“boss” is not one of: owner, editor, viewer."
    form = MemberRoleForm({"role": "boss"})
    assert not form.is_valid()
    assert form.errors["role"] == [message]
    with pytest.raises(ValidationError) as refused:
        membership_role_set(membership=membership, role="boss")
    assert refused.value.message_dict == {"role": [message]}
    assert PlanMembership.objects.get(pk=membership.pk).role == membership.role


def test_a_node_unit_longer_than_the_column_is_refused_not_cut(user: Any) -> None:
    plan = PlanFactory.create()
    with pytest.raises(ValidationError):
        node_create(plan=plan, name="Roof", kind="component", unit="u" * 21)
    assert not StructureNode.objects.filter(plan=plan).exists()


# --- bounds that move with the clock: docs/subsystems/money.md "Bounds of years and dates"
# Y and today as the code reads them: UTC.
TODAY = timezone.now().date()
TOO_EARLY_DATE = "Enter a date from 1950-01-01 on."


def _after_today(today: datetime.date = TODAY) -> str:
    return f"Enter a date no later than today ({today.isoformat()})."


@pytest.mark.django_db
def test_the_first_and_last_planned_years_and_dates_are_accepted() -> None:
    node = StructureNodeFactory.create()
    for year in (Y - 50, Y + 100):
        action = action_create(
            plan=node.plan, node=node, title="Edge", kind="repair", planned_year=year
        )
        action_mark_done(action=action, completed_on=datetime.date(1950, 1, 1))
    version = plan_adopt(plan=node.plan, name="Board", decided_on=TODAY)
    assert sorted(Action.objects.values_list("planned_year", flat=True)) == [Y - 50, Y + 100]
    assert version.decided_on == TODAY


@pytest.mark.django_db
def test_the_action_form_refuses_a_planned_year_out_of_bounds_on_the_page(client: Client) -> None:
    owner = PlanMembershipFactory.create(role=PlanRole.OWNER)
    node = StructureNodeFactory.create(plan=owner.plan, name="Roof")
    client.force_login(owner.user)
    url = reverse("planning:action_create", args=[owner.plan.number])
    for year, message in (
        (Y - 51, f"Enter a planned year from {Y - 50} on (at most 50 years back)."),
        (Y + 101, f"Enter a planned year up to {Y + 100} (at most 100 years ahead)."),
    ):
        response = client.post(
            url,
            {
                "action-node": str(node.pk),
                "action-title": "Replace",
                "action-kind": "replacement",
                "action-planned_year": str(year),
                "action-estimated_cost": "10",
            },
        )
        assert response.status_code == 200
        assert message in response.content.decode()
    assert not Action.objects.exists()


@pytest.mark.django_db
def test_mark_done_refuses_a_date_out_of_bounds_in_the_service() -> None:
    action = ActionFactory.create(planned_year=Y)
    for completed_on, message in (
        (datetime.date(1949, 12, 31), TOO_EARLY_DATE),
        (TODAY + datetime.timedelta(days=1), _after_today()),
    ):
        with pytest.raises(ValidationError) as refused:
            action_mark_done(action=action, completed_on=completed_on)
        assert refused.value.message_dict == {"completed_on": [message]}
    assert not action.completions.exists()


@pytest.mark.django_db
def test_adoption_refuses_a_decision_date_out_of_bounds() -> None:
    plan = PlanFactory.create()
    for decided_on, message in (
        (datetime.date(1800, 1, 1), TOO_EARLY_DATE),
        (TODAY + datetime.timedelta(days=1), _after_today()),
    ):
        with pytest.raises(ValidationError) as refused:
            plan_adopt(plan=plan, name="Board", decided_on=decided_on)
        assert refused.value.message_dict == {"decided_on": [message]}
    assert not PlanVersion.objects.exists()


@pytest.mark.django_db
def test_the_versions_tab_shows_why_a_decision_date_is_refused(client: Client) -> None:
    owner = PlanMembershipFactory.create(role=PlanRole.OWNER)
    client.force_login(owner.user)
    url = reverse("planning:plan_versions", args=[owner.plan.number])
    for decided_on, message in (
        ("1800-01-01", TOO_EARLY_DATE),
        ((TODAY + datetime.timedelta(days=1)).isoformat(), _after_today()),
    ):
        response = client.post(url, {"name": "Board", "decided_on": decided_on, "note": ""})
        assert response.status_code == 200
        assert message in response.content.decode()
    assert not PlanVersion.objects.exists()


@pytest.mark.django_db
def test_the_bounds_move_with_the_clock_in_a_running_process(time_machine: Any) -> None:
    """The form classes are made once per process; the limits are read on each use."""
    time_machine.move_to(datetime.datetime(2040, 1, 1, 0, 0, 5, tzinfo=datetime.UTC), tick=False)
    plan = PlanFactory.create()
    node = StructureNodeFactory.create(plan=plan)
    form = ActionForm({**ACTION, "node": str(node.pk), "planned_year": "1989"}, plan=plan)
    assert not form.is_valid()
    assert form.errors["planned_year"] == [
        "Enter a planned year from 1990 on (at most 50 years back)."
    ]
    planned_year = form["planned_year"].as_widget()
    assert 'min="1990"' in planned_year and 'max="2140"' in planned_year
    done = ActionDoneForm({"completed_on": "2040-01-02"})
    assert not done.is_valid()
    assert done.errors["completed_on"] == [_after_today(datetime.date(2040, 1, 1))]
    completed_on = done["completed_on"].as_widget()
    assert 'min="1950-01-01"' in completed_on and 'max="2040-01-01"' in completed_on

"""Each field rule is written once, on the model, and every way in refuses a bad value with the
same message: the page's form, the service, and the import (as a row-and-field problem)."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError

from planning import grants, services
from planning.forms import ActionForm, MemberRoleForm, NodeCreateForm, PlanCreateForm
from planning.importers import ImportProblem, ImportRejected, plan_import_document
from planning.models import PlanMembership, StructureNode
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory

YEARS = "Enter a year between 1900 and 2200."
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
    ("action", "planned_year", 1899, YEARS),
    ("action", "planned_year", 2201, YEARS),
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
            services.plan_create(owner=user, name=value)
        elif what == "node":
            services.node_create(plan=PlanFactory.create(), **{**NODE, field: value})
        else:
            node = StructureNodeFactory.create()
            services.action_create(plan=node.plan, node=node, **{**ACTION, field: value})
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
        grants.membership_role_set(membership=membership, role="boss")
    assert refused.value.message_dict == {"role": [message]}
    assert PlanMembership.objects.get(pk=membership.pk).role == membership.role


def test_a_node_unit_longer_than_the_column_is_refused_not_cut(user: Any) -> None:
    plan = PlanFactory.create()
    with pytest.raises(ValidationError):
        services.node_create(plan=plan, name="Roof", kind="component", unit="u" * 21)
    assert not StructureNode.objects.filter(plan=plan).exists()

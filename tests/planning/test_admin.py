from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from planning.models import Code, Suggestion
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(client: Client) -> Client:
    client.force_login(UserFactory.create(is_staff=True, is_superuser=True))
    return client


@pytest.mark.parametrize(
    "model", ["code", "plan", "structurenode", "action", "project", "suggestion"]
)
def test_admin_lists_and_change_pages_open(admin_client_: Client, model: str) -> None:
    action = ActionFactory.create()
    PlanMembershipFactory.create(plan=action.plan)
    project = ProjectFactory.create(plan=action.plan)
    coded = StructureNodeFactory.create(plan=action.plan, code=CodeFactory.create())
    suggestion_sync(plan=action.plan)  # the action's node has no code: a missing_code suggestion
    shown: dict[str, Any] = {
        "code": coded.code,
        "plan": action.plan,
        "structurenode": coded,
        "action": action,
        "project": project,
        "suggestion": Suggestion.objects.get(plan=action.plan),
    }

    response = admin_client_.get(reverse(f"admin:planning_{model}_changelist"))

    assert response.status_code == 200
    change_url = reverse(f"admin:planning_{model}_change", args=[shown[model].pk])
    change = admin_client_.get(change_url)
    assert change.status_code == 200
    assert change.context["original"] == shown[model]


def test_admin_edits_a_catalog_code(admin_client_: Client) -> None:
    code = Code.objects.create(code="X1", name="Thing", unit="m2", unit_cost=Decimal("5"))
    url = reverse("admin:planning_code_change", args=[code.pk])
    assert admin_client_.get(url).status_code == 200

    response = admin_client_.post(
        url,
        {
            "code": "X1",
            "name": "Thing",
            "unit": "m2",
            "unit_cost": "7.50",
            "service_life_years": "20",
            "keywords": "thing",
        },
    )

    assert response.status_code == 302
    code.refresh_from_db()
    assert (code.unit_cost, code.service_life_years) == (Decimal("7.50"), 20)


def test_admin_plan_page_shows_memberships_inline(admin_client_: Client) -> None:
    membership = PlanMembershipFactory.create()

    page = admin_client_.get(
        reverse("admin:planning_plan_change", args=[membership.plan.pk])
    ).content.decode()

    inline = page.partition('id="memberships-group"')[2]
    assert inline, "the memberships inline is not on the page"
    assert membership.user.email in inline

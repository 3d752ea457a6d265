"""The plan size limits in the web app: an addition or an upload beyond PLAN_MAX_NODES or
PLAN_MAX_ACTIONS is shown on the form it came from, and nothing is written."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from planning.models import Action, PlanMembership, PlanRole, StructureNode
from tests.conftest import run_queued_jobs
from tests.factories import ActionFactory, PlanMembershipFactory, StructureNodeFactory
from tests.planning.conftest import db_counts

pytestmark = pytest.mark.django_db


@pytest.fixture
def owner(client: Client) -> PlanMembership:
    membership = PlanMembershipFactory.create(role=PlanRole.OWNER)
    client.force_login(membership.user)
    return membership


def _error_shown(response: Any, message: str) -> None:
    assert response.status_code == 200
    assert f'<div class="errors" role="alert"><p>{message}</p></div>' in response.content.decode()


def test_top_level_node_beyond_the_limit_shows_the_error(
    client: Client, owner: PlanMembership, settings: Any
) -> None:
    settings.PLAN_MAX_NODES = 2
    StructureNodeFactory.create_batch(2, plan=owner.plan, kind="site")
    url = reverse("planning:node_root_create", args=[owner.plan.number])

    response = client.post(url, {"root-name": "North site", "root-kind": "site"})

    _error_shown(response, "A plan can hold at most 2 nodes; this one would have 3.")
    assert not StructureNode.objects.filter(name="North site").exists()


def test_child_node_beyond_the_limit_shows_the_error(
    client: Client, owner: PlanMembership, settings: Any
) -> None:
    settings.PLAN_MAX_NODES = 2
    site = StructureNodeFactory.create(plan=owner.plan, kind="site")
    StructureNodeFactory.create(plan=owner.plan, parent=site)
    url = reverse("planning:node_child_create", args=[owner.plan.number, site.pk])

    response = client.post(url, {"child-name": "Gym", "child-kind": "building"})

    _error_shown(response, "A plan can hold at most 2 nodes; this one would have 3.")
    assert StructureNode.objects.filter(plan=owner.plan).count() == 2


def test_action_beyond_the_limit_shows_the_error(
    client: Client, owner: PlanMembership, settings: Any
) -> None:
    settings.PLAN_MAX_ACTIONS = 2
    node = StructureNodeFactory.create(plan=owner.plan)
    ActionFactory.create_batch(2, node=node)
    url = reverse("planning:action_create", args=[owner.plan.number])

    response = client.post(
        url,
        {
            "action-node": str(node.pk),
            "action-title": "Replace membrane",
            "action-kind": "replacement",
            "action-planned_year": "2032",
            "action-estimated_cost": "100",
        },
    )

    _error_shown(response, "A plan can hold at most 2 actions; this one would have 3.")
    assert Action.objects.filter(plan=owner.plan).count() == 2


def test_upload_beyond_the_limit_lists_the_limit_and_writes_nothing(
    client: Client, owner: PlanMembership, settings: Any, django_capture_on_commit_callbacks: Any
) -> None:
    settings.PLAN_MAX_NODES = 2
    nodes = [{"ref": f"S{index}", "name": f"Site {index}", "kind": "site"} for index in range(3)]
    content = json.dumps({"name": "Too big", "nodes": nodes}).encode()
    before = db_counts()

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("planning:plan_import"),
            {"import-plan_file": SimpleUploadedFile("big.json", content)},
        )
    run_queued_jobs()
    response = client.get(response["Location"])

    page = response.content.decode()
    assert response.status_code == 200
    assert "The file was not imported: 1 problem," in page
    assert "<li>nodes: A plan can hold at most 2 nodes; this one has more.</li>" in page
    assert db_counts() == before

"""A change made in the web app enqueues a background sync of its plan; the worker runs it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from planning.models import NodeKind, Plan, PlanRole, Suggestion
from tests.factories import PlanFactory, PlanMembershipFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def plan_and_client(user: Any, client: Client) -> tuple[Plan, Client]:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    client.force_login(user)
    return plan, client


def _add_root(client: Client, plan: Plan, name: str) -> Any:
    return client.post(
        f"/plans/{plan.number}/nodes/add/",
        {"root-name": name, "root-kind": NodeKind.COMPONENT},
    )


def test_a_change_enqueues_a_sync_of_the_plan_a_few_seconds_later(
    plan_and_client: tuple[Plan, Client], django_capture_on_commit_callbacks: Any
) -> None:
    plan, client = plan_and_client
    before = timezone.now()
    with django_capture_on_commit_callbacks(execute=True):
        response = _add_root(client, plan, "Boiler")

    assert response.status_code == 302
    (job,) = DBTaskResult.objects.all()
    assert job.task_path == "planning.tasks.plan_sync"
    assert job.args_kwargs == {"args": [], "kwargs": {"plan_id": str(plan.pk)}}
    assert job.status == "READY"
    assert before + timedelta(seconds=4) <= job.run_after <= timezone.now() + timedelta(seconds=6)


def test_a_refused_change_enqueues_nothing(
    plan_and_client: tuple[Plan, Client], django_capture_on_commit_callbacks: Any
) -> None:
    plan, client = plan_and_client
    with django_capture_on_commit_callbacks(execute=True):
        response = _add_root(client, plan, "")

    assert response.status_code == 200
    assert not DBTaskResult.objects.exists()


# Committed for real: the worker closes its database connection after a run, as it should.
@pytest.mark.django_db(transaction=True)
def test_the_worker_runs_the_sync(plan_and_client: tuple[Plan, Client], settings: Any) -> None:
    settings.SYNC_AFTER_CHANGE_SECONDS = 0
    plan, client = plan_and_client
    _add_root(client, plan, "Boiler")

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
    assert Suggestion.objects.filter(plan=plan, suggestion_type="missing_code").count() == 1

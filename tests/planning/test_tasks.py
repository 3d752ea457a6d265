"""A change of a plan's data made in the web app enqueues one background sync of its plan,
after commit (planning.core.writes); a change of suggestions only (Dismiss, Restore, the API list's
own sync) enqueues none. The worker runs it."""

from __future__ import annotations

from datetime import timedelta
from decimal import Decimal
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone
from django_tasks_db.models import DBTaskResult

from planning.models import ActionKind, NodeKind, Plan, PlanRole, Suggestion
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

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


def _syncs_queued() -> list[str]:
    jobs = DBTaskResult.objects.filter(task_path="planning.tasks.plan_sync")
    return [job.args_kwargs["kwargs"]["plan_id"] for job in jobs]


@pytest.fixture
def synced(plan_and_client: tuple[Plan, Client]) -> dict[str, Any]:
    """The plan with a node lacking a code (missing_code) and an action 80 % over its
    reference (a cost deviation), synced."""
    plan, _client = plan_and_client
    code = CodeFactory.create(unit_cost=Decimal("100"))
    roof = StructureNodeFactory.create(plan=plan, name="Roof", code=code, quantity=Decimal(10))
    action = ActionFactory.create(
        node=roof, kind=ActionKind.REPLACEMENT, estimated_cost=Decimal("1800.00")
    )
    fan = StructureNodeFactory.create(plan=plan, name="Fan")
    suggestion_sync(plan=plan)
    return {
        "action": action,
        "missing": Suggestion.objects.get(plan=plan, structure_node=fan),
        "deviation": Suggestion.objects.get(plan=plan, fingerprint__startswith="deviation:cost"),
    }


@pytest.mark.parametrize("bulk", [False, True], ids=["one card", "ticked cards"])
def test_a_dismissal_in_the_web_app_enqueues_no_sync(
    plan_and_client: tuple[Plan, Client],
    synced: dict[str, Any],
    bulk: bool,
    django_capture_on_commit_callbacks: Any,
) -> None:
    plan, client = plan_and_client
    missing = synced["missing"]
    base = f"/plans/{plan.number}/planning/suggestions/"
    url, form = (
        (f"{base}dismiss/", {"suggestion": [str(missing.pk)]})
        if bulk
        else (f"{base}{missing.pk}/dismiss/", {})
    )

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {**form, "reason": "not_applicable"})

    assert response.status_code == 302
    missing.refresh_from_db()
    assert missing.status == "dismissed"
    assert _syncs_queued() == []


def test_a_restore_in_the_web_app_enqueues_no_sync(
    plan_and_client: tuple[Plan, Client],
    synced: dict[str, Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    plan, client = plan_and_client
    missing = synced["missing"]
    suggestions_dismiss(plan=plan, suggestion_ids=[missing.pk], user=None, reason="not_applicable")

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/plans/{plan.number}/planning/suggestions/{missing.pk}/restore/")

    assert response.status_code == 302
    missing.refresh_from_db()
    assert missing.status == "open"
    assert _syncs_queued() == []


def test_editing_an_action_in_the_web_app_enqueues_exactly_one_sync_after_commit(
    plan_and_client: tuple[Plan, Client],
    synced: dict[str, Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    plan, client = plan_and_client
    action = synced["action"]

    with django_capture_on_commit_callbacks() as callbacks:
        response = client.post(
            f"/plans/{plan.number}/actions/{action.pk}/edit/",
            {
                "action-node": str(action.node_id),
                "action-title": "New roof",
                "action-kind": action.kind,
                "action-planned_year": "2031",
                "action-estimated_cost": "1500.00",
            },
        )
    assert response.status_code == 302
    assert _syncs_queued() == []  # nothing before the commit
    for callback in callbacks:
        callback()

    assert _syncs_queued() == [str(plan.pk)]


def test_an_apply_in_the_web_app_enqueues_exactly_one_sync(
    plan_and_client: tuple[Plan, Client],
    synced: dict[str, Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    plan, client = plan_and_client
    deviation = synced["deviation"]

    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/plans/{plan.number}/planning/suggestions/{deviation.pk}/apply/", {"fix": "cost"}
        )

    assert response.status_code == 302
    deviation.refresh_from_db()
    assert deviation.resolution == "applied"
    assert _syncs_queued() == [str(plan.pk)]


def test_listing_suggestions_through_the_api_enqueues_no_sync(
    client: Client, api_user: Any, raw_key: str, django_capture_on_commit_callbacks: Any
) -> None:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=api_user, role=PlanRole.VIEWER)
    StructureNodeFactory.create(plan=plan)  # its sync opens a suggestion: a write

    with django_capture_on_commit_callbacks(execute=True):
        response = client.get(
            f"/api/v1/platform/plans/{plan.number}/suggestions",
            HTTP_AUTHORIZATION=f"Bearer {raw_key}",
        )

    assert response.status_code == 200
    assert response.json()["data"]["open_count"] == 1
    assert _syncs_queued() == []


# Committed for real: the worker closes its database connection after a run, as it should.
@pytest.mark.django_db(transaction=True)
def test_the_worker_runs_the_sync(plan_and_client: tuple[Plan, Client], settings: Any) -> None:
    settings.SYNC_AFTER_CHANGE_SECONDS = 0
    plan, client = plan_and_client
    _add_root(client, plan, "Boiler")

    call_command("db_worker", "--batch", "--no-startup-delay", verbosity=0)

    assert DBTaskResult.objects.get().status == "SUCCESSFUL"
    assert Suggestion.objects.filter(plan=plan, suggestion_type="missing_code").count() == 1


def test_another_accounts_first_import_and_report_run_before_an_accounts_second(
    django_capture_on_commit_callbacks: Any,
) -> None:
    from planning.models import PlanImport, PlanReport
    from planning.tasks import plan_import_enqueue, plan_report_enqueue
    from tests.factories import UserFactory

    busy, other = UserFactory.create(), UserFactory.create()
    now = timezone.now()
    imports = [
        PlanImport.objects.create(
            owner=owner,
            filename="p.json",
            content=b"{}",
            idempotency_key=f"form-{i}",
            created_at=now + timedelta(seconds=i),
        )
        for i, owner in enumerate((busy, busy, other))
    ]
    plan = PlanFactory.create()
    reports = [
        PlanReport.objects.create(
            plan=plan, requested_by=user, created_at=now + timedelta(seconds=i)
        )
        for i, user in enumerate((busy, busy, other))
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for upload in imports:
            plan_import_enqueue(import_id=upload.pk)
        for report in reports:
            plan_report_enqueue(report_id=report.pk)

    queued = [
        job.args_kwargs["kwargs"].get("import_id") or job.args_kwargs["kwargs"].get("report_id")
        for job in DBTaskResult.objects.ready()
    ]
    first, second, others = (str(row.pk) for row in imports)
    assert queued.index(others) < queued.index(second)
    first_report, second_report, other_report = (str(row.pk) for row in reports)
    assert queued.index(other_report) < queued.index(second_report)
    assert queued.index(first) < queued.index(second)
    assert queued.index(first_report) < queued.index(second_report)

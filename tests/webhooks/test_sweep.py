"""Events for a change made outside the app (raw SQL), with no list call and no queued sync:
the events process finds the plan with pending changes, syncs it and delivers the event
(docs/subsystems/sync.md "Changes from anywhere")."""

from __future__ import annotations

import threading
import time
import uuid
from decimal import Decimal
from typing import Any

import pytest
from django.db import connection

from planning.models import Action, Plan, PlanChange
from planning.suggestions.sync.run import suggestion_sync
from planning.tasks import pending_plans_sync
from tests.factories import ActionFactory, CodeFactory, PlanFactory, StructureNodeFactory
from tests.webhooks.conftest import Receiver
from tests.webhooks.factories import endpoint_for
from tests.webhooks.test_dispatcher import wait_for
from webhooks.dispatcher import Dispatcher

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.usefixtures("private_targets")]


def _plan_with_a_replacement(user: Any) -> tuple[Any, Action]:
    from organisations.selectors import personal_organisation

    organisation = personal_organisation(user=user)
    assert organisation is not None
    organisation.api_access_enabled = True  # webhooks follow API access
    organisation.save(update_fields=["api_access_enabled"])
    plan = PlanFactory.create(organisation=organisation)
    code = CodeFactory.create(unit_cost=Decimal("100.00"))
    roof = StructureNodeFactory.create(plan=plan, name="Roof", code=code, quantity=Decimal("10"))
    action = ActionFactory.create(
        plan=plan, node=roof, kind="replacement", planned_year=2030, estimated_cost=Decimal("1000")
    )
    suggestion_sync(plan=plan)
    return plan, action


def _raw_cost(action: Action, cost: str) -> None:
    action_id = action.pk.hex if connection.vendor == "sqlite" else action.pk
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE planning_action SET estimated_cost = %s WHERE id = %s", [cost, action_id]
        )


@pytest.mark.usefixtures("reads_take_no_lock")
def test_a_raw_sql_change_is_delivered_as_an_event_without_anyone_listing(
    user: Any, receiver: Receiver, settings: Any
) -> None:
    settings.PENDING_SYNC_SWEEP_SECONDS = 1
    plan, action = _plan_with_a_replacement(user)
    endpoint_for(user, url=receiver.url)
    dispatcher = Dispatcher(threads=2, interval=0.1, worker_id="test")
    runner = threading.Thread(target=dispatcher.run)
    runner.start()
    try:
        changed_at = time.monotonic()
        _raw_cost(action, "3000.00")  # 3x the reference: a critical cost deviation

        after = wait_for(lambda: receiver.changes(), within=30)
    finally:
        dispatcher.stopping.set()
        runner.join(timeout=15)

    assert not runner.is_alive()
    assert after < 30
    print(f"event {time.monotonic() - changed_at:.1f} s after the raw SQL change")
    (change, suggestion), *_ = receiver.changes()
    assert (change, suggestion["suggestion_type"], suggestion["severity"]) == (
        "opened",
        "deviation",
        "critical",
    )
    assert receiver.events()[0]["data"]["plan_number"] == plan.number


def test_the_sweep_syncs_only_plans_with_pending_changes(user: Any) -> None:
    plan, action = _plan_with_a_replacement(user)
    quiet, _ = _plan_with_a_replacement(user)
    _raw_cost(action, "3000.00")
    gone = PlanFactory.create()  # deleted with its rows left behind, as the admin's cascade does
    PlanChange.objects.create(plan_id=gone.pk, node_id=uuid.uuid4(), old_kind="component")
    Plan.objects.filter(pk=gone.pk).delete()
    mine = PlanChange.objects.filter(plan_id__in=[plan.pk, quiet.pk])
    assert set(mine.values_list("plan_id", flat=True)) == {plan.pk}

    assert pending_plans_sync() == 1

    assert not PlanChange.objects.filter(plan_id__in=[plan.pk, quiet.pk, gone.pk]).exists()
    assert plan.suggestions.filter(status="open", severity="critical").exists()
    assert pending_plans_sync() == 0
    assert not quiet.suggestions.exists()

"""The one write path (planning.core.writes): lock, write, raise data_version, one plan_changed
signal, and one sync queued after commit for data changes only."""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.db import transaction
from django_tasks_db.models import DBTaskResult

from planning.core.writes import plan_changed, plan_write
from planning.models import ActionKind, NodeKind, Plan, PlanRole, Suggestion
from planning.plans.services.grants import membership_role_set
from planning.plans.services.nodes import node_create, node_delete, node_move, node_rename
from planning.suggestions.services.apply import suggestion_apply_cost
from planning.suggestions.services.dismissal import suggestion_restore, suggestions_dismiss
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
def plan() -> Plan:
    return PlanFactory.create()


@pytest.fixture
def signals() -> Iterator[list[dict[str, Any]]]:
    """Every plan_changed sent during the test, as its keyword arguments."""
    sent: list[dict[str, Any]] = []

    def record(sender: Any, **kwargs: Any) -> None:
        kwargs.pop("signal")
        sent.append(kwargs)

    plan_changed.connect(record, dispatch_uid="test_writes")
    yield sent
    plan_changed.disconnect(dispatch_uid="test_writes")


def version(plan: Plan) -> int:
    return Plan.objects.values_list("data_version", flat=True).get(pk=plan.pk)


def syncs_queued() -> list[str]:
    jobs = DBTaskResult.objects.filter(task_path="planning.tasks.plan_sync")
    return [job.args_kwargs["kwargs"]["plan_id"] for job in jobs]


def _deviating_plan(plan: Plan) -> Suggestion:
    """A plan whose one action costs 1,800 against a reference of 1,000: a cost deviation."""
    code = CodeFactory.create(unit_cost=Decimal("100"))
    roof = StructureNodeFactory.create(plan=plan, name="Roof", code=code, quantity=Decimal(10))
    ActionFactory.create(node=roof, kind=ActionKind.REPLACEMENT, estimated_cost=Decimal("1800.00"))
    suggestion_sync(plan=plan)
    return Suggestion.objects.get(plan=plan, fingerprint__startswith="deviation:cost:")


def test_a_data_change_raises_the_version_and_queues_one_sync_after_commit(
    plan: Plan, signals: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    before = version(plan)

    with django_capture_on_commit_callbacks() as callbacks:
        node_create(plan=plan, name="Boiler", kind=NodeKind.COMPONENT)

    assert version(plan) == before + 1
    assert signals == [
        {"plan_id": plan.pk, "data_changed": True, "suggestion_changes": (), "first_sync": False}
    ]
    assert syncs_queued() == []  # not before the commit
    assert len(callbacks) == 1
    callbacks[0]()
    assert syncs_queued() == [str(plan.pk)]


def test_a_change_of_many_rows_queues_one_sync(
    plan: Plan, signals: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING)
    for _ in range(5):
        ActionFactory.create(node=StructureNodeFactory.create(plan=plan, parent=building))

    with django_capture_on_commit_callbacks(execute=True):
        deleted = node_delete(node=building)

    assert deleted == 6
    assert len(signals) == 1
    assert syncs_queued() == [str(plan.pk)]


def test_apply_is_one_change_one_signal_and_one_sync(
    plan: Plan, signals: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    deviation = _deviating_plan(plan)
    signals.clear()
    before = version(plan)

    with django_capture_on_commit_callbacks(execute=True):
        _, action, _ = suggestion_apply_cost(suggestion=deviation)

    assert action.estimated_cost == Decimal("1000.00")
    # action_update's own plan_write joined the Apply's.
    assert signals == [
        {
            "plan_id": plan.pk,
            "data_changed": True,
            "suggestion_changes": (("resolved", deviation.pk),),
            "first_sync": False,
        }
    ]
    assert version(plan) == before + 1
    assert syncs_queued() == [str(plan.pk)]


def test_dismiss_and_restore_raise_the_version_and_queue_no_sync(
    plan: Plan, signals: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    StructureNodeFactory.create_batch(2, plan=plan)
    suggestion_sync(plan=plan)
    ids = list(Suggestion.objects.filter(plan=plan).values_list("pk", flat=True))
    signals.clear()
    before = version(plan)

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        dismissed = suggestions_dismiss(
            plan=plan, suggestion_ids=ids, user=None, reason="not_applicable"
        )
        suggestion_restore(suggestion=dismissed[0])

    assert version(plan) == before + 2
    assert [s["data_changed"] for s in signals] == [False, False]
    assert sorted(signals[0]["suggestion_changes"]) == sorted(("dismissed", pk) for pk in ids)
    assert signals[1]["suggestion_changes"] == (("reopened", dismissed[0].pk),)
    assert callbacks == []
    assert syncs_queued() == []


def test_a_dismiss_that_finds_nothing_open_changes_nothing(
    plan: Plan, signals: list[dict[str, Any]]
) -> None:
    before = version(plan)

    assert suggestions_dismiss(plan=plan, suggestion_ids=[], user=None, reason="accepted") == []

    assert version(plan) == before
    assert signals == []


def test_the_sync_sends_its_changes_and_queues_no_sync(
    plan: Plan, signals: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    node = StructureNodeFactory.create(plan=plan)

    with django_capture_on_commit_callbacks() as callbacks:
        suggestion_sync(plan=plan)

    (suggestion,) = Suggestion.objects.filter(plan=plan, structure_node=node)
    assert signals == [
        {
            "plan_id": plan.pk,
            "data_changed": False,
            "suggestion_changes": (("opened", suggestion.pk),),
            "first_sync": True,  # the plan's first: the outbox may sum its changes up
        }
    ]
    assert callbacks == []


def test_a_sync_with_nothing_to_do_raises_no_version_and_sends_nothing(
    plan: Plan, signals: list[dict[str, Any]]
) -> None:
    StructureNodeFactory.create(plan=plan)
    suggestion_sync(plan=plan)
    signals.clear()
    before = version(plan)

    suggestion_sync(plan=plan)

    assert version(plan) == before
    assert signals == []


def test_a_rolled_back_change_queues_nothing_and_keeps_the_version(
    plan: Plan, django_capture_on_commit_callbacks: Any
) -> None:
    before = version(plan)

    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        node_create(plan=plan, name="Boiler", kind=NodeKind.COMPONENT)
        raise RuntimeError("the request failed after the change")

    assert callbacks == []
    assert syncs_queued() == []
    assert version(plan) == before


def test_a_refused_change_sends_nothing(plan: Plan, signals: list[dict[str, Any]]) -> None:
    elsewhere = StructureNodeFactory.create()  # another plan's node
    before = version(plan)

    with pytest.raises(ValidationError):
        node_create(plan=plan, name="Boiler", kind=NodeKind.COMPONENT, parent=elsewhere)

    assert signals == []
    assert version(plan) == before


def test_a_membership_change_takes_the_lock_but_changes_no_version(
    plan: Plan, signals: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    grant = PlanMembershipFactory.create(plan=plan, role=PlanRole.VIEWER)
    before = version(plan)

    with django_capture_on_commit_callbacks() as callbacks:
        membership_role_set(membership=grant, role=PlanRole.EDITOR)

    assert version(plan) == before
    assert signals == []
    assert callbacks == []


def test_an_inner_write_that_fails_leaves_the_outer_one_as_it_was(
    plan: Plan, signals: list[dict[str, Any]], django_capture_on_commit_callbacks: Any
) -> None:
    node = StructureNodeFactory.create(plan=plan)

    with (
        django_capture_on_commit_callbacks() as callbacks,
        plan_write(plan_id=plan.pk, data_changed=False) as outer,
    ):
        with pytest.raises(ValidationError):  # the node's own write: refused, joined nothing
            node_move(node=node, parent=node)
        with pytest.raises(RuntimeError), plan_write(plan_id=plan.pk, data_changed=True):
            raise RuntimeError("the inner write failed")
        outer.suggestions_changed([("dismissed", node.pk)])

    assert signals == [
        {
            "plan_id": plan.pk,
            "data_changed": False,
            "suggestion_changes": (("dismissed", node.pk),),
            "first_sync": False,
        }
    ]
    assert callbacks == []


def test_an_inner_write_in_a_block_the_caller_rolls_back_leaves_no_trace(
    plan: Plan, django_capture_on_commit_callbacks: Any
) -> None:
    node = StructureNodeFactory.create(plan=plan, name="Roof")
    before = version(plan)

    with (
        django_capture_on_commit_callbacks() as callbacks,
        plan_write(plan_id=plan.pk, data_changed=False),
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        node_rename(node=node, name="Attic")  # succeeds, then its block fails
        raise RuntimeError("the caller's block fails after the rename")

    node.refresh_from_db()
    assert node.name == "Roof"
    # no version raised and no sync queued for it (its receivers' writes rolled back with it)
    assert version(plan) == before and callbacks == []

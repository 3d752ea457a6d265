"""The write of a checked plan document: the plan, its nodes (parents first, each with its stored
path and building computed from its parent's: planning.tree), its actions and the completions of
their work done, in one transaction, with bulk inserts reported to the import's observer step
by step. The rows go in through `planning.core.writes.plan_write`, like every change of a plan's
data: its version is raised and a sync is queued on commit (a second chance should the job's
own first sync fail)."""

from __future__ import annotations

import logging
import uuid
from collections.abc import Iterable, Iterator, Mapping
from typing import Any, TypeVar

from django.db import connection, models, transaction
from django.utils import timezone

from accounts.actor import IMPORT, Actor, acting, current_actor
from accounts.models import User
from core.chunks import chunked
from organisations.models import Organisation
from planning.core import writes
from planning.core.actor import history_context, history_quiet
from planning.models import (
    Action,
    Completion,
    HistoryEntity,
    HistoryEntry,
    HistoryOperation,
    Plan,
    StructureNode,
)
from planning.plans.services.plans import plan_create
from planning.suggestions.sync.reconcile import SyncResult
from planning.suggestions.sync.run import suggestion_sync
from planning.transfer.imports.progress import PROGRESS_STEP, ImportObserver
from planning.transfer.imports.rows import ActionRow, NodeRow
from planning.tree.paths import child_fields

BULK_BATCH_SIZE = 1000
_M = TypeVar("_M", bound=models.Model)
logger = logging.getLogger(__name__)


def _parents_first(nodes: list[NodeRow]) -> list[NodeRow]:
    """The nodes ordered so that a parent always comes before its children (the tree has been
    checked: every parent exists and there is no cycle)."""
    children: dict[str | None, list[NodeRow]] = {}
    for node in nodes:
        children.setdefault(node.parent_ref, []).append(node)
    ordered: list[NodeRow] = []
    level = children.get(None, [])
    while level:
        ordered.extend(level)
        level = [child for node in level for child in children.get(node.ref, [])]
    return ordered


class _RowWriter:
    """Bulk inserts in steps of PROGRESS_STEP rows, reporting each step to the observer. The
    rows may be a generator, and are: a model instance costs about 1 KB, so 250,000 actions
    built at once held 250 MB (docs/subsystems/import-bounds.md)."""

    def __init__(self, *, total: int, observer: ImportObserver) -> None:
        self.total, self.done, self.observer = total, 0, observer

    def write(self, model: type[_M], rows: Iterable[_M]) -> None:
        for step in chunked(rows, PROGRESS_STEP):
            model._default_manager.bulk_create(step, batch_size=BULK_BATCH_SIZE)
            self.done += len(step)
            self.observer.written(self.done, self.total)


@transaction.atomic
def plan_document_write(
    *,
    owner: User,
    organisation: Organisation | None = None,
    name: str,
    nodes: list[NodeRow],
    actions: list[ActionRow],
    code_ids: dict[str, uuid.UUID],
    observer: ImportObserver,
    plan_fields: Mapping[str, Any] | None = None,
) -> Plan:
    actor = import_actor()
    # One entry for the whole import, below; its rows write none.
    with acting(actor), history_quiet(), history_context():
        plan = _plan_rows_write(
            owner=owner,
            organisation=organisation,
            name=name,
            nodes=nodes,
            actions=actions,
            code_ids=code_ids,
            observer=observer,
            plan_fields=plan_fields,
        )
    HistoryEntry.objects.create(
        plan_id=plan.pk,
        at=timezone.now(),
        actor_kind=actor.kind,
        actor_id=actor.id,
        actor_label=actor.label,
        entity=HistoryEntity.PLAN,
        entity_uuid=plan.pk,
        entity_label=plan.name[:300],
        operation=HistoryOperation.IMPORT,
        summary=f"Imported {len(nodes):,} nodes and {len(actions):,} actions",
    )
    observer.plan_written(plan)
    return plan


def import_actor() -> Actor:
    """Who an import's entry names: the import job's own actor, else an import by whoever
    runs it (a person, a command)."""
    actor = current_actor()
    if actor is not None and actor.kind == IMPORT:
        return actor
    by = f" by {actor.label}" if actor is not None and actor.label else ""
    return Actor(kind=IMPORT, label=f"import{by}")


def _plan_rows_write(
    *,
    owner: User,
    organisation: Organisation | None,
    name: str,
    nodes: list[NodeRow],
    actions: list[ActionRow],
    code_ids: dict[str, uuid.UUID],
    observer: ImportObserver,
    plan_fields: Mapping[str, Any] | None,
) -> Plan:
    # The plan fields were checked by the reader (the Plan model's rules); the currency, which
    # every import sets (the file's, or the one chosen), goes in with the plan's row.
    others = {field: value for field, value in (plan_fields or {}).items() if field != "currency"}
    plan = plan_create(
        owner=owner,
        name=name,
        organisation=organisation,
        currency=(plan_fields or {}).get("currency"),
    )
    with writes.plan_write(plan_id=plan.pk, data_changed=True):
        if others:
            for field, value in others.items():
                setattr(plan, field, value)
            plan.save(update_fields=list(others))
        # Ids chosen here let a child name its parent without reading the parent back.
        node_ids = {node.ref: uuid.uuid4() for node in nodes}
        completions = sum(action.completion is not None for action in actions)
        rows = _RowWriter(total=len(nodes) + len(actions) + completions, observer=observer)
        placed: dict[str, tuple[str, uuid.UUID | None]] = {}  # ref -> (path, building id)

        def node_rows() -> Iterator[StructureNode]:
            for node in _parents_first(nodes):
                parent_path, parent_building = (
                    placed[node.parent_ref] if node.parent_ref is not None else ("", None)
                )
                path, building_id = child_fields(
                    node_id=node_ids[node.ref],
                    kind=node.kind,
                    parent_id=node_ids[node.parent_ref] if node.parent_ref is not None else None,
                    parent_path=parent_path,
                    parent_building=parent_building,
                )
                placed[node.ref] = (path, building_id)
                yield StructureNode(
                    id=node_ids[node.ref],
                    plan=plan,
                    ref=node.ref,
                    parent_id=node_ids[node.parent_ref] if node.parent_ref is not None else None,
                    name=node.name,
                    kind=node.kind,
                    code_id=code_ids[node.code] if node.code is not None else None,
                    quantity=node.quantity,
                    unit=node.unit,
                    install_year=node.install_year,
                    address=node.address,
                    gross_floor_area_m2=node.gross_floor_area_m2,
                    year_built=node.year_built,
                    replacement_value=node.replacement_value,
                    condition_grade=node.condition_grade,
                    condition_assessed_on=node.condition_assessed_on,
                    condition_consequence=node.condition_consequence,
                    path=path,
                    building_id=building_id,
                )

        rows.write(StructureNode, node_rows())
        # The actions with work done get their ids here, for their completions to name.
        done: list[tuple[uuid.UUID, ActionRow]] = []

        def action_rows() -> Iterator[Action]:
            for action in actions:
                action_id = uuid.uuid4()
                if action.completion is not None:
                    done.append((action_id, action))
                yield Action(
                    id=action_id,
                    plan=plan,
                    node_id=node_ids[action.node_ref],
                    title=action.title,
                    kind=action.kind,
                    planned_year=action.planned_year,
                    estimated_cost=action.estimated_cost,
                    status=action.status,
                    interval_years=action.interval_years,
                )

        rows.write(Action, action_rows())
        rows.write(
            Completion,
            (
                Completion(
                    action_id=action_id,
                    completed_on=action.completion.completed_on,
                    planned_year=action.completion.planned_year,
                    estimated_cost=action.estimated_cost,
                    actual_cost=action.completion.actual_cost,
                )
                for action_id, action in done
                if action.completion is not None
            ),
        )
    return plan


ANALYZE_AFTER_ROWS = 10_000


def statistics_refresh(*, rows: int) -> None:
    """After an import of `rows` rows (10,000 or more), ANALYZE the tables it filled, once its
    transaction has committed: until autovacuum gets to them, PostgreSQL plans the first sync's
    and the planning page's joins on stale row counts (at 20,000 nodes the budget's join took
    0.31 s before, 0.15 s after; the recursive walk the stored buildings replaced, 110 s). The
    import job and the import commands (`import_plan`, `generate_plan`) call it, through
    `imported_plan_settle`."""
    if rows < ANALYZE_AFTER_ROWS or connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        for model in (StructureNode, Action):
            cursor.execute(f"ANALYZE {connection.ops.quote_name(model._meta.db_table)}")


def imported_plan_settle(*, plan: Plan, rows: int) -> SyncResult | None:
    """What every import does once its plan is written, the job and the import commands alike:
    fresh statistics (`statistics_refresh`), then the plan's first suggestion sync, so the
    plan's first page, list or export reads suggestions instead of deriving all of them. A
    failed sync is logged and the plan stays: its first list syncs it. Returns what the sync did
    (None when it failed)."""
    statistics_refresh(rows=rows)
    try:
        return suggestion_sync(plan=plan)
    except Exception:
        logger.exception("first sync of imported plan %s failed", plan.pk)
        return None


def synced_line(result: SyncResult | None) -> str:
    """How the import commands report the first sync: "37262 suggestions" or why there are none
    yet."""
    if result is None:
        return "first sync failed (logged; the plan's first list syncs it)"
    return f"{result.created} suggestions"

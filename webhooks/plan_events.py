"""Plan data events (`actions.*`, `nodes.*`, `projects.*`, `versions.adopted`), derived from
the plan's history entries (docs/adr/0017-plan-data-events-from-history.md).

The history triggers (planning.db) record every change of a plan's nodes, actions, projects and
completions, whatever path made it. `plan_data_changes_receive` listens to `plan_changed`
(sent inside the transaction of every service write and every sync) and, under the plan's lock
that the write holds, turns the entries written since the plan's mark (`PlanEventMark`) into
events, then advances the mark: so the events of a change commit or roll back with it, and a
change made outside the app (the admin, raw SQL) is sent with the plan's next write or sync.

Volume: the entries of one write make one event per type in the order the types first occur,
each with at most 100 changes (more changes, more events). An import writes one history entry of
its own and none per row, so it sends no plan data event (integrators re-read the lists).
An adopted version is no history entry: `version_adopted_receive` writes its event.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import timedelta
from decimal import Decimal
from typing import Any

from django.db.models import Subquery
from django.db.models.functions import Coalesce
from django.utils import timezone

from core.chunks import chunked
from planning.models import HistoryEntry, Plan
from planning.suggestions.selectors import iso_utc
from webhooks.events import deliveries_enqueue, event_body, event_id_generate
from webhooks.models import PlanEventMark, WebhookEvent
from webhooks.selectors import endpoints_covering_plan

MAX_CHANGES_PER_EVENT = 100
_TYPE_OF_ENTITY = {"action": "actions", "node": "nodes", "project": "projects"}
_VERB = {"create": "created", "update": "updated", "delete": "deleted"}
_HEX_UUID = re.compile(r"[0-9a-f]{32}")


# Decimal columns, written as the API writes them ("480.00"; the history keeps JSON numbers).
_DECIMAL_FIELDS = {"estimated_cost", "actual_cost", "quantity", "gross_floor_area_m2"}


def _value(name: str, value: Any) -> Any:
    """A field's value as the API's lists write it: ids with dashes (SQLite's history keeps 32
    hex digits), decimals as text with two places."""
    if name in _DECIMAL_FIELDS and isinstance(value, (int, float, str)) and value != "":
        return f"{Decimal(str(value)):.2f}"
    if isinstance(value, str) and _HEX_UUID.fullmatch(value):
        return f"{value[:8]}-{value[8:12]}-{value[12:16]}-{value[16:20]}-{value[20:]}"
    return value


def _event_type(entry: HistoryEntry) -> str | None:
    if entry.entity == "completion":
        return "actions.completed" if entry.operation == "create" else None
    group = _TYPE_OF_ENTITY.get(entry.entity)
    verb = _VERB.get(entry.operation)
    return f"{group}.{verb}" if group and verb else None


def _change(entry: HistoryEntry) -> dict[str, Any]:
    """One change of an event: the entity's id, when, who, and each field before and after."""
    completion = entry.entity == "completion"
    entity_id = entry.subject_uuid if completion else entry.entity_uuid
    fields = {
        name: {"before": _value(name, pair[0]), "after": _value(name, pair[1])}
        for name, pair in (entry.changes or {}).items()
    }
    return {
        "id": str(entity_id),
        **({"completion_id": entry.entity_int} if completion else {}),
        "at": iso_utc(entry.at),
        "actor": {"kind": entry.actor_kind, "label": entry.actor_label},
        "fields": fields,
    }


def _grouped(entries: Iterable[HistoryEntry]) -> dict[str, list[dict[str, Any]]]:
    """The changes by event type, the types in the order they first occur."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for entry in entries:
        event_type = _event_type(entry)
        if event_type is not None:
            groups.setdefault(event_type, []).append(_change(entry))
    return groups


def plan_data_changes_receive(sender: Any, *, plan_id: Any, **_: Any) -> None:
    """Receiver of `planning.core.writes.plan_changed` (inside the write, under its lock)."""
    plan_data_events_record(plan_id=plan_id)


def version_adopted_receive(sender: Any, *, plan_id: Any, version: Any, **_: Any) -> None:
    """Receiver of `planning.records.adoption.version_adopted`: one `versions.adopted` event,
    in the shape of the other plan data events (the version's fields after, none before)."""
    fields = {
        "number": version.number,
        "name": version.name,
        "decided_on": version.decided_on.isoformat(),
        "note": version.note,
        "total_cost": str(version.total_cost),
    }
    change = {
        "id": str(version.pk),
        "at": iso_utc(version.created_at),
        "actor": {
            "kind": "user" if version.adopted_by_id else "system",
            "label": version.adopted_by_label,
        },
        "fields": {name: {"before": None, "after": value} for name, value in fields.items()},
    }
    _events_write(plan_id=plan_id, groups={"versions.adopted": [change]})


def plan_data_events_record(*, plan_id: Any) -> int:
    """Writes the plan data events of the plan's history entries since its mark, queues them for
    the endpoints that cover the plan, and advances the mark; returns how many events. Call it
    under the plan's lock, inside the transaction of the change."""
    # The mark read inside the entries' query (none yet: from the first entry), written only
    # when it moves: one query per write with nothing new, two or three with.
    mark = PlanEventMark.objects.filter(pk=plan_id).values("history_id")[:1]
    entries = list(
        HistoryEntry.objects.filter(plan_id=plan_id, id__gt=Coalesce(Subquery(mark), 0))
        .exclude(operation="import")
        .order_by("id")
    )
    if not entries:
        return 0
    last = entries[-1].id
    if not PlanEventMark.objects.filter(pk=plan_id).update(history_id=last):
        PlanEventMark.objects.create(plan_id=plan_id, history_id=last)
    groups = _grouped(entries)
    if not groups:
        return 0
    return _events_write(plan_id=plan_id, groups=groups)


def _events_write(*, plan_id: Any, groups: dict[str, list[dict[str, Any]]]) -> int:
    plan_number = Plan.objects.filter(pk=plan_id).values_list("number", flat=True).get()
    now = timezone.now()
    events: list[WebhookEvent] = []
    for event_type, changes in groups.items():
        for chunk in chunked(changes, MAX_CHANGES_PER_EVENT):
            # A microsecond apart: the events API numbers events by (created_at, id), so the
            # events of one write are listed in the order they are delivered.
            created_at = now + timedelta(microseconds=len(events))
            event_id = event_id_generate()
            body = event_body(
                event_id=event_id,
                event_type=event_type,
                created_at=iso_utc(created_at),
                data={"plan_id": str(plan_id), "plan_number": plan_number, "changes": chunk},
            )
            events.append(
                WebhookEvent(
                    id=event_id,
                    event_type=event_type,
                    plan_id=plan_id,
                    created_at=created_at,
                    body=body,
                )
            )
    endpoints = list(endpoints_covering_plan(plan_id=plan_id))
    for event in WebhookEvent.objects.bulk_create(events):
        deliveries_enqueue(event=event, endpoints=endpoints)
    return len(events)

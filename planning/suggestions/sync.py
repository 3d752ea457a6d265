"""The suggestion sync (DESIGN.md "Sync"): reconciles the suggestions a plan's data calls for
with the stored ones.

Steps of `suggestion_sync`, all in one transaction:
1. Lock the plan row (`SELECT ... FOR UPDATE` on PostgreSQL; SQLite's IMMEDIATE transactions
   serialise writers anyway), so two syncs of one plan run one after the other.
2. Load nodes, actions, the code catalog and the plan's stored suggestions: four queries, as
   plain tuples, whatever the size of the plan.
3. Compute the wanted suggestions (`rules.wanted_suggestions`, pure) and reconcile by
   fingerprint:
   - wanted, none stored: create it, open;
   - wanted, stored open: update type/severity/title/body/node/recommended action in place when
     one of them changed (same id, same `created_at`);
   - wanted, stored dismissed: leave it (a dismissal is sticky);
   - wanted, stored resolved: reopen it (open, same id, resolution cleared, content refreshed);
   - stored open, not wanted: resolved with resolution `auto`.
4. Write with one bulk insert, one bulk update and one UPDATE for the auto-resolved rows, each
   only when it has rows. A run with nothing to change writes nothing at all.

Memo (PostgreSQL): after the lock, one query asks the database for a digest of every input of
the rules (the plan's nodes and actions, the code catalog) and of the plan's stored
suggestions. A sync that finds the digest it left behind last time has, by construction,
nothing to write and the same open list as then, so it takes that list from Django's cache
(Redis when configured) instead of loading and recomputing everything. The memo is keyed by
content, never by time, so it cannot go stale: any change to a node, an action, a code or a
suggestion (through any code path, even a raw UPDATE) changes the digest (see _DIGEST_SQL).
Without PostgreSQL (SQLite, development) every sync computes in full.

`Plan.last_synced_at` is the time of the last sync that changed a stored suggestion, or of the
first sync of the plan; an idempotent run leaves it alone (so that it, too, writes nothing).

The unique (plan, fingerprint) constraint is the backstop: should a concurrent writer slip past
the lock and insert a fingerprint first, the insert fails, the transaction (a savepoint when
nested) rolls back and the sync runs once more, now seeing the other writer's rows.
"""

from __future__ import annotations

import hashlib
import json
import logging
import time
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
from uuid import UUID, uuid4

from django.conf import settings
from django.core.cache import cache
from django.db import IntegrityError, connection, transaction
from django.db.models import F, TextField
from django.db.models.functions import Cast
from django.utils import timezone

from planning.models import (
    Action,
    Code,
    Plan,
    Resolution,
    Severity,
    StructureNode,
    Suggestion,
    SuggestionStatus,
)
from planning.suggestions import rules as rules_module
from planning.suggestions.rules import (
    ActionRecord,
    CodeRecord,
    NodeRecord,
    PlanData,
    Thresholds,
    WantedSuggestion,
    wanted_suggestions,
)

logger = logging.getLogger("maintplan.sync")

SEVERITY_RANK = {Severity.CRITICAL: 0, Severity.WARNING: 1, Severity.INFO: 2}
_CONTENT_FIELDS = (
    "suggestion_type",
    "severity",
    "title",
    "body",
    "structure_node",
    "recommended_action_json",
)
_BULK_UPDATE_FIELDS = [*_CONTENT_FIELDS, "status", "resolution", "resolved_at", "updated_at"]


# An open suggestion exactly as spec 2.3 lists it: ids as strings, `created_at` ISO 8601 UTC
# with microseconds and "Z" (fixed width, so it sorts as text). The API sends these as they
# are, the memo stores them as they are.
SuggestionPayload = dict[str, Any]


def iso_utc(value: datetime) -> str:
    return value.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


@dataclass(frozen=True, slots=True)
class SyncResult:
    created: int
    updated: int
    resolved: int
    reopened: int
    duration: float  # seconds
    open_suggestions: tuple[SuggestionPayload, ...]  # ordered: severity, created_at, id


def thresholds_from_settings() -> Thresholds:
    return Thresholds.from_settings(
        settings.SUGGESTION_COST_THRESHOLDS, settings.SUGGESTION_TIMING_THRESHOLDS
    )


def _ids(*names: str) -> list[Any]:
    """UUID columns as they are best read: PostgreSQL casts them to text itself, which spares
    building (and then printing) a Python UUID per value; elsewhere the ORM's UUIDs, which
    `str()` below turns into the same canonical text."""
    if connection.vendor == "postgresql":
        return [Cast(name, output_field=TextField()) for name in names]
    return list(names)


def plan_data_load(*, plan_id: UUID) -> PlanData:
    """The plan's nodes and actions and the code catalog as plain records (three queries)."""
    node_id_col, parent_col, code_col = _ids("id", "parent_id", "code_id")
    action_id_col, action_node_col, project_col = _ids("id", "node_id", "project_id")
    nodes = {
        str(node_id): NodeRecord(
            str(node_id),
            str(parent_id) if parent_id else None,
            name,
            kind,
            str(code_id) if code_id else None,
            quantity,
            install_year,
        )
        for node_id, parent_id, name, kind, code_id, quantity, install_year in (
            StructureNode.objects.filter(plan_id=plan_id)
            .order_by()
            .values_list(
                node_id_col, parent_col, "name", "kind", code_col, "quantity", "install_year"
            )
        )
    }
    actions = tuple(
        ActionRecord(
            str(action_id),
            str(node_id),
            kind,
            planned_year,
            estimated_cost,
            status,
            str(project_id) if project_id else None,
        )
        for action_id, node_id, kind, planned_year, estimated_cost, status, project_id in (
            Action.objects.filter(plan_id=plan_id)
            .order_by()
            .values_list(
                action_id_col,
                action_node_col,
                "kind",
                "planned_year",
                "estimated_cost",
                "status",
                project_col,
            )
        )
    )
    catalog = Code.objects.order_by().values_list(
        "id", "code", "name", "unit", "unit_cost", "service_life_years", "keywords"
    )
    codes = {
        str(code_id): CodeRecord(str(code_id), code, name, unit, unit_cost, life, keywords)
        for code_id, code, name, unit, unit_cost, life, keywords in catalog
    }
    return PlanData(nodes=nodes, actions=actions, codes=codes)


# Every row version in PostgreSQL has a distinct (ctid, xmin): an UPDATE writes a new version
# at a new place (the old one cannot be reclaimed while its transaction runs) stamped with the
# writing transaction, and a DELETE or INSERT changes the set of ids. So the ids with their
# (ctid, xmin) change whenever any column changes, without reading the columns. A VACUUM FULL
# moves rows and changes the digest too, which only costs one full sync.
_DIGEST_SQL = """
SELECT
  (SELECT md5(string_agg(n.id::text || n.ctid::text || n.xmin::text, ',' ORDER BY n.id))
   FROM {node} n WHERE n.plan_id = %(plan)s),
  (SELECT md5(string_agg(a.id::text || a.ctid::text || a.xmin::text, ',' ORDER BY a.id))
   FROM {action} a WHERE a.plan_id = %(plan)s),
  (SELECT md5(string_agg(c.id::text || c.ctid::text || c.xmin::text, ',' ORDER BY c.id))
   FROM {code} c),
  (SELECT md5(string_agg(s.id::text || s.ctid::text || s.xmin::text, ',' ORDER BY s.id))
   FROM {suggestion} s WHERE s.plan_id = %(plan)s)
"""
# The rules and this module are inputs too: a deployment that changes a title must not be
# answered from a memo (in Redis) written by the previous code.
_CODE_DIGEST = hashlib.sha256(
    Path(rules_module.__file__).read_bytes() + Path(__file__).read_bytes()
).hexdigest()
MEMO_SECONDS = 24 * 3600


_INSERT_SQL = """
INSERT INTO {suggestion} (
    id, plan_id, fingerprint, suggestion_type, severity, title, body, structure_node_id,
    recommended_action_json, created_at, updated_at, status, resolution, resolved_at,
    dismiss_reason, dismiss_comment, dismissed_at, dismissed_by_id)
SELECT v.id, %(plan)s, v.fingerprint, v.suggestion_type, v.severity, v.title, v.body,
    v.structure_node_id, v.recommended_action_json, %(now)s, %(now)s, %(open)s, '', NULL,
    '', '', NULL, NULL
FROM jsonb_to_recordset(%(rows)s::jsonb) AS v(
    id uuid, fingerprint text, suggestion_type text, severity text, title text, body text,
    structure_node_id uuid, recommended_action_json jsonb)
"""


def suggestions_insert(
    new: list[tuple[UUID, WantedSuggestion]], *, plan_id: UUID, now: datetime
) -> None:
    """Inserts new open suggestions in one statement.

    On PostgreSQL the rows travel as one JSON parameter: Django's bulk_create prepares every
    field of every row in Python and psycopg then escapes each value into arrays, which for a
    few thousand suggestions costs about a second. Other databases use bulk_create.
    """
    if connection.vendor != "postgresql":
        Suggestion.objects.bulk_create(
            _with_content(
                Suggestion(
                    id=suggestion_id,
                    plan_id=plan_id,
                    fingerprint=want.fingerprint,
                    status=SuggestionStatus.OPEN,
                    created_at=now,
                    updated_at=now,
                ),
                want,
            )
            for suggestion_id, want in new
        )
        return
    rows = [
        {
            "id": str(suggestion_id),
            "fingerprint": want.fingerprint,
            "suggestion_type": str(want.suggestion_type),
            "severity": str(want.severity),
            "title": want.title,
            "body": want.body,
            "structure_node_id": want.structure_node_id,
            "recommended_action_json": want.recommended_action_json,
        }
        for suggestion_id, want in new
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            _INSERT_SQL.format(suggestion=Suggestion._meta.db_table),
            {
                "rows": json.dumps(rows),
                "plan": plan_id,
                "now": now,
                "open": SuggestionStatus.OPEN.value,
            },
        )


_UPDATE_SQL = """
UPDATE {suggestion} AS s
SET suggestion_type = v.suggestion_type, severity = v.severity, title = v.title,
    body = v.body, structure_node_id = v.structure_node_id,
    recommended_action_json = v.recommended_action_json,
    status = %(open)s, resolution = '', resolved_at = NULL, updated_at = %(now)s
FROM jsonb_to_recordset(%(rows)s::jsonb) AS v(
    id uuid, suggestion_type text, severity text, title text, body text,
    structure_node_id uuid, recommended_action_json jsonb)
WHERE s.id = v.id
"""


def suggestions_reopen_or_update(suggestions: list[Suggestion], *, now: datetime) -> None:
    """Writes new content into existing rows and makes them open, in one statement.

    Django's bulk_update builds a CASE over every row for every column, which PostgreSQL
    evaluates in time quadratic in the number of rows (seconds for a thousand); a join against
    the rows passed as one JSON parameter is linear. Other databases use bulk_update.
    """
    if connection.vendor != "postgresql":
        Suggestion.objects.bulk_update(suggestions, _BULK_UPDATE_FIELDS)
        return
    rows = [
        {
            "id": str(s.id),
            "suggestion_type": s.suggestion_type,
            "severity": s.severity,
            "title": s.title,
            "body": s.body,
            "structure_node_id": str(s.structure_node_id),
            "recommended_action_json": s.recommended_action_json,
        }
        for s in suggestions
    ]
    with connection.cursor() as cursor:
        cursor.execute(
            _UPDATE_SQL.format(suggestion=Suggestion._meta.db_table),
            {"rows": json.dumps(rows), "open": SuggestionStatus.OPEN.value, "now": now},
        )


def plan_digest(*, plan_id: UUID, thresholds: Thresholds) -> str | None:
    """A digest of everything a sync of the plan reads, or None where the database cannot
    compute one (only PostgreSQL does)."""
    if connection.vendor != "postgresql":
        return None
    sql = _DIGEST_SQL.format(
        node=StructureNode._meta.db_table,
        action=Action._meta.db_table,
        code=Code._meta.db_table,
        suggestion=Suggestion._meta.db_table,
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, {"plan": plan_id})
        parts = cursor.fetchone()
    return ":".join([*(part or "-" for part in parts), repr(thresholds), _CODE_DIGEST])


def _memo_key(plan_id: UUID, digest: str) -> str:
    return f"suggestion-sync:{plan_id}:{hashlib.sha256(digest.encode()).hexdigest()}"


def suggestion_sync(*, plan: Plan) -> SyncResult:
    """Brings the plan's stored suggestions in line with its data; see the module docstring."""
    started = time.perf_counter()
    try:
        result = _sync_once(plan=plan, started=started)
    except IntegrityError:
        # Someone else stored one of our fingerprints first and has committed: go again.
        result = _sync_once(plan=plan, started=started)
    logger.info(
        "suggestion sync of plan %s: %s created, %s updated, %s resolved, %s reopened in %.1f ms",
        plan.number,
        result.created,
        result.updated,
        result.resolved,
        result.reopened,
        result.duration * 1000,
        extra={
            "plan_number": plan.number,
            "created_count": result.created,
            "updated_count": result.updated,
            "resolved_count": result.resolved,
            "reopened_count": result.reopened,
            "duration_ms": round(result.duration * 1000, 1),
            "open_count": len(result.open_suggestions),
        },
    )
    return result


def _open_suggestion(
    suggestion_id: UUID, created_at: datetime, wanted: WantedSuggestion
) -> SuggestionPayload:
    return {
        "id": str(suggestion_id),
        "suggestion_type": str(wanted.suggestion_type),
        "severity": str(wanted.severity),
        "title": wanted.title,
        "body": wanted.body,
        "structure_node_id": wanted.structure_node_id,
        "recommended_action_json": wanted.recommended_action_json,
        "created_at": iso_utc(created_at),
    }


def _with_content(suggestion: Suggestion, wanted: WantedSuggestion) -> Suggestion:
    suggestion.suggestion_type = wanted.suggestion_type
    suggestion.severity = wanted.severity
    suggestion.title = wanted.title
    suggestion.body = wanted.body
    suggestion.structure_node_id = UUID(wanted.structure_node_id)
    suggestion.recommended_action_json = wanted.recommended_action_json
    return suggestion


def _sync_once(*, plan: Plan, started: float) -> SyncResult:
    thresholds = thresholds_from_settings()
    with transaction.atomic():
        last_synced_at = (
            Plan.objects.select_for_update()
            .filter(pk=plan.pk)
            .values_list("last_synced_at", flat=True)
            .get()
        )
        digest = plan_digest(plan_id=plan.pk, thresholds=thresholds)
        if digest is not None and last_synced_at is not None:
            memo = cache.get(_memo_key(plan.pk, digest))
            if memo is not None:
                plan.last_synced_at = last_synced_at
                return SyncResult(
                    created=0,
                    updated=0,
                    resolved=0,
                    reopened=0,
                    duration=time.perf_counter() - started,
                    open_suggestions=tuple(memo),
                )
        wanted = wanted_suggestions(plan_data_load(plan_id=plan.pk), thresholds)
        stored = (
            Suggestion.objects.filter(plan_id=plan.pk)
            .order_by()
            .values_list(
                "id",
                "fingerprint",
                "status",
                "suggestion_type",
                "severity",
                "title",
                "body",
                "structure_node_id",
                "recommended_action_json",
                "created_at",
            )
        )
        now = timezone.now()
        seen: set[str] = set()
        to_create: list[tuple[UUID, WantedSuggestion]] = []
        to_update: list[Suggestion] = []
        to_resolve: list[UUID] = []
        open_suggestions: list[SuggestionPayload] = []
        reopened = 0
        for (
            suggestion_id,
            fingerprint,
            status,
            suggestion_type,
            severity,
            title,
            body,
            node_id,
            recommended,
            created_at,
        ) in stored:
            seen.add(fingerprint)
            want = wanted.get(fingerprint)
            if want is None:
                if status == SuggestionStatus.OPEN:
                    to_resolve.append(suggestion_id)
                continue
            if status == SuggestionStatus.DISMISSED:
                continue
            open_suggestions.append(_open_suggestion(suggestion_id, created_at, want))
            if status == SuggestionStatus.RESOLVED:
                reopened += 1
            elif (
                suggestion_type == want.suggestion_type
                and severity == want.severity
                and title == want.title
                and body == want.body
                and str(node_id) == want.structure_node_id
                and recommended == want.recommended_action_json
            ):
                continue
            to_update.append(
                _with_content(
                    Suggestion(
                        id=suggestion_id,
                        status=SuggestionStatus.OPEN,
                        resolution="",
                        resolved_at=None,
                        updated_at=now,
                    ),
                    want,
                )
            )
        for fingerprint, want in wanted.items():
            if fingerprint in seen:
                continue
            new_id = uuid4()
            to_create.append((new_id, want))
            open_suggestions.append(_open_suggestion(new_id, now, want))

        if to_create:
            suggestions_insert(to_create, plan_id=plan.pk, now=now)
        if to_update:
            suggestions_reopen_or_update(to_update, now=now)
        if to_resolve:
            Suggestion.objects.filter(pk__in=to_resolve).update(
                status=SuggestionStatus.RESOLVED,
                resolution=Resolution.AUTO,
                resolved_at=now,
                updated_at=now,
            )
        changed = bool(to_create or to_update or to_resolve)
        if changed or last_synced_at is None:
            Plan.objects.filter(pk=plan.pk).update(
                last_synced_at=now, suggestions_version=F("suggestions_version") + int(changed)
            )
            plan.last_synced_at = now
        else:
            plan.last_synced_at = last_synced_at

        open_suggestions.sort(
            key=lambda s: (SEVERITY_RANK[s["severity"]], s["created_at"], s["id"])
        )
        if digest is not None:
            if changed:
                digest = plan_digest(plan_id=plan.pk, thresholds=thresholds)
            # Keyed by content: even if this transaction rolled back, the entry would only
            # ever be found for exactly the state it describes.
            cache.set(
                _memo_key(plan.pk, digest),  # type: ignore[arg-type]
                open_suggestions,
                MEMO_SECONDS,
            )

    return SyncResult(
        created=len(to_create),
        updated=len(to_update) - reopened,
        resolved=len(to_resolve),
        reopened=reopened,
        duration=time.perf_counter() - started,
        open_suggestions=tuple(open_suggestions),
    )

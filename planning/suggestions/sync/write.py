"""Writes of the sync: new suggestions, new content or a reopening in place, auto-resolution.

On PostgreSQL the rows travel as one JSON parameter joined with `jsonb_to_recordset`: Django's
bulk_create prepares every field of every row in Python and bulk_update builds a CASE per
column over every row, which PostgreSQL evaluates in quadratic time (seconds for a thousand
rows); the join is linear. Other databases use bulk_create and bulk_update.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Sequence
from datetime import datetime
from uuid import UUID

import orjson
from django.db import connection

from core.chunks import IN_LIST_SIZE, chunked
from planning.models import Resolution, Suggestion, SuggestionStatus
from planning.suggestions.rules.records import WantedSuggestion

_CONTENT_FIELDS = (
    "suggestion_type",
    "severity",
    "title",
    "body",
    "structure_node",
    "recommended_action_json",
)
_BULK_UPDATE_FIELDS = [*_CONTENT_FIELDS, "status", "resolution", "resolved_at", "updated_at"]


def new_ids(count: int) -> list[UUID]:
    """`count` random (version 4) UUIDs, as `uuid4()` makes them, from one read of the system's
    random source rather than one per id."""
    random = os.urandom(16 * count)
    return [UUID(bytes=random[at : at + 16], version=4) for at in range(0, 16 * count, 16)]


def with_content(suggestion: Suggestion, wanted: WantedSuggestion) -> Suggestion:
    suggestion.suggestion_type = wanted.suggestion_type
    suggestion.severity = wanted.severity
    suggestion.title = wanted.title
    suggestion.body = wanted.body
    suggestion.structure_node_id = UUID(wanted.structure_node_id)
    suggestion.recommended_action_json = wanted.recommended_action_json
    return suggestion


_COPY_COLUMNS = (
    "id",
    "plan_id",
    "fingerprint",
    "suggestion_type",
    "severity",
    "title",
    "body",
    "structure_node_id",
    "recommended_action_json",
    "created_at",
    "updated_at",
    "status",
    "resolution",
    "dismiss_reason",
    "dismiss_comment",
)


_COPY_ROWS_PER_WRITE = 5000
# COPY's text format: these characters inside a value are written as backslash escapes (the
# ones psycopg's own Copy.write_row escapes).
_COPY_ESCAPES = str.maketrans(
    {"\\": "\\\\", "\b": "\\b", "\t": "\\t", "\n": "\\n", "\v": "\\v", "\f": "\\f", "\r": "\\r"}
)
_COPY_SPECIAL = re.compile(r"[\\\b\t\n\v\f\r]")


def _copy_texts(values: list[str]) -> list[str]:
    """`values` as fields of COPY's text format. One search over all of them tells whether any
    needs escaping (nearly never: 112,000 searches of one value each took 0.15 s of a first
    sync), and only then is each one escaped."""
    if not _COPY_SPECIAL.search("".join(values)):
        return values
    return [
        value.translate(_COPY_ESCAPES) if _COPY_SPECIAL.search(value) else value for value in values
    ]


def suggestions_insert(
    batches: Iterable[Sequence[WantedSuggestion]], *, plan_id: UUID, now: datetime
) -> list[UUID]:
    """Inserts new open suggestions, batch after batch, and returns their new ids in order.

    On PostgreSQL with COPY: Django's bulk_create prepares every field of every row in Python
    and psycopg then escapes each value into arrays, which for the 37,000 suggestions of a
    20,000-node plan costs seconds; COPY streams the rows. The one COPY stays open while
    `batches` yields, so the server stores each batch while the next is made (a plan's first
    sync derives each rule's suggestions as the previous rule's are stored): `batches` must not
    query the database. Other databases use bulk_create.
    """
    created: list[UUID] = []
    if connection.vendor != "postgresql":
        for batch in batches:
            ids = new_ids(len(batch))
            Suggestion.objects.bulk_create(
                with_content(
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
                for suggestion_id, want in zip(ids, batch, strict=True)
            )
            created.extend(ids)
        return created
    statement = f"COPY {Suggestion._meta.db_table} ({', '.join(_COPY_COLUMNS)}) FROM STDIN"
    # Every row shares its plan, times and closing columns; only the wanted content varies.
    moment = now.isoformat()
    middle = f"\t{plan_id}\t"
    tail = f"\t{moment}\t{moment}\t{SuggestionStatus.OPEN.value}\t\t\t\n"
    with connection.cursor() as cursor, cursor.cursor.copy(statement) as copy:
        for batch in batches:
            for some in chunked(batch, _COPY_ROWS_PER_WRITE):
                ids = new_ids(len(some))
                titles = _copy_texts([want.title for want in some])
                bodies = _copy_texts([want.body for want in some])
                recommended = _copy_texts(
                    [orjson.dumps(want.recommended_action_json).decode() for want in some]
                )
                copy.write(
                    "".join(
                        [
                            f"{suggestion_id}{middle}{want.fingerprint}\t{want.suggestion_type}"
                            f"\t{want.severity}\t{title}\t{body}\t{want.structure_node_id}"
                            f"\t{action}{tail}"
                            for suggestion_id, want, title, body, action in zip(
                                ids, some, titles, bodies, recommended, strict=True
                            )
                        ]
                    )
                )
                created.extend(ids)
    return created


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


def suggestions_resolve(suggestion_ids: list[UUID], *, now: datetime) -> None:
    """Open suggestions no longer wanted: resolved, resolution `auto`."""
    for chunk in chunked(suggestion_ids, IN_LIST_SIZE):
        Suggestion.objects.filter(pk__in=chunk).update(
            status=SuggestionStatus.RESOLVED,
            resolution=Resolution.AUTO,
            resolved_at=now,
            updated_at=now,
        )

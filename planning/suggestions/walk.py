"""A walk of the suggestion list a page at a time (docs/subsystems/integrator-api.md "Paging",
docs/adr/0018-walks-keep-their-order.md): keyset pages in the list order, every row at the
place it had when the walk began.

The order key (severity rank, created_at, id) of a row changes only when its severity does, and
only the sync changes a severity: each time, it records the move (`SuggestionMove`: the rank
the row had and the plan's data version the change started from, `moves_record`). A walk's
cursor carries the data version its first page was read at (in the same statement as the rows)
and the key of the last row it answered. A later page reads the rows after that key in today's
order, drops those moved since the walk began, and puts the moved ones back under the rank they
had then. So every row keeps one key for the whole walk and the keys only go up from page to
page:
- a row that stays open and matching for the whole walk comes exactly once, whatever happens
  to severities between the requests;
- a row that stops matching is left out from then on; one that starts matching (a new
  suggestion, a reopened one, a severity that now matches the filter) comes at most once: on a
  later page if its key is past the walk's position, not at all if it is behind it.

A page costs a page: an index range of `limit + 1` rows, the moves since the walk began (none,
usually) and the moved rows. Nothing lives in a process: the cursor and the database hold
everything, so a walk holds across processes, restarts and deploys without a shared cache.
A cursor older than WALK_SECONDS answers 410, as does one whose plan has had more than
MOVES_MAX moves since its walk began (a re-derivation of the whole plan under new rules):
starting again is then cheaper than carrying them.
"""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.db.models import F, Subquery
from django.db.models.fields.tuple_lookups import Tuple, TupleGreaterThan
from django.utils import timezone

from core.chunks import IN_LIST_SIZE, chunked
from planning.models import SEVERITY_RANKS, Plan, SuggestionMove
from planning.suggestions.selectors import (
    SuggestionFilters,
    SuggestionPayload,
    row_payload,
    rows_of,
    suggestions_open_queryset,
)

WALK_SECONDS = 60 * 60
# Moves are kept twice as long as a walk lasts: a walk needs every move since it began.
MOVES_KEPT = timedelta(seconds=2 * WALK_SECONDS)
MOVES_MAX = 10_000

WalkKey = tuple[int, datetime, uuid.UUID]


@dataclass(frozen=True, slots=True)
class WalkPosition:
    """Where the next page of a walk starts: after `key`, in the order of data version
    `version` (what the first page read), for a walk begun at `started` (seconds since the
    epoch)."""

    started: int
    version: int
    key: WalkKey


@dataclass(frozen=True, slots=True)
class WalkPage:
    suggestions: list[SuggestionPayload]
    next_position: WalkPosition | None


def _seconds() -> float:
    """Now, in seconds since the epoch (what a walk's age is counted in)."""
    return time.time()


class WalkExpired(Exception):
    """The walk is older than WALK_SECONDS, or its plan was reordered too much since."""


def moves_record(*, plan_id: Any, moves: list[tuple[uuid.UUID, str]]) -> None:
    """Records that these suggestions (id, severity before) of the plan change severity in the
    current write, which holds the plan's lock; and forgets the plan's moves no walk needs."""
    version = Plan.objects.filter(pk=plan_id).values_list("data_version", flat=True).get()
    now = timezone.now()
    SuggestionMove.objects.filter(plan_id=plan_id, created_at__lt=now - MOVES_KEPT).delete()
    SuggestionMove.objects.bulk_create(
        SuggestionMove(
            plan_id=plan_id,
            suggestion_id=suggestion_id,
            rank_before=SEVERITY_RANKS[severity],
            version_before=version,
            created_at=now,
        )
        for suggestion_id, severity in moves
    )


def _moves_since(*, plan: Plan, version: int) -> dict[uuid.UUID, int]:
    """The rank each suggestion moved since `version` had at `version` (its first move's)."""
    moves = (
        SuggestionMove.objects.filter(plan=plan, version_before__gte=version)
        .order_by("version_before", "id")
        .values_list("suggestion_id", "rank_before")
    )
    ranks: dict[uuid.UUID, int] = {}
    for count, (suggestion_id, rank) in enumerate(moves[: MOVES_MAX + 1]):
        if count == MOVES_MAX:
            raise WalkExpired
        ranks.setdefault(suggestion_id, rank)
    return ranks


def _key(rank: int, payload_row: tuple[Any, ...]) -> WalkKey:
    """The walk key of a row's payload part (see selectors.rows_of) under `rank`."""
    return (rank, payload_row[7], payload_row[0])


def suggestions_walk_page(
    *,
    plan: Plan,
    filters: SuggestionFilters | None = None,
    after: WalkPosition | None = None,
    limit: int,
) -> WalkPage:
    """Up to `limit` open suggestions matching `filters`, the first page or the one after
    `after` (see the module docstring); a page can hold fewer than `limit`. Raises WalkExpired."""
    queryset = suggestions_open_queryset(plan=plan, filters=filters)
    if after is None:
        # The plan's version and the rows in one statement: one snapshot on every database.
        version = Plan.objects.filter(pk=plan.pk).values("data_version")
        first = list(
            rows_of(
                queryset.annotate(walk_version=Subquery(version)), "walk_version", "severity_rank"
            )[: limit + 1]
        )
        page = [(_key(row[1], row[2:]), row[2:]) for row in first[:limit]]
        position = None
        if len(first) > limit:
            position = WalkPosition(
                started=int(_seconds()), version=int(first[0][0]), key=page[-1][0]
            )
        return WalkPage([row_payload(row) for _key_of_row, row in page], position)

    if _seconds() - after.started > WALK_SECONDS:
        raise WalkExpired
    later = queryset.filter(
        TupleGreaterThan(Tuple(F("severity_rank"), F("created_at"), F("id")), after.key),
        # Lets the expanded form of the tuple (SQLite) start an index range too.
        severity_rank__gte=after.key[0],
    )
    found = list(rows_of(later, "severity_rank")[: limit + 1])
    # Read after the rows: every move those rows may already show is among them.
    moved = _moves_since(plan=plan, version=after.version)
    # With more rows than a page, the rows in today's order are known up to the last one read.
    bound = _key(found[-1][0], found[-1][1:]) if len(found) > limit else None
    candidates = [(_key(row[0], row[1:]), row[1:]) for row in found if row[1] not in moved]
    # Only a moved row whose rank of then lies between the position's and the bound's can be on
    # this page: the others are not read (after a re-derivation, thousands each page).
    highest = bound[0] if bound is not None else max(moved.values(), default=0)
    reachable = [i for i, rank in moved.items() if after.key[0] <= rank <= highest]
    for chunk in chunked(reachable, IN_LIST_SIZE):
        for row in rows_of(queryset.filter(pk__in=chunk).order_by()):
            key = _key(moved[row[0]], row)
            if key > after.key and (bound is None or key <= bound):
                candidates.append((key, row))
    candidates.sort(key=lambda candidate: candidate[0])
    page = candidates[:limit]
    next_key = page[-1][0] if len(candidates) > limit else bound
    return WalkPage(
        [row_payload(row) for _key_of_row, row in page],
        WalkPosition(started=after.started, version=after.version, key=next_key)
        if next_key is not None
        else None,
    )

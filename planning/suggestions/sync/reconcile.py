"""Reconciliation by fingerprint (step 4 of planning.suggestions.sync.run): the stored
suggestions of the scopes against the wanted ones, written with the bulk statements of
planning.suggestions.sync.write and recorded on the sync's `plan_write`.

- wanted, none stored: created, open;
- wanted, stored open: updated in place when its content changed (same id, same `created_at`);
- wanted, stored dismissed: left alone (a dismissal is sticky);
- wanted, stored resolved: reopened (same id, resolution cleared, content refreshed);
- stored open, not wanted: resolved with resolution `auto`.

A changed severity moves a suggestion in the list order: the move is recorded for the walks of
the list that began before it (planning.suggestions.walk).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from uuid import UUID

from django.utils import timezone

from planning.core.writes import PlanWrite
from planning.models import Plan, Suggestion, SuggestionStatus
from planning.suggestions.events import SuggestionChange
from planning.suggestions.rules.records import WantedSuggestion
from planning.suggestions.sync.load import StoredSuggestion
from planning.suggestions.sync.write import (
    suggestions_insert,
    suggestions_reopen_or_update,
    suggestions_resolve,
    with_content,
)
from planning.suggestions.walk import moves_record


@dataclass(frozen=True, slots=True)
class SyncResult:
    """What a sync did: how many suggestions it created, updated, resolved and reopened."""

    created: int
    updated: int
    resolved: int
    reopened: int
    full: bool  # the whole plan was re-derived
    duration: float  # seconds

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.resolved or self.reopened)


def suggestions_reconcile(
    *,
    write: PlanWrite,
    plan: Plan,
    stored: list[StoredSuggestion],
    wanted: dict[str, WantedSuggestion],
    full: bool,
    started: float,
) -> SyncResult:
    now = timezone.now()
    seen: set[str] = set()
    to_update: list[Suggestion] = []
    to_resolve: list[UUID] = []
    reopened: list[UUID] = []
    moves: list[tuple[UUID, str]] = []  # (id, severity before) of the severities it changes
    for suggestion in stored:
        seen.add(suggestion.fingerprint)
        want = wanted.get(suggestion.fingerprint)
        if want is None:
            if suggestion.status == SuggestionStatus.OPEN:
                to_resolve.append(suggestion.id)
            continue
        if suggestion.status == SuggestionStatus.DISMISSED:
            continue
        if suggestion.status == SuggestionStatus.RESOLVED:
            reopened.append(suggestion.id)
        elif (
            suggestion.suggestion_type == want.suggestion_type
            and suggestion.severity == want.severity
            and suggestion.title == want.title
            and suggestion.body == want.body
            and suggestion.structure_node_id == want.structure_node_id
            and suggestion.recommended_action_json == want.recommended_action_json
        ):
            continue
        if suggestion.severity != want.severity:
            moves.append((suggestion.id, suggestion.severity))
        to_update.append(
            with_content(
                Suggestion(
                    id=suggestion.id,
                    status=SuggestionStatus.OPEN,
                    resolution="",
                    resolved_at=None,
                    updated_at=now,
                ),
                want,
            )
        )
    new = [want for fp, want in wanted.items() if fp not in seen]
    created = suggestions_insert([new], plan_id=plan.pk, now=now) if new else []
    if to_update:
        suggestions_reopen_or_update(to_update, now=now)
    if to_resolve:
        suggestions_resolve(to_resolve, now=now)
    if moves:
        moves_record(plan_id=plan.pk, moves=moves)
    reopened_ids = set(reopened)
    opened = str(SuggestionChange.OPENED)  # once: str() of an enum member runs Python code
    write.suggestions_changed(
        [
            *((opened, suggestion_id) for suggestion_id in created),
            *(
                (
                    SuggestionChange.REOPENED if s.id in reopened_ids else SuggestionChange.UPDATED,
                    s.id,
                )
                for s in to_update
            ),
            *((SuggestionChange.RESOLVED, suggestion_id) for suggestion_id in to_resolve),
        ]
    )
    return SyncResult(
        created=len(created),
        updated=len(to_update) - len(reopened),
        resolved=len(to_resolve),
        reopened=len(reopened),
        full=full,
        duration=time.perf_counter() - started,
    )


def suggestions_create(
    *,
    write: PlanWrite,
    plan: Plan,
    parts: Iterable[dict[str, WantedSuggestion]],
    started: float,
) -> SyncResult:
    """The full sync of a plan that stores no suggestion yet (its first): every wanted one is
    new, so each part (a rule's suggestions) is written as it comes, while the next is derived
    (write.suggestions_insert). A fingerprint in two parts is written once, as the first has it
    (the rules' fingerprints never meet: each begins with its rule's type)."""
    seen: set[str] = set()

    def new_batches() -> Iterator[list[WantedSuggestion]]:
        for part in parts:
            batch = [want for fingerprint, want in part.items() if fingerprint not in seen]
            seen.update(part)
            yield batch

    created = suggestions_insert(new_batches(), plan_id=plan.pk, now=timezone.now())
    opened = str(SuggestionChange.OPENED)
    write.suggestions_changed((opened, suggestion_id) for suggestion_id in created)
    return SyncResult(
        created=len(created),
        updated=0,
        resolved=0,
        reopened=0,
        full=True,
        duration=time.perf_counter() - started,
    )

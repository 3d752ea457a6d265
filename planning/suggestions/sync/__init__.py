"""The suggestion sync (docs/design.md "Sync"): reconciles the suggestions a plan's data calls for
with the stored ones, re-deriving only what changed since the last sync.

Steps of `suggestion_sync`, all in one `plan_write` (planning.core.writes: one transaction):
1. Lock the plan row (`plan_lock`; SQLite serialises writers anyway), so two syncs of one plan
   run one after the other, and on PostgreSQL no change to the plan commits while this one
   runs (see changes.py).
2. Decide the scope. Database triggers (migration 0006) record every change to the plan's
   nodes and actions, and to the code catalog, in `PlanChange`, whatever wrote it: a service,
   the admin, an import, `QuerySet.update()` or raw SQL. No pending change: nothing to do (two
   queries, no write). A few: claim them and work out the scopes they touch (changes.py). The
   first sync of a plan, a catalog change, rules or thresholds other than those of the last
   full sync, or a change that reaches a large part of the plan: the whole plan.
   Before that, the stored tree fields (planning.tree) of the changed nodes are checked, and
   rebuilt should a change made outside the node services have left them stale (a full sync
   checks the whole plan): every anchor below is read from them. When a node changed, the
   buildings' labels (planning.tree.building_labels, which the texts name) are read again and
   compared with those the plan stores from its last sync (`Plan.suggestions_labels`): a
   building whose label changed has its whole region re-derived, whoever was renamed.
3. Load what the scopes need (load.py): the changed nodes and, for a changed anchor, the nodes
   it anchors (their stored building and root anchor the project groups: no tree walk, and
   never the whole plan), the catalog, the actions of those nodes, the actions of the touched
   project groups, and the stored suggestions of those scopes by fingerprint.
4. Compute the wanted suggestions with the pure rules (rules.py) and reconcile by fingerprint:
   - wanted, none stored: create it, open;
   - wanted, stored open: update type/severity/title/body/node/recommended action in place when
     one of them changed (same id, same `created_at`);
   - wanted, stored dismissed: leave it (a dismissal is sticky);
   - wanted, stored resolved: reopen it (open, same id, resolution cleared, content refreshed);
   - stored open, not wanted: resolved with resolution `auto`.
5. Write with bulk statements (write.py), only what changed, and record the changes on the
   `plan_write`, which raises `Plan.data_version` and sends `plan_changed` (the webhooks'
   outbox) in the same transaction. The version is raised too when the sync took in any
   change at all: a change made without the services (the admin, raw SQL) raised nothing, a
   deleted node takes its suggestions with it (a cascade, no write of ours), and a moved node
   changes what a subtree filter lists. The sync changes no plan data: it queues no sync.

Why triggers: the contract asks that a sync cost what changed, see changes from every path
including raw SQL, run the same on SQLite and PostgreSQL and read no row internals. Triggers
are the one place every write passes through on both databases; content digests per scope
would still read every row to find the changed ones. The price: a trigger per row written
(an import deletes its new plan's rows at once), and every sync's result equals a full
recompute only as long as the triggers are in place, which the property test checks against
`suggestion_sync(full=True)` on both databases.

The unique (plan, fingerprint) constraint is the backstop: should a concurrent writer slip past
the lock and insert a fingerprint first, the insert fails, the transaction (a savepoint when
nested) rolls back and the sync runs once more, now seeing the other writer's rows.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from uuid import UUID

from django.conf import settings
from django.db import IntegrityError
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from planning.core.writes import PlanWrite, plan_write
from planning.models import Plan, PlanChange, Suggestion, SuggestionStatus
from planning.suggestions import rules
from planning.suggestions.events import SuggestionChange
from planning.suggestions.rules import (
    BUDGET_YEARS,
    NodeRecord,
    PlanData,
    Thresholds,
    WantedSuggestion,
    budget_peak_suggestions,
    condition_suggestions,
    deviation_suggestions,
    missing_code_suggestions,
    overdue_suggestions,
    project_grouping_suggestions,
    wanted_suggestions,
)
from planning.suggestions.sync import changes as change_log
from planning.suggestions.sync.changes import Scopes
from planning.suggestions.sync.load import (
    StoredSuggestion,
    actions_load,
    actions_of,
    budget_figures,
    codes_load,
    group_candidates,
    nodes_load,
    nodes_of,
    region_of,
    stored_load,
)
from planning.suggestions.sync.write import (
    new_ids,
    suggestions_insert,
    suggestions_reopen_or_update,
    suggestions_resolve,
    with_content,
)
from planning.tree import building_labels, tree_repair

__all__ = ["SyncResult", "suggestion_sync", "synced_data_version", "with_sync_state"]

logger = logging.getLogger("maintplan.sync")

# More pending change rows than this, or more changed nodes and nodes anchored at changed
# anchors than this, and the whole plan is re-derived: past that point the per-scope reads
# cost more than one full read.
FULL_SYNC_CHANGES = 5000
FULL_SYNC_SUBTREE = 5000

_RULES_SOURCE = Path(rules.__file__).read_bytes()


@dataclass(frozen=True, slots=True)
class SyncResult:
    created: int
    updated: int
    resolved: int
    reopened: int
    full: bool  # the whole plan was re-derived
    duration: float  # seconds

    @property
    def changed(self) -> bool:
        return bool(self.created or self.updated or self.resolved or self.reopened)


def thresholds_from_settings() -> Thresholds:
    """The settings' thresholds and this sync's year Y (UTC)."""
    return Thresholds.from_settings(
        settings.SUGGESTION_COST_THRESHOLDS,
        settings.SUGGESTION_TIMING_THRESHOLDS,
        year=timezone.now().year,
    )


def rules_digest(thresholds: Thresholds) -> str:
    """What a full sync's result depends on besides the data: the rules and the thresholds,
    Y among them (so the first sync in a new calendar year re-derives the whole plan)."""
    return hashlib.sha256(_RULES_SOURCE + repr(thresholds).encode()).hexdigest()


@contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
    """Holds off Python's cycle collector while the sync runs. A full sync allocates a few
    hundred thousand records (none in a cycle), so the collector would walk them over and over
    for nothing: 0.5 s of a 3 s first sync of a 20,000-node plan. Reference counting still
    frees everything; only whoever turned the collector off turns it back on, so nested or
    concurrent syncs leave it as they found it."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()


def suggestion_sync(*, plan: Plan, full: bool = False) -> SyncResult:
    """Brings the plan's stored suggestions in line with its data; see the module docstring.
    `full` re-derives the whole plan whatever changed (what the incremental sync must equal)."""
    started = time.perf_counter()
    with _cyclic_gc_paused():
        try:
            result = _sync_once(plan=plan, started=started, full=full)
        except IntegrityError:
            # Someone else stored one of our fingerprints first and has committed: go again.
            result = _sync_once(plan=plan, started=started, full=full)
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
            "full_sync": result.full,
            "duration_ms": round(result.duration * 1000, 1),
        },
    )
    return result


def synced_data_version(*, plan: Plan) -> int:
    """The plan's committed `data_version` once its suggestions are in line with its data: what
    a page, an export or a list labels its answer with (ETags, cached figures).

    Most calls find nothing to do, and the sync would take the plan's row lock and a
    transaction to learn it; one read (docs/design.md "Sync" > "Skipped when nothing is due")
    tells first whether a sync is due: the plan was synced, under today's rules and year, and
    no change is pending. A change that commits just after that read is taken in by the next
    call, as if this one had come a moment earlier; the version read with it labels exactly the
    data the stored suggestions were derived from. A plan read with `with_sync_state` (in this
    request) already holds that read."""
    if hasattr(plan, "changes_pending"):
        version, last_synced_at = plan.data_version, plan.last_synced_at
        rules_used, pending = plan.suggestion_rules, plan.changes_pending
        budget, budget_used = plan.annual_budget, plan.suggestions_budget
    else:
        version, last_synced_at, rules_used, pending, budget, budget_used = (
            Plan.objects.filter(pk=plan.pk)
            .annotate(changes_pending=Exists(PlanChange.objects.filter(plan_id=OuterRef("pk"))))
            .values_list(
                "data_version",
                "last_synced_at",
                "suggestion_rules",
                "changes_pending",
                "annual_budget",
                "suggestions_budget",
            )
            .get()
        )
    if (
        last_synced_at is not None
        and not pending
        and budget == budget_used
        and rules_used == _digest_now()
    ):
        return int(version)
    suggestion_sync(plan=plan)
    return int(Plan.objects.filter(pk=plan.pk).values_list("data_version", flat=True).get())


def with_sync_state(plans: QuerySet[Plan]) -> QuerySet[Plan]:
    """`plans` with `changes_pending`: whether a change waits for the sync (synced_data_version
    reads it with the plan's version, last sync and rules digest)."""
    return plans.annotate(changes_pending=Exists(PlanChange.objects.filter(plan_id=OuterRef("pk"))))


@functools.lru_cache(maxsize=8)
def _digest_of(thresholds: Thresholds) -> str:
    return rules_digest(thresholds)


def _digest_now() -> str:
    return _digest_of(thresholds_from_settings())


def _labels_now(plan: Plan) -> dict[str, str]:
    """Every building's label (planning.tree.building_labels), by id as text."""
    return {
        str(node_id): label
        for node_id, label in building_labels(plan=plan, building_ids=None).items()
    }


def _places(
    *, plan_id: UUID, labels: dict[str, str], nodes: dict[str, NodeRecord]
) -> dict[str, str]:
    """How the texts name the anchors of these nodes (rules.PlanData.places): every building's
    label, and the names of the roots outside every building, read when not loaded already."""
    places = dict(labels)
    roots = {node.root_id for node in nodes.values() if node.building_id is None}
    places.update((root, nodes[root].name) for root in roots if root in nodes)
    missing = roots - nodes.keys()
    if missing:
        places.update(
            (root, node.name) for root, node in nodes_of(plan_id=plan_id, node_ids=missing).items()
        )
    return places


def _scoped_wanted(
    *, plan_id: UUID, scopes: Scopes, data: PlanData, thresholds: Thresholds
) -> dict[str, WantedSuggestion]:
    """The wanted suggestions of the scopes, each rule run on exactly its scopes' inputs.
    `data.nodes` holds the nodes of the scopes' actions and of the missing_code scopes, and
    `data.places` their anchors' labels; the groups' anchors and the nodes they anchor are
    read here."""
    actions, places = data.actions, data.places
    missing_code = missing_code_suggestions(
        PlanData(
            nodes={n: data.nodes[n] for n in scopes.missing_code_nodes if n in data.nodes},
            actions=tuple(a for a in actions if a.node_id in scopes.missing_code_nodes),
            codes=data.codes,
            places=places,
        )
    )
    deviation = deviation_suggestions(
        PlanData(
            nodes=data.nodes,
            actions=tuple(a for a in actions if a.id in scopes.deviation_actions),
            codes=data.codes,
            places=places,
        ),
        thresholds,
    )
    anchor_ids = {anchor for anchor, _year in scopes.groups}
    years = {year for _anchor, year in scopes.groups}
    anchors = nodes_of(plan_id=plan_id, node_ids=anchor_ids - set(data.nodes))
    anchors.update((n, data.nodes[n]) for n in anchor_ids if n in data.nodes)
    region = region_of(plan_id=plan_id, anchors=list(anchors.values()))
    grouping = project_grouping_suggestions(
        PlanData(
            nodes=region,
            actions=tuple(group_candidates(plan_id=plan_id, node_ids=region, years=years)),
            codes=data.codes,
            places=places,
        )
    )
    # Condition: a node and its actions, as missing_code; overdue: one action, as deviation.
    condition = condition_suggestions(
        PlanData(
            nodes={n: data.nodes[n] for n in scopes.missing_code_nodes if n in data.nodes},
            actions=tuple(a for a in actions if a.node_id in scopes.missing_code_nodes),
            codes=data.codes,
            places=places,
        ),
        thresholds.year,
    )
    overdue = overdue_suggestions(
        PlanData(
            nodes=data.nodes,
            actions=tuple(a for a in actions if a.id in scopes.deviation_actions),
            codes=data.codes,
            places=places,
        ),
        thresholds.year,
    )
    wanted = {**missing_code, **deviation, **grouping, **condition, **overdue}
    fingerprints = scopes.fingerprints()
    return {fp: want for fp, want in wanted.items() if fp in fingerprints}


def _budget_wanted(
    *, plan_id: UUID, budget: Decimal | None, year: int, labels: dict[str, str]
) -> dict[str, WantedSuggestion]:
    """Rule 6's suggestions: none without an annual budget."""
    if budget is None:
        return {}
    figures = budget_figures(plan_id=plan_id, budget=budget, year=year, labels=labels)
    return budget_peak_suggestions(figures, year)


def _sync_once(*, plan: Plan, started: float, full: bool) -> SyncResult:
    thresholds = thresholds_from_settings()
    digest = rules_digest(thresholds)
    with plan_write(
        plan_id=plan.pk,
        data_changed=False,
        fields=(
            "last_synced_at",
            "suggestion_rules",
            "annual_budget",
            "suggestions_budget",
            "suggestions_labels",
            "organisation_id",
            "currency",
        ),
    ) as write:
        last_synced_at, rules_used, budget, budget_used, labels_used, organisation_id, currency = (
            write.locked
        )
        labels_used = labels_used or {}
        budget_changed = budget != budget_used
        pending = change_log.changes_pending(plan_id=plan.pk)
        full = (
            full
            or last_synced_at is None
            or rules_used != digest
            or pending.catalog
            or pending.count > FULL_SYNC_CHANGES
        )
        if not full and not pending.count and not budget_changed:
            plan.last_synced_at = last_synced_at
            return SyncResult(0, 0, 0, 0, full, time.perf_counter() - started)

        wanted: dict[str, WantedSuggestion]
        fingerprints: set[str] | None = None
        labels: dict[str, str] = labels_used
        if not full:
            changes = change_log.changes_claim(plan_id=plan.pk)
            if tree_repair(plan_id=plan.pk, node_ids=changes.nodes_before):
                changes.merge(change_log.changes_claim(plan_id=plan.pk))  # the repair's rows
            # Only a node's change can change a building's label; otherwise those the stored
            # texts were derived under are today's.
            if changes.nodes_before:
                labels = _labels_now(plan)
            found = change_log.scopes_of(
                changes,
                nodes_of=lambda node_ids: nodes_of(plan_id=plan.pk, node_ids=node_ids),
                region_of=lambda anchors: region_of(plan_id=plan.pk, anchors=anchors),
                actions_of=lambda node_ids, action_ids: actions_of(
                    plan_id=plan.pk, node_ids=node_ids, action_ids=action_ids
                ),
                subtree_limit=FULL_SYNC_SUBTREE,
                relabelled={b for b, label in labels.items() if labels_used.get(b) != label},
            )
            if found is None:
                full = True
            else:
                scopes, actions, nodes = found
                data = PlanData(
                    nodes=nodes,
                    actions=tuple(actions.values()),
                    codes=codes_load(organisation_id=organisation_id, currency=currency),
                    places=_places(plan_id=plan.pk, labels=labels, nodes=nodes),
                )
                wanted = _scoped_wanted(
                    plan_id=plan.pk, scopes=scopes, data=data, thresholds=thresholds
                )
                fingerprints = scopes.fingerprints()
                if budget is not None or budget_used is not None:
                    # Rule 6 sums the whole plan: any change (or a new budget) re-derives it.
                    wanted.update(
                        _budget_wanted(
                            plan_id=plan.pk, budget=budget, year=thresholds.year, labels=labels
                        )
                    )
                    fingerprints.update(
                        f"budget_peak:{y}"
                        for y in range(thresholds.year, thresholds.year + BUDGET_YEARS)
                    )
        if full:
            tree_repair(plan_id=plan.pk)
            change_log.changes_discard(plan_id=plan.pk)
            labels = _labels_now(plan)
            data = PlanData(
                nodes=nodes_load(plan_id=plan.pk),
                actions=actions_load(plan_id=plan.pk),
                codes=codes_load(organisation_id=organisation_id, currency=currency),
                places=labels,  # a root outside every building: by its record, all loaded
            )
            wanted = wanted_suggestions(data, thresholds)
            wanted.update(
                _budget_wanted(plan_id=plan.pk, budget=budget, year=thresholds.year, labels=labels)
            )
        stored = stored_load(plan_id=plan.pk, fingerprints=fingerprints)
        result = _reconcile(
            write=write, plan=plan, stored=stored, wanted=wanted, full=full, started=started
        )

        updates = write.plan_updates
        if result.changed or last_synced_at is None:
            updates["last_synced_at"] = timezone.now()
        if pending.count:
            write.version_raise()
        if rules_used != digest:
            updates["suggestion_rules"] = digest
        if labels != labels_used:
            updates["suggestions_labels"] = labels
        if budget_changed:
            updates["suggestions_budget"] = budget
            write.version_raise()  # a budget set by raw SQL changes the planning page too
        plan.last_synced_at = updates.get("last_synced_at", last_synced_at)
    return result


def _reconcile(
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
    to_create = list(zip(new_ids(len(new)), new, strict=True))
    if to_create:
        suggestions_insert(to_create, plan_id=plan.pk, now=now)
    if to_update:
        suggestions_reopen_or_update(to_update, now=now)
    if to_resolve:
        suggestions_resolve(to_resolve, now=now)
    reopened_ids = set(reopened)
    opened = str(SuggestionChange.OPENED)  # once: str() of an enum member runs Python code
    write.suggestions_changed(
        [
            *((opened, suggestion_id) for suggestion_id, _want in to_create),
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
        created=len(to_create),
        updated=len(to_update) - len(reopened),
        resolved=len(to_resolve),
        reopened=len(reopened),
        full=full,
        duration=time.perf_counter() - started,
    )

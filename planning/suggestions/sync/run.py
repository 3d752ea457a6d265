"""The suggestion sync (docs/subsystems/sync.md), `suggestion_sync`: reconciles the suggestions a
plan's data calls for with the stored ones, re-deriving only what changed since the last sync.

Steps of `suggestion_sync`, all in one `plan_write` (planning.core.writes: one transaction):
1. Lock the plan row (`plan_lock`; SQLite serialises writers anyway), so two syncs of one plan
   run one after the other, and on PostgreSQL no change to the plan commits while this one
   runs (see changes.py).
2. Decide the scope. Database triggers (planning.db) record every change to the plan's
   nodes and actions, and to the code catalog, in `PlanChange`, whatever wrote it: a service,
   the admin, an import, `QuerySet.update()` or raw SQL. No pending change: nothing to do (two
   queries, no write). A few: claim them and work out the scopes they touch (changes.py). The
   first sync of a plan, a catalog change, rules or thresholds other than those of the last
   full sync, or a change that reaches a large part of the plan: the whole plan.
   Before that, the stored tree fields (planning.tree) of the changed nodes are checked, and
   rebuilt should a change made outside the node services have left them stale (a full sync
   checks the whole plan): every anchor below is read from them. When a node changed, the
   buildings' labels (planning.tree.selectors.building_labels, which the texts name) are read
   again and compared with those the plan stores from its last sync (`Plan.suggestions_labels`):
   a building whose label changed has its whole region re-derived, whoever was renamed.
3. Load what the scopes need (load.py): the changed nodes and, for a changed anchor, the nodes
   it anchors (their stored building and root anchor the project groups: no tree walk, and
   never the whole plan), the catalog, the actions of those nodes, the actions of the touched
   project groups, and the stored suggestions of those scopes by fingerprint.
4. Compute the wanted suggestions with the pure rules (planning.suggestions.rules, run on the
   scopes by derive.py) and reconcile by fingerprint (reconcile.py):
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
   The plan's first sync says so on the write (`first_sync`): its changes open the whole list,
   which the outbox may send as one summary event (docs/subsystems/webhooks.md).

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

Whether a sync is due at all, without taking the plan's lock, is due.py's `synced_data_version`.
"""

from __future__ import annotations

import gc
import logging
import time
from collections.abc import Iterator
from contextlib import contextmanager
from itertools import chain

from django.db import IntegrityError
from django.utils import timezone

from planning.core.writes import plan_write
from planning.models import Plan
from planning.suggestions.rules.budget_peak import BUDGET_YEARS
from planning.suggestions.rules.records import PlanData, WantedSuggestion
from planning.suggestions.rules.wanted import wanted_by_rule, wanted_suggestions
from planning.suggestions.sync import changes as change_log
from planning.suggestions.sync.derive import (
    rules_digest,
    thresholds_from_settings,
    wanted_budget_peaks,
    wanted_in_scopes,
)
from planning.suggestions.sync.load import (
    actions_load,
    actions_of,
    codes_load,
    labels_load,
    nodes_load,
    nodes_of,
    places_load,
    region_of,
    stored_load,
)
from planning.suggestions.sync.reconcile import (
    SyncResult,
    suggestions_create,
    suggestions_reconcile,
)
from planning.tree.paths import tree_repair

logger = logging.getLogger("maintplan.sync")

# More pending change rows than this, or more changed nodes and nodes anchored at changed
# anchors than this, and the whole plan is re-derived: past that point the per-scope reads
# cost more than one full read.
FULL_SYNC_CHANGES = 5000
FULL_SYNC_SUBTREE = 5000


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
    # `duration` ends with the writes; the events the signal writes and the commit (the deferred
    # foreign-key checks) come after it, and once took longer than the sync itself.
    total = time.perf_counter() - started
    logger.info(
        "suggestion sync of plan %s: %s created, %s updated, %s resolved, %s reopened in %.1f ms "
        "(%.1f ms with its events and commit)",
        plan.number,
        result.created,
        result.updated,
        result.resolved,
        result.reopened,
        result.duration * 1000,
        total * 1000,
        extra={
            "plan_number": plan.number,
            "created_count": result.created,
            "updated_count": result.updated,
            "resolved_count": result.resolved,
            "reopened_count": result.reopened,
            "full_sync": result.full,
            "duration_ms": round(result.duration * 1000, 1),
            "total_ms": round(total * 1000, 1),
        },
    )
    return result


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
                labels = labels_load(plan=plan)
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
                    places=places_load(plan_id=plan.pk, labels=labels, nodes=nodes),
                )
                wanted = wanted_in_scopes(
                    plan_id=plan.pk, scopes=scopes, data=data, thresholds=thresholds
                )
                fingerprints = scopes.fingerprints()
                if budget is not None or budget_used is not None:
                    # Rule 6 sums the whole plan: any change (or a new budget) re-derives it.
                    wanted.update(
                        wanted_budget_peaks(
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
            labels = labels_load(plan=plan)
            data = PlanData(
                nodes=nodes_load(plan_id=plan.pk),
                actions=actions_load(plan_id=plan.pk),
                codes=codes_load(organisation_id=organisation_id, currency=currency),
                places=labels,  # a root outside every building: by its record, all loaded
            )
            peaks = wanted_budget_peaks(
                plan_id=plan.pk, budget=budget, year=thresholds.year, labels=labels
            )
        stored = stored_load(plan_id=plan.pk, fingerprints=fingerprints)
        if full and not stored:
            # The first sync: all is new, each rule's written while the next derives its own.
            result = suggestions_create(
                write=write,
                plan=plan,
                parts=chain([peaks], wanted_by_rule(data, thresholds)),
                started=started,
            )
        else:
            if full:
                wanted = {**wanted_suggestions(data, thresholds), **peaks}
            result = suggestions_reconcile(
                write=write, plan=plan, stored=stored, wanted=wanted, full=full, started=started
            )

        updates = write.plan_updates
        # The webhooks' outbox may sum up a first sync's changes: nobody held any of them.
        write.first_sync = last_synced_at is None
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

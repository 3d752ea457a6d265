"""The one table of what the triggers track (docs/adr/0001-triggers-on-both-databases.md).

For each table whose writes the database itself records: the columns whose change reaches the
change log (`PlanChange` rows the plan's next suggestion sync claims) and the columns whose
before and after a `HistoryEntry` keeps. `planning.db.triggers` turns a table of `Tracked`
entries into the triggers of SQLite and PostgreSQL.

`TRACKED` is today's table. Editing it changes no database by itself: a new migration installs
the triggers again from it (tests/planning/test_db_triggers.py fails until one does, and when a
model's field is in neither this table nor the test's list of untracked fields). A migration
never passes `TRACKED`: it passes the table as it was when it was written, so a fresh database
gets at each step the triggers it got then.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

EVERY_COLUMN: Final = ("*",)
"""As `ChangeLog.nodes`: every write of the row marks its nodes, whatever column it changes."""


@dataclass(frozen=True)
class ChangeLog:
    """Which writes of a table leave `PlanChange` rows for the next sync of the plans concerned
    (docs/subsystems/sync.md "Incremental: the change log")."""

    nodes: tuple[str, ...] = ()
    """Columns whose change marks the nodes concerned (`EVERY_COLUMN`: any write does)."""
    plans: tuple[str, ...] = ()
    """Columns whose change marks every synced plan concerned for a full sync."""
    old: tuple[str, ...] = ()
    """A node's columns kept as `PlanChange.old_<column>`: where the node was before."""


@dataclass(frozen=True)
class History:
    """What the history triggers record of a row (docs/subsystems/history.md "History"). The
    expressions are
    SQL over the row `R` (the new row, or the old one of a delete)."""

    columns: tuple[str, ...]
    """The columns whose before and after `HistoryEntry.changes` keeps; a write that changes
    none of them leaves no entry."""
    plan: str
    label: str
    entity_uuid: str = "NULL"
    entity_int: str = "NULL"
    subject_uuid: str = "NULL"
    events: tuple[str, ...] = ("INSERT", "UPDATE", "DELETE")
    when: str = ""
    """A further condition on OLD and NEW, in PostgreSQL's spelling (IS DISTINCT FROM)."""


@dataclass(frozen=True)
class Tracked:
    """A table the triggers watch, named as `HistoryEntry.entity` names it."""

    entity: str
    table: str
    change_log: ChangeLog | None = None
    history: History | None = None


def tracked_entry(tracked: tuple[Tracked, ...], entity: str) -> Tracked:
    """The entry of `entity` in a table of tracked entities."""
    return next(entry for entry in tracked if entry.entity == entity)


# A fund's and a funding scenario's settings (planning.models.funding), all of them.
FUND_COLUMNS: Final = (
    "opening_balance",
    "start_year",
    "interest_percent",
    "contribution",
    "contribution_increase_percent",
    "horizon_years",
    "threshold_amount",
    "threshold_percent",
)
SCENARIO_COLUMNS: Final = (
    "name",
    "opening_balance",
    "start_year",
    "interest_percent",
    "contribution",
    "contribution_increase_percent",
    "goal",
    "goal_threshold",
    "horizon_years",
    "index_rate_percent",
    "annual_budget",
)

# The order is the order of the history function's branches on PostgreSQL.
TRACKED: Final[tuple[Tracked, ...]] = (
    Tracked(
        "plan",
        "planning_plan",
        # Only the plan's currency and organisation decide which catalog figures it sees.
        change_log=ChangeLog(plans=("currency", "organisation_id")),
        history=History(
            columns=(
                "name",
                "description",
                "organisation_id",
                "currency",
                "price_base_year",
                "index_rate_percent",
                "overhead_percent",
                "vat_percent",
                "annual_budget",
                "markups",
            ),
            plan="R.id",
            entity_uuid="R.id",
            label="R.name",
            events=("INSERT", "UPDATE"),  # a deleted plan's history goes with it
        ),
    ),
    Tracked(
        "node",
        "planning_structurenode",
        change_log=ChangeLog(nodes=EVERY_COLUMN, old=("parent_id", "kind", "building_id", "path")),
        history=History(
            columns=(
                "parent_id",
                "name",
                "kind",
                "code_id",
                "quantity",
                "unit",
                "install_year",
                "ref",
                "address",
                "gross_floor_area_m2",
                "year_built",
                "condition_grade",
                "condition_assessed_on",
                "condition_consequence",
                "replacement_value",
            ),
            plan="R.plan_id",
            entity_uuid="R.id",
            label="R.name",
        ),
    ),
    Tracked(
        "action",
        "planning_action",
        change_log=ChangeLog(nodes=EVERY_COLUMN),
        history=History(
            columns=(
                "node_id",
                "title",
                "kind",
                "planned_year",
                "estimated_cost",
                "interval_years",
                "status",
                "project_id",
            ),
            plan="R.plan_id",
            entity_uuid="R.id",
            label="R.title",
        ),
    ),
    Tracked(
        "project",
        "planning_project",
        history=History(
            columns=("name", "year"), plan="R.plan_id", entity_uuid="R.id", label="R.name"
        ),
    ),
    Tracked(
        "grant",
        "planning_planmembership",
        history=History(
            columns=("user_id", "role"),
            plan="R.plan_id",
            entity_int="R.id",
            label="(SELECT u.email FROM accounts_user u WHERE u.id = R.user_id)",
        ),
    ),
    Tracked(
        "completion",
        "planning_completion",
        history=History(
            columns=("completed_on", "planned_year", "estimated_cost", "actual_cost", "by_id"),
            plan="(SELECT a.plan_id FROM planning_action a WHERE a.id = R.action_id)",
            entity_int="R.id",
            subject_uuid="R.action_id",
            label="(SELECT a.title FROM planning_action a WHERE a.id = R.action_id)",
        ),
    ),
    Tracked(
        "suggestion",
        "planning_suggestion",
        # Dismissals and restores only: the sync's own changes are not history.
        history=History(
            columns=("status", "dismiss_reason", "dismiss_comment"),
            plan="R.plan_id",
            entity_uuid="R.id",
            label="R.title",
            events=("UPDATE",),
            when="OLD.status IS DISTINCT FROM NEW.status "
            "AND (OLD.status = 'dismissed' OR NEW.status = 'dismissed')",
        ),
    ),
    Tracked(
        "fund",
        "planning_fund",
        history=History(columns=FUND_COLUMNS, plan="R.plan_id", entity_uuid="R.id", label="'Fund'"),
    ),
    Tracked(
        "scenario",
        "planning_fundingscenario",
        history=History(
            columns=SCENARIO_COLUMNS, plan="R.plan_id", entity_uuid="R.id", label="R.name"
        ),
    ),
    Tracked(
        "attachment",
        "planning_attachment",
        # Uploads and deletions, shown on the page of the node or action the file is on.
        history=History(
            columns=("kind", "original_name", "content_type", "size", "node_id", "action_id"),
            plan="R.plan_id",
            entity_uuid="R.id",
            subject_uuid="COALESCE(R.node_id, R.action_id)",
            label="R.original_name",
            events=("INSERT", "DELETE"),
        ),
    ),
    Tracked(
        "code",
        "planning_code",
        # A code's identity (what the missing-code prefill matches) marks every plan that can
        # see the code for a full sync; its figures mark the nodes that use it.
        change_log=ChangeLog(
            plans=("code", "name", "unit", "keywords", "organisation_id"),
            nodes=("unit_cost", "service_life_years", "interval_years"),
        ),
    ),
    Tracked("code_override", "planning_codeoverride", change_log=ChangeLog(nodes=EVERY_COLUMN)),
    Tracked("catalog", "planning_organisationcatalog", change_log=ChangeLog(plans=("currency",))),
)

"""The triggers of planning.db (docs/adr/0001-triggers-on-both-databases.md): every field of a
tracked model is in the table of tracked columns or listed below as untracked, for the change log
and for the history, and the database migrated to the end has exactly the triggers the table
generates today, so a column added to the table without a migration fails too.

Runs on the database of the suite: `make test` (SQLite) and `make test-postgres`.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import connection

from planning.db.change_log_triggers import action_change
from planning.db.statements import TriggerSql
from planning.db.tracked import EVERY_COLUMN, TRACKED, ChangeLog, Tracked
from planning.db.triggers import triggers_create, triggers_drop

# Models whose writes no trigger watches, and why.
UNTRACKED_MODELS = {
    "PlanNumberCounter": "the next plan number, not a plan's data",
    "CatalogChange": "the catalog's own history, written by the catalog services",
    "PlanChange": "the change log itself",
    "HistoryEntry": "the history itself",
    "HistoryContext": "the actor the SQLite history triggers read",
    "PlanImport": "an upload and its job; the plan it makes is recorded as one entry",
    "ImportMapping": "an organisation's remembered sheet mapping, not a plan's data",
    "PlanReport": "a PDF and its job",
    "PlanVersion": "an adopted version is a snapshot; adopting it changes no plan data",
    "VersionNode": "part of a version's snapshot",
    "VersionAction": "part of a version's snapshot",
    "VersionProject": "part of a version's snapshot",
    "ConditionSurvey": "a survey is itself a record of grades; the current grade it sets on its "
    "node is in the node's history",
    "SurveyPhotoReceipt": "which photo keys of survey mode arrived: a photo resent is stored once",
    "SuggestionMove": "a suggestion's place in the list order before a sync moved it, kept for "
    "the walks of the list (suggestions are no plan data: the sync derives them)",
}

# Columns of a model with history whose changes the history does not keep, and why.
HISTORY_UNTRACKED: dict[str, tuple[str, ...]] = {
    "plan": (
        "id",
        "number",  # assigned once at creation
        "created_at",
        "updated_at",
        "data_version",  # raised by every write of the plan's data
        # the sync's record of its last run
        "last_synced_at",
        "suggestion_rules",
        "suggestions_budget",
        "suggestions_labels",
    ),
    "node": (
        "id",
        "plan_id",  # the entry's own plan
        "path",  # derived from the parents (planning.tree), which the history keeps
        "building_id",
        "updated_at",
    ),
    "action": ("id", "plan_id", "created_at", "updated_at"),
    "project": ("id", "plan_id", "created_at", "updated_at"),
    "grant": ("id", "plan_id", "created_at"),
    "completion": ("id", "action_id", "created_at"),  # the action is the entry's subject
    # Dismissals and restores only: everything else of a suggestion is the sync's own writing,
    # and the entry keeps who dismissed it and when.
    "fund": ("id", "plan_id", "updated_at"),
    "scenario": ("id", "plan_id", "created_at", "updated_at"),
    "suggestion": (
        "id",
        "plan_id",
        "suggestion_type",
        "severity",
        "severity_rank",
        "title",
        "body",
        "structure_node_id",
        "recommended_action_json",
        "fingerprint",
        "created_at",
        "updated_at",
        "dismissed_at",
        "dismissed_by_id",
        "resolved_at",
        "resolution",
    ),
    # A file is added or deleted, never changed: the entry keeps what it was and where.
    "attachment": (
        "id",
        "plan_id",
        "survey_id",
        "file",
        "thumbnail",
        "uploaded_by_id",
        "created_at",
    ),
}

# Columns of a model with a column-wise change log whose changes mark no plan for a sync, and
# why. (Nodes, actions and overrides mark on every write: EVERY_COLUMN.)
CHANGE_LOG_UNTRACKED: dict[str, tuple[str, ...]] = {
    "plan": (
        "id",
        "number",
        "created_at",
        "updated_at",
        "data_version",
        # no suggestion rule reads a plan's name, description or prices
        "name",
        "description",
        "price_base_year",
        "index_rate_percent",
        "overhead_percent",
        "vat_percent",
        "markups",
        # the sync compares the budget with the one its budget peaks were derived under
        "annual_budget",
        # the sync's record of its last run
        "last_synced_at",
        "suggestion_rules",
        "suggestions_budget",
        "suggestions_labels",
    ),
    "code": (
        "id",
        "is_default",  # marks a starter code; no rule reads it
    ),
    "catalog": (
        "organisation_id",  # the catalog's key: a catalog added or deleted marks the plans
        "updated_at",
    ),
}


def _model_columns(entry: Tracked) -> set[str]:
    (model,) = (
        m for m in apps.get_app_config("planning").get_models() if m._meta.db_table == entry.table
    )
    return {field.column for field in model._meta.concrete_fields if field.column is not None}


def _run(sql: TriggerSql) -> None:
    with connection.cursor() as cursor:
        for statement in sql.statements(connection.vendor):
            cursor.execute(statement)


def _installed() -> dict[str, str]:
    """The planning tables' triggers as the database shows them, and on PostgreSQL the
    functions of planning's triggers."""
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            cursor.execute(
                "SELECT name, sql FROM sqlite_master "
                "WHERE type = 'trigger' AND tbl_name LIKE 'planning%'"
            )
            return dict(cursor.fetchall())
        cursor.execute(
            "SELECT t.tgname, pg_get_triggerdef(t.oid) FROM pg_trigger t "
            "WHERE NOT t.tgisinternal AND t.tgrelid::regclass::text LIKE 'planning%'"
        )
        triggers = {f"trigger {name}": sql for name, sql in cursor.fetchall()}
        cursor.execute(
            "SELECT p.proname, pg_get_functiondef(p.oid) FROM pg_proc p "
            "WHERE p.pronamespace = current_schema()::regnamespace AND p.proname LIKE 'planning%'"
        )
        return triggers | {f"function {name}": sql for name, sql in cursor.fetchall()}


def _drop_installed() -> None:
    with connection.cursor() as cursor:
        if connection.vendor == "sqlite":
            for name in _installed():
                cursor.execute(f'DROP TRIGGER "{name}"')
            return
        cursor.execute(
            "SELECT t.tgname, t.tgrelid::regclass::text FROM pg_trigger t "
            "WHERE NOT t.tgisinternal AND t.tgrelid::regclass::text LIKE 'planning%'"
        )
        for name, table in cursor.fetchall():
            cursor.execute(f'DROP TRIGGER "{name}" ON "{table}"')
        for name in _installed():
            cursor.execute(f'DROP FUNCTION "{name.removeprefix("function ")}"()')


def test_every_planning_model_is_tracked_or_listed_as_untracked() -> None:
    tables = {entry.table for entry in TRACKED}
    models = {m.__name__ for m in apps.get_app_config("planning").get_models()}
    tracked = {
        m.__name__
        for m in apps.get_app_config("planning").get_models()
        if m._meta.db_table in tables
    }
    assert tracked.isdisjoint(UNTRACKED_MODELS)
    assert models == tracked | set(UNTRACKED_MODELS)


def _assert_covered(entry: Tracked, tracked: tuple[str, ...], untracked: tuple[str, ...]) -> None:
    """Every column of the entry's model is tracked or untracked, never both, and no other."""
    columns = _model_columns(entry)
    assert len(set(tracked)) == len(tracked), f"{entry.entity}: a column is tracked twice"
    assert not set(tracked) & set(untracked), f"{entry.entity}: tracked and listed untracked"
    missing = columns - set(tracked) - set(untracked)
    assert not missing, f"{entry.entity}: add to planning.db.tracked, or list here: {missing}"
    stale = (set(tracked) | set(untracked)) - columns
    assert not stale, f"{entry.entity}: not columns of {entry.table}: {stale}"


@pytest.mark.parametrize(
    "entry", [e for e in TRACKED if e.history is not None], ids=lambda e: e.entity
)
def test_every_field_of_a_model_with_history_is_recorded_or_listed(entry: Tracked) -> None:
    assert entry.history is not None
    _assert_covered(entry, entry.history.columns, HISTORY_UNTRACKED[entry.entity])


@pytest.mark.parametrize(
    "entry", [e for e in TRACKED if e.change_log is not None], ids=lambda e: e.entity
)
def test_every_field_of_a_model_with_a_change_log_marks_a_sync_or_is_listed(
    entry: Tracked,
) -> None:
    log = entry.change_log
    assert log is not None
    assert set(log.old) <= _model_columns(entry)
    if log.nodes == EVERY_COLUMN:  # every write marks: nothing to forget
        assert not log.plans
        assert entry.entity not in CHANGE_LOG_UNTRACKED
    else:
        _assert_covered(entry, log.nodes + log.plans, CHANGE_LOG_UNTRACKED[entry.entity])


@pytest.mark.django_db
def test_the_migrated_database_has_the_triggers_of_today_s_table() -> None:
    migrated = _installed()
    assert migrated

    _drop_installed()
    _run(triggers_create(TRACKED))

    assert _installed() == migrated


@pytest.mark.django_db
def test_dropping_today_s_triggers_leaves_none() -> None:
    _run(triggers_drop(TRACKED))

    assert _installed() == {}


def test_a_generator_refuses_a_table_entry_its_trigger_does_not_follow() -> None:
    with pytest.raises(ValueError, match="action triggers"):
        action_change(ChangeLog(nodes=("planned_year",)))

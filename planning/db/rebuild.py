"""Triggers set aside while SQLite rebuilds a table (docs/adr/0001-triggers-on-both-databases.md).

SQLite makes most schema changes (a NOT NULL column, a check constraint, a column dropped) by
rebuilding the table: create, copy, drop, rename. A rebuild fails while a trigger names the
table, and a dropped table takes its own triggers with it. A migration that changes a table
the triggers watch runs `triggers_set_aside` first and `triggers_restore` last (and the other
way round on the way back): every trigger is kept in a temporary table, dropped, and created
again from its own SQL, so the triggers after are exactly those before. PostgreSQL alters the
table in place, so both do nothing there.
"""

# ruff: noqa: S608 - SQL built from this package's constants and table, never from input

from __future__ import annotations

from typing import Any

from django.db.backends.base.schema import BaseDatabaseSchemaEditor

SAVED = "planning_triggers_set_aside"


def triggers_set_aside(apps: Any, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """A `RunPython` function: keeps every trigger's SQL and drops the trigger (SQLite)."""
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TEMP TABLE {SAVED} AS "
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"
        )
        cursor.execute(f"SELECT name FROM {SAVED}")
        for (name,) in cursor.fetchall():
            cursor.execute(f'DROP TRIGGER "{name}"')


def triggers_restore(apps: Any, schema_editor: BaseDatabaseSchemaEditor) -> None:
    """A `RunPython` function: creates again every trigger `triggers_set_aside` kept (SQLite)."""
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute(f"SELECT sql FROM {SAVED}")
        for (sql,) in cursor.fetchall():
            cursor.execute(sql)
        cursor.execute(f"DROP TABLE {SAVED}")

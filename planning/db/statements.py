"""Trigger SQL for both databases as one value, and the migration step that runs it.

`TriggerSql` holds the statements of each database the project runs on (SQLite, the embedded
default, and PostgreSQL in production), in the order they run; `executing` makes a migration's
`RunPython` function of it, which runs the statements of the database being migrated.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.db.backends.base.schema import BaseDatabaseSchemaEditor


@dataclass(frozen=True)
class TriggerSql:
    """SQL statements for PostgreSQL and for SQLite, in the order they run."""

    postgresql: tuple[str, ...] = ()
    sqlite: tuple[str, ...] = ()

    def __add__(self, other: TriggerSql) -> TriggerSql:
        return TriggerSql(self.postgresql + other.postgresql, self.sqlite + other.sqlite)

    def statements(self, vendor: str) -> tuple[str, ...]:
        """The statements of the database `vendor` (Django's `connection.vendor`)."""
        if vendor == "postgresql":
            return self.postgresql
        if vendor == "sqlite":
            return self.sqlite
        raise NotImplementedError(f"planning has no trigger SQL for {vendor}")


def executing(sql: TriggerSql) -> Callable[[Any, BaseDatabaseSchemaEditor], None]:
    """A `RunPython` function that runs `sql` on the database the migration runs on."""

    def run(apps: Any, schema_editor: BaseDatabaseSchemaEditor) -> None:
        for statement in sql.statements(schema_editor.connection.vendor):
            schema_editor.execute(statement, params=None)

    return run

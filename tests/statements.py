"""The SQL a captured query ran."""

from __future__ import annotations

from django.db import connection


def statement_text(sql: str) -> str:
    """`sql`, or on PostgreSQL for an `EXECUTE` of a statement the connection prepared (the API's
    key and plan lookups, apikeys.lookup) that statement, as pg_prepared_statements holds
    it."""
    if not sql.startswith("EXECUTE "):
        return sql
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT statement FROM pg_prepared_statements WHERE name = %s", [sql.split()[1]]
        )
        prepared = str(cursor.fetchone()[0])  # "PREPARE <name> AS <statement>"
    return prepared.split(" AS ", 1)[1]

"""The natural order of names on PostgreSQL (core.text_order.NATURAL_COLLATION): ICU's root
locale with numeric ordering, so "Building 2" sorts before "Building 10" in SQL. SQLite gets
the same order from a Python collation registered on each connection (api.apps)."""

from __future__ import annotations

from typing import Any

from django.db import migrations

CREATE = (
    "CREATE COLLATION IF NOT EXISTS natural_order "
    "(provider = icu, locale = 'und-u-kn-true')"
)
DROP = "DROP COLLATION IF EXISTS natural_order"


def _create(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def _drop(apps: Any, schema_editor: Any) -> None:
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("planning", "0022_plan_versions")]

    operations = [migrations.RunPython(_create, _drop)]

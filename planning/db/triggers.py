"""Every trigger of a table of tracked entities, on both databases: what a database migrated to
the end has for `TRACKED` (tests/planning/test_db_triggers.py compares the two).

A migration that installs the triggers of one table only calls the generator of that table
(planning.db.change_log_triggers, planning.db.history_triggers) with the entry as it stood then.
"""

from __future__ import annotations

from collections.abc import Callable

from planning.db.change_log_triggers import (
    action_change,
    action_change_drop,
    catalog_currency_change,
    catalog_currency_change_drop,
    code_change,
    code_change_drop,
    code_override_change,
    code_override_change_drop,
    node_change,
    node_change_drop,
    plan_change,
    plan_change_drop,
)
from planning.db.history_triggers import history_triggers, history_triggers_drop
from planning.db.statements import TriggerSql
from planning.db.tracked import ChangeLog, Tracked, tracked_entry


def _change_log(
    tracked: tuple[Tracked, ...],
) -> dict[str, tuple[Callable[[ChangeLog], TriggerSql], Callable[[], TriggerSql]]]:
    """Each entity's change-log generator and its drop. A catalog change leaves rows for nodes
    with the same `old` columns as a change of the node itself."""
    node_log = tracked_entry(tracked, "node").change_log
    node_old = node_log.old if node_log is not None else ()
    return {
        "plan": (plan_change, plan_change_drop),
        "node": (node_change, node_change_drop),
        "action": (action_change, action_change_drop),
        "code": (lambda log: code_change(log, node_old=node_old), code_change_drop),
        "code_override": (
            lambda log: code_override_change(log, node_old=node_old),
            code_override_change_drop,
        ),
        "catalog": (catalog_currency_change, catalog_currency_change_drop),
    }


def triggers_create(tracked: tuple[Tracked, ...]) -> TriggerSql:
    """Every change-log and history trigger of `tracked` (and PostgreSQL's functions)."""
    generators = _change_log(tracked)
    sql = TriggerSql()
    for entry in tracked:
        if entry.change_log is not None:
            sql += generators[entry.entity][0](entry.change_log)
    return sql + history_triggers(tracked)


def triggers_drop(tracked: tuple[Tracked, ...]) -> TriggerSql:
    """Drops what `triggers_create(tracked)` makes."""
    generators = _change_log(tracked)
    sql = TriggerSql()
    for entry in tracked:
        if entry.change_log is not None:
            sql += generators[entry.entity][1]()
    return sql + history_triggers_drop(tracked)

"""The change-log triggers' SQL: every write that can change a plan's suggestions leaves a
`PlanChange` row its next sync claims (docs/subsystems/sync.md "Incremental: the change log").

One generator per table, each taking the table's `ChangeLog` (planning.db.tracked) as it stood
when the calling migration was written, and returning the statements of both databases. A
generator's output for a given argument never changes: a fresh database must get what it got
when each migration was written. Its trigger's shape changes only through a new generator (as
`code_change` replaced `code_change_every_plan`) and a migration that installs it.

A plan that was never synced gets no rows: its first sync re-derives everything anyway, and an
import of 100,000 actions would otherwise write (and its first sync delete) as many rows.
"""

# ruff: noqa: S608 - SQL built from this package's constants and table, never from input

from __future__ import annotations

from planning.db.statements import TriggerSql
from planning.db.tracked import EVERY_COLUMN, ChangeLog

CHANGE = "planning_planchange"
SYNCED = "FROM planning_plan p WHERE p.id = {row}.plan_id AND p.last_synced_at IS NOT NULL"
# A change holds a KEY SHARE lock on its plan's row until it commits: the sync's FOR UPDATE
# waits for it, and no change commits while a sync of the plan runs
# (planning/suggestions/sync/changes.py).
LOCK_NEW = "PERFORM 1 FROM planning_plan WHERE id = NEW.plan_id FOR KEY SHARE;"
LOCK_OLD = LOCK_NEW.replace("NEW.", "OLD.")


def _booleans(*, postgresql: list[str], sqlite: list[str]) -> TriggerSql:
    """The statements with each database's spelling of `{true}` and `{false}`."""
    return TriggerSql(
        tuple(s.replace("{true}", "true").replace("{false}", "false") for s in postgresql),
        tuple(s.replace("{true}", "1").replace("{false}", "0") for s in sqlite),
    )


def _drop(*, function: str, table: str, sqlite: tuple[str, ...]) -> TriggerSql:
    return TriggerSql(
        (f"DROP TRIGGER {function} ON {table}; DROP FUNCTION {function}();",),
        tuple(f"DROP TRIGGER {name};" for name in sqlite),
    )


def _require(log: ChangeLog, expected: ChangeLog, *, what: str) -> None:
    """Refuses a table entry this generator's trigger does not follow."""
    if log != expected:
        raise ValueError(f"{what} triggers follow {expected}, not {log}: write a new generator")


def _same(columns: tuple[str, ...], *, vendor: str) -> str:
    equal = "IS NOT DISTINCT FROM" if vendor == "postgresql" else "IS"
    return " AND ".join(f"NEW.{c} {equal} OLD.{c}" for c in columns)


def _changed(columns: tuple[str, ...], *, distinct: str) -> str:
    return " OR ".join(f"NEW.{c} {distinct} OLD.{c}" for c in columns)


# --- nodes and actions: every write marks the node (and, for a node, where it was) -----------


def _node_rows(old: tuple[str, ...]) -> tuple[str, str]:
    new = (
        f"INSERT INTO {CHANGE} (plan_id, node_id, catalog) "
        f"SELECT NEW.plan_id, NEW.id, {{false}} {SYNCED.format(row='NEW')};"
    )
    targets = ", ".join(("plan_id", "node_id", *(f"old_{c}" for c in old), "catalog"))
    values = ", ".join(("OLD.plan_id", "OLD.id", *(f"OLD.{c}" for c in old), "{false}"))
    return new, f"INSERT INTO {CHANGE} ({targets}) SELECT {values} {SYNCED.format(row='OLD')};"


def node_change(log: ChangeLog) -> TriggerSql:
    """A node written leaves a row; an update or delete also keeps its `log.old` columns."""
    _require(log, ChangeLog(nodes=EVERY_COLUMN, old=log.old), what="The node")
    node_new, node_old = _node_rows(log.old)
    postgresql = f"""
    CREATE FUNCTION planning_node_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'INSERT' THEN
        {LOCK_NEW}
        {node_new}
      ELSE
        {LOCK_OLD}
        {node_old}
        IF TG_OP = 'UPDATE' AND NEW.plan_id <> OLD.plan_id THEN
          {LOCK_NEW}
          {node_new}
        END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_node_change AFTER INSERT OR UPDATE OR DELETE
      ON planning_structurenode FOR EACH ROW EXECUTE FUNCTION planning_node_change();
    """
    on = "ON planning_structurenode"
    return _booleans(
        postgresql=[postgresql],
        sqlite=[
            f"CREATE TRIGGER planning_node_insert AFTER INSERT {on} BEGIN {node_new} END;",
            f"""CREATE TRIGGER planning_node_update AFTER UPDATE {on} BEGIN
      {node_old}
      {node_new.rstrip(";")} AND NEW.plan_id <> OLD.plan_id;
    END;""",
            f"CREATE TRIGGER planning_node_delete AFTER DELETE {on} BEGIN {node_old} END;",
        ],
    )


def node_change_drop() -> TriggerSql:
    return _drop(
        function="planning_node_change",
        table="planning_structurenode",
        sqlite=("planning_node_insert", "planning_node_update", "planning_node_delete"),
    )


def action_change(log: ChangeLog) -> TriggerSql:
    """An action written leaves a row with its node and planned year, before and after."""
    _require(log, ChangeLog(nodes=EVERY_COLUMN), what="The action")
    action_new = (
        f"INSERT INTO {CHANGE} (plan_id, node_id, action_id, year, catalog) "
        f"SELECT NEW.plan_id, NEW.node_id, NEW.id, NEW.planned_year, {{false}} "
        f"{SYNCED.format(row='NEW')};"
    )
    action_old = action_new.replace("NEW.", "OLD.")
    postgresql = f"""
    CREATE FUNCTION planning_action_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP IN ('UPDATE', 'DELETE') THEN
        {LOCK_OLD}
        {action_old}
      END IF;
      IF TG_OP IN ('INSERT', 'UPDATE') THEN
        {LOCK_NEW}
        {action_new}
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_action_change AFTER INSERT OR UPDATE OR DELETE
      ON planning_action FOR EACH ROW EXECUTE FUNCTION planning_action_change();
    """
    on = "ON planning_action"
    return _booleans(
        postgresql=[postgresql],
        sqlite=[
            f"CREATE TRIGGER planning_action_insert AFTER INSERT {on} BEGIN {action_new} END;",
            f"""CREATE TRIGGER planning_action_update AFTER UPDATE {on} BEGIN
      {action_old} {action_new}
    END;""",
            f"CREATE TRIGGER planning_action_delete AFTER DELETE {on} BEGIN {action_old} END;",
        ],
    )


def action_change_drop() -> TriggerSql:
    return _drop(
        function="planning_action_change",
        table="planning_action",
        sqlite=("planning_action_insert", "planning_action_update", "planning_action_delete"),
    )


# --- the code catalog ------------------------------------------------------------------------


def code_change_every_plan() -> TriggerSql:
    """The catalog's first triggers (migration 0006, replaced by `code_change` in 0026): any
    change of a code marks every synced plan once for a full sync."""
    catalog_row = f"""
    INSERT INTO {CHANGE} (plan_id, catalog)
    SELECT p.id, {{true}} FROM planning_plan p
    WHERE p.last_synced_at IS NOT NULL
      AND NOT EXISTS (SELECT 1 FROM {CHANGE} c WHERE c.plan_id = p.id AND c.catalog);
"""
    postgresql = f"""
    CREATE FUNCTION planning_catalog_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      {catalog_row}
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_catalog_change AFTER INSERT OR UPDATE OR DELETE
      ON planning_code FOR EACH STATEMENT EXECUTE FUNCTION planning_catalog_change();
    """
    return _booleans(
        postgresql=[postgresql],
        sqlite=[
            f"CREATE TRIGGER planning_catalog_{event.lower()} AFTER {event} ON planning_code "
            f"BEGIN {catalog_row} END;"
            for event in ("INSERT", "UPDATE", "DELETE")
        ],
    )


def code_change_every_plan_drop() -> TriggerSql:
    return _drop(
        function="planning_catalog_change",
        table="planning_code",
        sqlite=("planning_catalog_insert", "planning_catalog_update", "planning_catalog_delete"),
    )


def _nodes_of_code(
    row: str, code_column: str, *, node_old: tuple[str, ...], organisation: str = ""
) -> str:
    """Rows for the nodes using the code, as if each had changed (its current `node_old`
    columns stand for its state before), in the plans that were synced."""
    targets = ", ".join(("plan_id", "node_id", *(f"old_{c}" for c in node_old), "catalog"))
    values = ", ".join(("n.plan_id", "n.id", *(f"n.{c}" for c in node_old), "{false}"))
    return (
        f"INSERT INTO {CHANGE} "
        f"({targets}) "
        f"SELECT {values} "
        "FROM planning_structurenode n JOIN planning_plan p ON p.id = n.plan_id "
        f"WHERE n.code_id = {row}.{code_column} AND p.last_synced_at IS NOT NULL{organisation};"
    )


def _plans_seeing(row: str) -> str:
    """A full-sync row for every synced plan that can see the code (once per plan)."""
    return f"""
    INSERT INTO {CHANGE} (plan_id, catalog)
    SELECT p.id, {{true}} FROM planning_plan p
    WHERE p.last_synced_at IS NOT NULL
      AND ({row}.organisation_id IS NULL OR p.organisation_id = {row}.organisation_id)
      AND NOT EXISTS (SELECT 1 FROM {CHANGE} c WHERE c.plan_id = p.id AND c.catalog);
    """


def code_change(log: ChangeLog, *, node_old: tuple[str, ...]) -> TriggerSql:
    """A code added, deleted or changed in `log.plans` marks every synced plan that can see it
    (all, or its organisation's) for a full sync; a change of `log.nodes` only (its figures)
    leaves a row for each node that uses the code, with the node's `node_old` columns."""
    _require(log, ChangeLog(plans=log.plans, nodes=log.nodes), what="The code")
    nodes = _nodes_of_code("NEW", "id", node_old=node_old)
    postgresql = f"""
    CREATE FUNCTION planning_catalog_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF {_same(log.plans, vendor="postgresql")} THEN
          IF NOT ({_same(log.nodes, vendor="postgresql")}) THEN
            {nodes}
          END IF;
        ELSE
          {_plans_seeing("OLD")}
          {_plans_seeing("NEW")}
        END IF;
      ELSIF TG_OP = 'INSERT' THEN
        {_plans_seeing("NEW")}
      ELSE
        {_plans_seeing("OLD")}
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_catalog_change AFTER INSERT OR UPDATE OR DELETE
      ON planning_code FOR EACH ROW EXECUTE FUNCTION planning_catalog_change();
    """
    identity = _same(log.plans, vendor="sqlite")
    on = "ON planning_code"
    return _booleans(
        postgresql=[postgresql],
        sqlite=[
            f"CREATE TRIGGER planning_catalog_insert AFTER INSERT {on} "
            f"BEGIN {_plans_seeing('NEW')} END;",
            f"CREATE TRIGGER planning_catalog_delete AFTER DELETE {on} "
            f"BEGIN {_plans_seeing('OLD')} END;",
            f"CREATE TRIGGER planning_catalog_update AFTER UPDATE {on} "
            f"WHEN NOT ({identity}) BEGIN {_plans_seeing('OLD')} {_plans_seeing('NEW')} END;",
            f"CREATE TRIGGER planning_catalog_figures AFTER UPDATE {on} "
            f"WHEN {identity} AND NOT ({_same(log.nodes, vendor='sqlite')}) "
            f"BEGIN {nodes} END;",
        ],
    )


def code_change_drop() -> TriggerSql:
    return _drop(
        function="planning_catalog_change",
        table="planning_code",
        sqlite=(
            "planning_catalog_insert",
            "planning_catalog_update",
            "planning_catalog_delete",
            "planning_catalog_figures",
        ),
    )


def code_override_change(log: ChangeLog, *, node_old: tuple[str, ...]) -> TriggerSql:
    """An override written leaves a row for each node of its organisation's plans that uses its
    code (before and after, when the code or organisation changed)."""
    _require(log, ChangeLog(nodes=EVERY_COLUMN), what="The code override")

    def nodes(row: str) -> str:
        organisation = f" AND p.organisation_id = {row}.organisation_id"
        return _nodes_of_code(row, "code_id", node_old=node_old, organisation=organisation)

    moved = _same(("code_id", "organisation_id"), vendor="postgresql")
    postgresql = f"""
    CREATE FUNCTION planning_code_override_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        {nodes("OLD")}
      ELSE
        {nodes("NEW")}
        IF TG_OP = 'UPDATE' AND NOT ({moved})
        THEN
          {nodes("OLD")}
        END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_code_override_change AFTER INSERT OR UPDATE OR DELETE
      ON planning_codeoverride FOR EACH ROW EXECUTE FUNCTION planning_code_override_change();
    """
    on = "ON planning_codeoverride"
    return _booleans(
        postgresql=[postgresql],
        sqlite=[
            f"CREATE TRIGGER planning_code_override_insert AFTER INSERT {on} "
            f"BEGIN {nodes('NEW')} END;",
            f"CREATE TRIGGER planning_code_override_delete AFTER DELETE {on} "
            f"BEGIN {nodes('OLD')} END;",
            f"CREATE TRIGGER planning_code_override_update AFTER UPDATE {on} "
            f"BEGIN {nodes('NEW')} "
            f"{nodes('OLD').rstrip(';')}"
            f" AND NOT ({_same(('code_id', 'organisation_id'), vendor='sqlite')}); END;",
        ],
    )


def code_override_change_drop() -> TriggerSql:
    return _drop(
        function="planning_code_override_change",
        table="planning_codeoverride",
        sqlite=(
            "planning_code_override_insert",
            "planning_code_override_update",
            "planning_code_override_delete",
        ),
    )


# --- the currencies: rare changes, a full sync of each plan concerned -------------------------


def _mark(plans: str) -> str:
    """One full-sync row for each synced plan that `plans` (a WHERE on planning_plan p) names,
    once per plan."""
    return (
        f"INSERT INTO {CHANGE} (plan_id, catalog) SELECT p.id, {{true}} FROM planning_plan p "
        f"WHERE {plans} AND p.last_synced_at IS NOT NULL "
        f"AND NOT EXISTS (SELECT 1 FROM {CHANGE} c WHERE c.plan_id = p.id AND c.catalog);"
    )


def catalog_currency_change(log: ChangeLog) -> TriggerSql:
    """An organisation's catalog added, deleted, or changed in `log.plans` (its currency) marks
    the organisation's synced plans for a full sync."""
    _require(log, ChangeLog(plans=log.plans), what="The catalog")
    of_organisation = {
        row: _mark(f"p.organisation_id = {row}.organisation_id") for row in ("NEW", "OLD")
    }
    postgresql = f"""
    CREATE FUNCTION planning_catalog_currency_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        {of_organisation["OLD"]}
      ELSIF TG_OP = 'INSERT' OR {_changed(log.plans, distinct="IS DISTINCT FROM")} THEN
        {of_organisation["NEW"]}
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_catalog_currency_change AFTER INSERT OR UPDATE OR DELETE
      ON planning_organisationcatalog FOR EACH ROW
      EXECUTE FUNCTION planning_catalog_currency_change();
    """
    on = "ON planning_organisationcatalog"
    return _booleans(
        postgresql=[postgresql],
        sqlite=[
            f"CREATE TRIGGER planning_catalog_currency_insert AFTER INSERT {on} "
            f"BEGIN {of_organisation['NEW']} END;",
            f"CREATE TRIGGER planning_catalog_currency_update AFTER UPDATE OF "
            f"{', '.join(log.plans)} "
            f"{on} WHEN {_changed(log.plans, distinct='IS NOT')} "
            f"BEGIN {of_organisation['NEW']} END;",
            f"CREATE TRIGGER planning_catalog_currency_delete AFTER DELETE {on} "
            f"BEGIN {of_organisation['OLD']} END;",
        ],
    )


def catalog_currency_change_drop() -> TriggerSql:
    return _drop(
        function="planning_catalog_currency_change",
        table="planning_organisationcatalog",
        sqlite=(
            "planning_catalog_currency_insert",
            "planning_catalog_currency_update",
            "planning_catalog_currency_delete",
        ),
    )


def plan_change(log: ChangeLog) -> TriggerSql:
    """A plan changed in `log.plans` (its currency or organisation: which catalog figures it
    sees) is marked for a full sync."""
    _require(log, ChangeLog(plans=log.plans), what="The plan")
    of = ", ".join(log.plans)
    postgresql = f"""
    CREATE FUNCTION planning_plan_currency_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      {_mark("p.id = NEW.id")}
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_plan_currency_change AFTER UPDATE OF {of}
      ON planning_plan FOR EACH ROW
      WHEN ({_changed(log.plans, distinct="IS DISTINCT FROM")})
      EXECUTE FUNCTION planning_plan_currency_change();
    """
    return _booleans(
        postgresql=[postgresql],
        sqlite=[
            f"CREATE TRIGGER planning_plan_currency AFTER UPDATE OF {of} "
            f"ON planning_plan WHEN ({_changed(log.plans, distinct='IS NOT')}) "
            f"BEGIN {_mark('p.id = NEW.id')} END;",
        ],
    )


def plan_change_drop() -> TriggerSql:
    return _drop(
        function="planning_plan_currency_change",
        table="planning_plan",
        sqlite=("planning_plan_currency",),
    )

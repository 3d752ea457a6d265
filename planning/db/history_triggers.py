"""The history triggers' SQL: every change of a plan's data leaves a `HistoryEntry`, whatever
path made it (docs/subsystems/history.md "History"; who acted: planning.core.actor).

Generated from the `History` of each entry of a table of tracked entities (planning.db.tracked)
as it stood when the calling migration was written. A generator's output for a given argument
never changes: a fresh database must get what it got when each migration was written.

PostgreSQL runs one function for every entity, whose trigger arguments name the entity and its
columns; SQLite has a trigger per entity and event, which reads the actor from the one row of
`HistoryContext`.
"""

# ruff: noqa: S608 - SQL built from this package's constants and table, never from input

from __future__ import annotations

from collections.abc import Iterable

from planning.db.statements import TriggerSql
from planning.db.tracked import History, Tracked

OPERATION = {"INSERT": "create", "UPDATE": "update", "DELETE": "delete"}
ENTRY_COLUMNS = (
    "plan_id, at, actor_kind, actor_id, actor_label, entity, entity_uuid, entity_int, "
    "subject_uuid, entity_label, operation, changes, summary"
)
SQLITE_ACTOR = "(SELECT c.actor FROM planning_historycontext c WHERE c.id = 1)"


def _history(entry: Tracked) -> History:
    if entry.history is None:
        raise ValueError(f"{entry.entity} has no history")
    return entry.history


def _recorded(tracked: Iterable[Tracked]) -> list[tuple[Tracked, History]]:
    return [(entry, entry.history) for entry in tracked if entry.history is not None]


def _expressions(history: History, row: str) -> dict[str, str]:
    """The entry's plan, id, subject and label as SQL over the row `row`."""
    return {
        key: getattr(history, key).replace("R.", f"{row}.")
        for key in ("plan", "entity_uuid", "entity_int", "subject_uuid", "label")
    }


def history_function(tracked: Iterable[Tracked]) -> TriggerSql:
    """PostgreSQL's one function, with a branch for each entity of `tracked` that keeps history.
    The rows are compared as jsonb, so a value is recorded as PostgreSQL writes it in JSON."""
    branches: list[str] = []
    for entry, history in _recorded(tracked):
        expressions = _expressions(history, "r")
        branches.append(
            f"""
      {"IF" if not branches else "ELSIF"} TG_ARGV[0] = '{entry.entity}' THEN
        SELECT {expressions["plan"]}, {expressions["entity_uuid"]}, {expressions["entity_int"]},
               {expressions["subject_uuid"]}, {expressions["label"]}
          INTO plan, entity_uuid, entity_int, subject_uuid, label
          FROM (SELECT (jsonb_populate_record(NULL::{entry.table}, row_json)).*) AS r;"""
        )
    function = f"""
    CREATE FUNCTION planning_history_record() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      actor jsonb := NULLIF(current_setting('maintplan.actor', true), '')::jsonb;
      old_row jsonb;
      new_row jsonb;
      row_json jsonb;
      changes jsonb := '{{}}'::jsonb;
      column_name text;
      plan uuid;
      entity_uuid uuid;
      entity_int bigint;
      subject_uuid uuid;
      label text;
    BEGIN
      IF COALESCE((actor ->> 'quiet')::boolean, false) THEN
        RETURN NULL;
      END IF;
      IF TG_OP <> 'INSERT' THEN old_row := to_jsonb(OLD); END IF;
      IF TG_OP <> 'DELETE' THEN new_row := to_jsonb(NEW); END IF;
      FOREACH column_name IN ARRAY TG_ARGV[1:] LOOP
        IF (old_row -> column_name) IS DISTINCT FROM (new_row -> column_name) THEN
          changes := changes || jsonb_build_object(
            column_name, jsonb_build_array(old_row -> column_name, new_row -> column_name));
        END IF;
      END LOOP;
      IF changes = '{{}}'::jsonb THEN
        RETURN NULL;
      END IF;
      row_json := COALESCE(new_row, old_row);
      {"".join(branches)}
      END IF;
      IF plan IS NULL THEN
        RETURN NULL;
      END IF;
      INSERT INTO planning_historyentry ({ENTRY_COLUMNS})
      VALUES (plan, clock_timestamp(), COALESCE(actor ->> 'kind', 'system'),
              COALESCE(actor ->> 'id', ''), COALESCE(actor ->> 'label', ''), TG_ARGV[0],
              entity_uuid, entity_int, subject_uuid, LEFT(COALESCE(label, ''), 300),
              CASE TG_OP WHEN 'INSERT' THEN 'create' WHEN 'UPDATE' THEN 'update' ELSE 'delete' END,
              changes, '');
      RETURN NULL;
    END $$;
    """
    return TriggerSql(postgresql=(function,))


def history_function_drop() -> TriggerSql:
    return TriggerSql(postgresql=("DROP FUNCTION planning_history_record();",))


# SQLite's %f has milliseconds; Django writes and compares six digits of a second as text.
def _sqlite_trigger(entry: Tracked, history: History, event: str) -> str:
    row = "OLD" if event == "DELETE" else "NEW"
    pairs = []
    for column in history.columns:
        before = "NULL" if event == "INSERT" else f"OLD.{column}"
        after = "NULL" if event == "DELETE" else f"NEW.{column}"
        pairs.append(
            f"SELECT '{column}' AS k, json_array({before}, {after}) AS v "
            f"WHERE {before} IS NOT {after}"
        )
    changes = " UNION ALL ".join(pairs)
    expressions = _expressions(history, row)
    ids = ", ".join(expressions[key] for key in ("entity_uuid", "entity_int", "subject_uuid"))
    when = f"COALESCE(json_extract({SQLITE_ACTOR}, '$.quiet'), 0) = 0"
    if history.when:
        when += f" AND {history.when.replace('IS DISTINCT FROM', 'IS NOT')}"
    return f"""
    CREATE TRIGGER planning_history_{entry.entity}_{event.lower()} AFTER {event} ON {entry.table}
    WHEN {when}
    BEGIN
      INSERT INTO planning_historyentry ({ENTRY_COLUMNS})
      SELECT {expressions["plan"]}, strftime('%Y-%m-%d %H:%M:%f', 'now') || '000',
             COALESCE(json_extract(a.actor, '$.kind'), 'system'),
             COALESCE(json_extract(a.actor, '$.id'), ''),
             COALESCE(json_extract(a.actor, '$.label'), ''),
             '{entry.entity}', {ids},
             substr(COALESCE({expressions["label"]}, ''), 1, 300), '{OPERATION[event]}',
             d.changes, ''
      FROM (SELECT json_group_object(k, json(v)) AS changes, count(*) AS n FROM ({changes})) AS d
      LEFT JOIN (SELECT {SQLITE_ACTOR} AS actor) AS a ON 1
      WHERE d.n > 0 AND {expressions["plan"]} IS NOT NULL;
    END;"""


def history_trigger(entry: Tracked) -> TriggerSql:
    """The triggers of one entity: on PostgreSQL they call `history_function`'s function, which
    must exist and know the entity."""
    history = _history(entry)
    when = f" WHEN ({history.when})" if history.when else ""
    arguments = ", ".join(f"'{value}'" for value in (entry.entity, *history.columns))
    return TriggerSql(
        (
            f"CREATE TRIGGER planning_history_{entry.entity} AFTER {' OR '.join(history.events)} "
            f"ON {entry.table} FOR EACH ROW{when} "
            f"EXECUTE FUNCTION planning_history_record({arguments});",
        ),
        tuple(_sqlite_trigger(entry, history, event) for event in history.events),
    )


def history_trigger_drop(entry: Tracked) -> TriggerSql:
    history = _history(entry)
    return TriggerSql(
        (f"DROP TRIGGER planning_history_{entry.entity} ON {entry.table};",),
        tuple(
            f"DROP TRIGGER planning_history_{entry.entity}_{event.lower()};"
            for event in history.events
        ),
    )


def history_triggers(tracked: Iterable[Tracked]) -> TriggerSql:
    """The function and every entity's triggers."""
    recorded = _recorded(tracked)
    sql = history_function(entry for entry, _ in recorded)
    for entry, _ in recorded:
        sql += history_trigger(entry)
    return sql


def history_triggers_drop(tracked: Iterable[Tracked]) -> TriggerSql:
    sql = TriggerSql()
    for entry, _ in _recorded(tracked):
        sql += history_trigger_drop(entry)
    return sql + history_function_drop()

# The change history (docs/design.md "History"): the HistoryEntry table, the SQLite actor row,
# and the triggers that write an entry for every change of a plan's data on both databases.

from typing import Any

from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('planning', '0020_completion_estimate'),
    ]

    operations = [
        migrations.CreateModel(
            name='HistoryContext',
            fields=[
                ('id', models.PositiveSmallIntegerField(primary_key=True, serialize=False)),
                ('actor', models.TextField()),
            ],
        ),
        migrations.CreateModel(
            name='HistoryEntry',
            fields=[
                ('id', models.BigAutoField(primary_key=True, serialize=False)),
                ('plan_id', models.UUIDField()),
                ('at', models.DateTimeField()),
                ('actor_kind', models.CharField(choices=[('user', 'Person'), ('service', 'Service account'), ('import', 'Import'), ('system', 'System')], max_length=10)),
                ('actor_id', models.CharField(blank=True, max_length=64)),
                ('actor_label', models.CharField(blank=True, max_length=300)),
                ('entity', models.CharField(choices=[('plan', 'Plan'), ('node', 'Node'), ('action', 'Action'), ('project', 'Project'), ('grant', 'Guest'), ('completion', 'Completion'), ('suggestion', 'Suggestion')], max_length=12)),
                ('entity_uuid', models.UUIDField(null=True)),
                ('entity_int', models.BigIntegerField(null=True)),
                ('subject_uuid', models.UUIDField(null=True)),
                ('entity_label', models.CharField(blank=True, max_length=300)),
                ('operation', models.CharField(choices=[('create', 'added'), ('update', 'changed'), ('delete', 'deleted'), ('import', 'imported')], max_length=6)),
                ('changes', models.JSONField(default=dict)),
                ('summary', models.CharField(blank=True, max_length=300)),
            ],
            options={
                'indexes': [models.Index(fields=["plan_id", "-id"], name="history_plan_newest"), models.Index(fields=['entity_uuid'], name='history_entity'), models.Index(fields=['subject_uuid'], name='history_subject')],
            },
        ),
    ]


# What each entity's triggers record: its table, the columns whose before and after are kept
# (derived columns such as a node's path and building, timestamps and the plan's version are
# left out), and the SQL of its plan, id, subject and label for a row R (NEW or OLD).
ENTITIES: dict[str, dict[str, Any]] = {
    "plan": {
        "table": "planning_plan",
        "columns": [
            "name",
            "description",
            "organisation_id",
            "currency",
            "price_base_year",
            "index_rate_percent",
            "overhead_percent",
            "vat_percent",
            "annual_budget",
        ],
        "plan": "R.id",
        "uuid": "R.id",
        "int": "NULL",
        "subject": "NULL",
        "label": "R.name",
        "events": ("INSERT", "UPDATE"),  # a deleted plan's history goes with it
    },
    "node": {
        "table": "planning_structurenode",
        "columns": [
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
        ],
        "plan": "R.plan_id",
        "uuid": "R.id",
        "int": "NULL",
        "subject": "NULL",
        "label": "R.name",
        "events": ("INSERT", "UPDATE", "DELETE"),
    },
    "action": {
        "table": "planning_action",
        "columns": [
            "node_id",
            "title",
            "kind",
            "planned_year",
            "estimated_cost",
            "interval_years",
            "status",
            "project_id",
        ],
        "plan": "R.plan_id",
        "uuid": "R.id",
        "int": "NULL",
        "subject": "NULL",
        "label": "R.title",
        "events": ("INSERT", "UPDATE", "DELETE"),
    },
    "project": {
        "table": "planning_project",
        "columns": ["name", "year"],
        "plan": "R.plan_id",
        "uuid": "R.id",
        "int": "NULL",
        "subject": "NULL",
        "label": "R.name",
        "events": ("INSERT", "UPDATE", "DELETE"),
    },
    "grant": {
        "table": "planning_planmembership",
        "columns": ["user_id", "role"],
        "plan": "R.plan_id",
        "uuid": "NULL",
        "int": "R.id",
        "subject": "NULL",
        "label": "(SELECT u.email FROM accounts_user u WHERE u.id = R.user_id)",
        "events": ("INSERT", "UPDATE", "DELETE"),
    },
    "completion": {
        "table": "planning_completion",
        "columns": ["completed_on", "planned_year", "estimated_cost", "actual_cost", "by_id"],
        "plan": "(SELECT a.plan_id FROM planning_action a WHERE a.id = R.action_id)",
        "uuid": "NULL",
        "int": "R.id",
        "subject": "R.action_id",
        "label": "(SELECT a.title FROM planning_action a WHERE a.id = R.action_id)",
        "events": ("INSERT", "UPDATE", "DELETE"),
    },
    "suggestion": {  # dismissals and restores only: the sync's own changes are not history
        "table": "planning_suggestion",
        "columns": ["status", "dismiss_reason", "dismiss_comment"],
        "plan": "R.plan_id",
        "uuid": "R.id",
        "int": "NULL",
        "subject": "NULL",
        "label": "R.title",
        "events": ("UPDATE",),
        "when": "OLD.status IS DISTINCT FROM NEW.status "
        "AND (OLD.status = 'dismissed' OR NEW.status = 'dismissed')",
    },
}
OPERATION = {"INSERT": "create", "UPDATE": "update", "DELETE": "delete"}
ENTRY_COLUMNS = (
    "plan_id, at, actor_kind, actor_id, actor_label, entity, entity_uuid, entity_int, "
    "subject_uuid, entity_label, operation, changes, summary"
)


def _postgresql() -> list[str]:
    """One function for every entity: its arguments name the entity and its columns; the rows
    are compared as jsonb, so a value is recorded as PostgreSQL writes it in JSON."""
    branches: list[str] = []
    for entity, spec in ENTITIES.items():
        expressions = {
            key: spec[key].replace("R.", "r.") for key in ("plan", "uuid", "int", "subject", "label")
        }
        branches.append(
            f"""
      {'IF' if not branches else 'ELSIF'} TG_ARGV[0] = '{entity}' THEN
        SELECT {expressions['plan']}, {expressions['uuid']}, {expressions['int']},
               {expressions['subject']}, {expressions['label']}
          INTO plan, entity_uuid, entity_int, subject_uuid, label
          FROM (SELECT (jsonb_populate_record(NULL::{spec['table']}, row_json)).*) AS r;"""
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
      {''.join(branches)}
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
    statements = [function]
    for entity, spec in ENTITIES.items():
        when = f" WHEN ({spec['when']})" if "when" in spec else ""
        arguments = ", ".join(f"'{value}'" for value in (entity, *spec["columns"]))
        statements.append(
            f"CREATE TRIGGER planning_history_{entity} AFTER {' OR '.join(spec['events'])} "
            f"ON {spec['table']} FOR EACH ROW{when} "
            f"EXECUTE FUNCTION planning_history_record({arguments});"
        )
    return statements


def _postgresql_drop() -> list[str]:
    return [
        *(
            f"DROP TRIGGER planning_history_{entity} ON {spec['table']};"
            for entity, spec in ENTITIES.items()
        ),
        "DROP FUNCTION planning_history_record();",
    ]


SQLITE_ACTOR = "(SELECT c.actor FROM planning_historycontext c WHERE c.id = 1)"


# SQLite's %f has milliseconds; Django writes and compares six digits of a second as text.
def _sqlite_trigger(entity: str, spec: dict, event: str) -> str:
    row = "OLD" if event == "DELETE" else "NEW"
    pairs = []
    for column in spec["columns"]:
        before = "NULL" if event == "INSERT" else f"OLD.{column}"
        after = "NULL" if event == "DELETE" else f"NEW.{column}"
        pairs.append(
            f"SELECT '{column}' AS k, json_array({before}, {after}) AS v "
            f"WHERE {before} IS NOT {after}"
        )
    changes = " UNION ALL ".join(pairs)
    expressions = {
        key: spec[key].replace("R.", f"{row}.")
        for key in ("plan", "uuid", "int", "subject", "label")
    }
    when = f"COALESCE(json_extract({SQLITE_ACTOR}, '$.quiet'), 0) = 0"
    if "when" in spec:
        when += f" AND {spec['when'].replace('IS DISTINCT FROM', 'IS NOT')}"
    return f"""
    CREATE TRIGGER planning_history_{entity}_{event.lower()} AFTER {event} ON {spec['table']}
    WHEN {when}
    BEGIN
      INSERT INTO planning_historyentry ({ENTRY_COLUMNS})
      SELECT {expressions['plan']}, strftime('%Y-%m-%d %H:%M:%f', 'now') || '000',
             COALESCE(json_extract(a.actor, '$.kind'), 'system'),
             COALESCE(json_extract(a.actor, '$.id'), ''),
             COALESCE(json_extract(a.actor, '$.label'), ''),
             '{entity}', {expressions['uuid']}, {expressions['int']}, {expressions['subject']},
             substr(COALESCE({expressions['label']}, ''), 1, 300), '{OPERATION[event]}',
             d.changes, ''
      FROM (SELECT json_group_object(k, json(v)) AS changes, count(*) AS n FROM ({changes})) AS d
      LEFT JOIN (SELECT {SQLITE_ACTOR} AS actor) AS a ON 1
      WHERE d.n > 0 AND {expressions['plan']} IS NOT NULL;
    END;"""


def _sqlite() -> list[str]:
    return [
        _sqlite_trigger(entity, spec, event)
        for entity, spec in ENTITIES.items()
        for event in spec["events"]
    ]


def _sqlite_drop() -> list[str]:
    return [
        f"DROP TRIGGER planning_history_{entity}_{event.lower()};"
        for entity, spec in ENTITIES.items()
        for event in spec["events"]
    ]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor[schema_editor.connection.vendor]():
            schema_editor.execute(statement, params=None)

    return run


Migration.operations.append(
    migrations.RunPython(
        _run({"postgresql": _postgresql, "sqlite": _sqlite}),
        _run({"postgresql": _postgresql_drop, "sqlite": _sqlite_drop}),
    )
)

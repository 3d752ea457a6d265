# The change history (docs/subsystems/history.md "History"): the HistoryEntry table, the SQLite actor row,
# and the triggers that write an entry for every change of a plan's data on both databases.

from django.db import migrations, models

from planning.db.history_triggers import history_triggers, history_triggers_drop
from planning.db.statements import executing
from planning.db.tracked import History, Tracked

# The tracked table as it was here (planning.db.tracked): what each entity's triggers record,
# its table, the columns whose before and after are kept (derived columns such as a node's path
# and building, timestamps and the plan's version are left out), and the SQL of its plan, id,
# subject and label for a row R (NEW or OLD).
HISTORY = (
    Tracked(
        "plan",
        "planning_plan",
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
            ),
            plan="R.plan_id",
            entity_uuid="R.id",
            label="R.name",
        ),
    ),
    Tracked(
        "action",
        "planning_action",
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
)


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
        migrations.RunPython(
            executing(history_triggers(HISTORY)), executing(history_triggers_drop(HISTORY))
        ),
    ]


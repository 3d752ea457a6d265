# Condition surveys and attachments (docs/subsystems/surveys-and-files.md "Surveys and files").
# A node's consequence grade is added (ALTER TABLE on SQLite); its check constraint rebuilds
# planning_structurenode on SQLite, so the triggers are set aside around it (as in 0024). The
# history then records the new column and uploads and deletions of files: every history trigger
# is made again from the table as it stands here (PostgreSQL's one function gains a branch).

import uuid

import django.core.validators
import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

import planning.models.surveys
from planning.db.history_triggers import history_triggers, history_triggers_drop
from planning.db.rebuild import triggers_restore, triggers_set_aside
from planning.db.statements import executing
from planning.db.tracked import History, Tracked

# The history part of the tracked table (planning.db.tracked) as it was before this migration.
PLAN = Tracked(
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
            "markups",
        ),
        plan="R.id",
        entity_uuid="R.id",
        label="R.name",
        events=("INSERT", "UPDATE"),
    ),
)
NODE_COLUMNS = (
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
)


def _node(columns: tuple[str, ...]) -> Tracked:
    return Tracked(
        "node",
        "planning_structurenode",
        history=History(columns=columns, plan="R.plan_id", entity_uuid="R.id", label="R.name"),
    )


OTHERS = (
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
ATTACHMENT = Tracked(
    "attachment",
    "planning_attachment",
    history=History(
        columns=("kind", "original_name", "content_type", "size", "node_id", "action_id"),
        plan="R.plan_id",
        entity_uuid="R.id",
        subject_uuid="COALESCE(R.node_id, R.action_id)",
        label="R.original_name",
        events=("INSERT", "DELETE"),
    ),
)
BEFORE = (PLAN, _node(NODE_COLUMNS), *OTHERS)
AFTER = (PLAN, _node((*NODE_COLUMNS, "condition_consequence")), *OTHERS, ATTACHMENT)
HISTORY_AGAIN = history_triggers_drop(BEFORE) + history_triggers(AFTER)
HISTORY_BACK = history_triggers_drop(AFTER) + history_triggers(BEFORE)


class Migration(migrations.Migration):
    dependencies = [
        ("planning", "0032_planimport_problems_more"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name="Attachment",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "kind",
                    models.CharField(
                        choices=[("image", "Photo"), ("document", "Document")], max_length=10
                    ),
                ),
                ("file", models.FileField(max_length=300, upload_to="")),
                (
                    "thumbnail",
                    models.FileField(blank=True, max_length=300, null=True, upload_to=""),
                ),
                ("original_name", models.CharField(max_length=255)),
                ("content_type", models.CharField(max_length=100)),
                (
                    "size",
                    models.PositiveBigIntegerField(
                        validators=[django.core.validators.MinValueValidator(1)]
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
            ],
            options={
                "ordering": ("-created_at",),
            },
        ),
        migrations.CreateModel(
            name="ConditionSurvey",
            fields=[
                (
                    "id",
                    models.UUIDField(
                        default=uuid.uuid4, editable=False, primary_key=True, serialize=False
                    ),
                ),
                (
                    "grade",
                    models.PositiveSmallIntegerField(
                        choices=[
                            (0, "0: no symptoms"),
                            (1, "1: minor symptoms"),
                            (2, "2: moderate symptoms"),
                            (3, "3: severe symptoms"),
                        ],
                        error_messages={
                            "invalid_choice": "Enter a condition grade from 0 to 3.",
                            "null": "Enter a condition grade from 0 to 3.",
                        },
                        validators=[
                            django.core.validators.MaxValueValidator(
                                3, message="Enter a condition grade from 0 to 3."
                            )
                        ],
                        verbose_name="condition grade",
                    ),
                ),
                (
                    "consequence",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        choices=[
                            (0, "0: none"),
                            (1, "1: small"),
                            (2, "2: medium"),
                            (3, "3: large"),
                        ],
                        error_messages={"invalid_choice": "Enter a consequence grade from 0 to 3."},
                        null=True,
                        validators=[
                            django.core.validators.MaxValueValidator(
                                3, message="Enter a consequence grade from 0 to 3."
                            )
                        ],
                        verbose_name="consequence grade",
                    ),
                ),
                (
                    "note",
                    models.TextField(
                        blank=True,
                        default="",
                        max_length=2000,
                        validators=[
                            django.core.validators.MaxLengthValidator(
                                2000, message="Keep the note to 2,000 characters."
                            )
                        ],
                    ),
                ),
                (
                    "assessed_on",
                    models.DateField(validators=[planning.models.surveys.validate_assessed_on]),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True)),
                ("idempotency_key", models.CharField(blank=True, max_length=100, null=True)),
            ],
            options={
                "ordering": ("-assessed_on", "-created_at"),
            },
        ),
        migrations.AddField(
            model_name="structurenode",
            name="condition_consequence",
            field=models.PositiveSmallIntegerField(
                blank=True,
                choices=[(0, "0: none"), (1, "1: small"), (2, "2: medium"), (3, "3: large")],
                error_messages={"invalid_choice": "Enter a consequence grade from 0 to 3."},
                null=True,
                validators=[
                    django.core.validators.MaxValueValidator(
                        3, message="Enter a consequence grade from 0 to 3."
                    )
                ],
                verbose_name="consequence grade",
            ),
        ),
        migrations.AlterField(
            model_name="historyentry",
            name="entity",
            field=models.CharField(
                choices=[
                    ("plan", "Plan"),
                    ("node", "Node"),
                    ("action", "Action"),
                    ("project", "Project"),
                    ("grant", "Guest"),
                    ("completion", "Completion"),
                    ("suggestion", "Suggestion"),
                    ("attachment", "File"),
                ],
                max_length=12,
            ),
        ),
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
        migrations.AddConstraint(
            model_name="structurenode",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("condition_consequence__isnull", True),
                    ("condition_consequence__lte", 3),
                    _connector="OR",
                ),
                name="structure_node_condition_consequence_range",
            ),
        ),
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
        migrations.AddField(
            model_name="attachment",
            name="action",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="attachments",
                to="planning.action",
            ),
        ),
        migrations.AddField(
            model_name="attachment",
            name="node",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="attachments",
                to="planning.structurenode",
            ),
        ),
        migrations.AddField(
            model_name="attachment",
            name="plan",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="attachments",
                to="planning.plan",
            ),
        ),
        migrations.AddField(
            model_name="attachment",
            name="uploaded_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="conditionsurvey",
            name="assessed_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="conditionsurvey",
            name="node",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="surveys",
                to="planning.structurenode",
            ),
        ),
        migrations.AddField(
            model_name="conditionsurvey",
            name="plan",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="surveys",
                to="planning.plan",
            ),
        ),
        migrations.AddField(
            model_name="attachment",
            name="survey",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="attachments",
                to="planning.conditionsurvey",
            ),
        ),
        migrations.AddIndex(
            model_name="conditionsurvey",
            index=models.Index(
                fields=["node", "-assessed_on", "-created_at"], name="survey_node_latest"
            ),
        ),
        migrations.AddConstraint(
            model_name="conditionsurvey",
            constraint=models.CheckConstraint(
                condition=models.Q(("grade__lte", 3)), name="survey_grade_range"
            ),
        ),
        migrations.AddConstraint(
            model_name="conditionsurvey",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("consequence__isnull", True), ("consequence__lte", 3), _connector="OR"
                ),
                name="survey_consequence_range",
            ),
        ),
        migrations.AddConstraint(
            model_name="conditionsurvey",
            constraint=models.UniqueConstraint(
                condition=models.Q(("idempotency_key__isnull", False)),
                fields=("plan", "idempotency_key"),
                name="survey_idempotency_key_unique",
            ),
        ),
        migrations.AddIndex(
            model_name="attachment",
            index=models.Index(fields=["node", "-created_at"], name="attachment_node_newest"),
        ),
        migrations.AddIndex(
            model_name="attachment",
            index=models.Index(fields=["action", "-created_at"], name="attachment_action_newest"),
        ),
        migrations.AddConstraint(
            model_name="attachment",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("node__isnull", False), ("action__isnull", True)),
                    models.Q(("node__isnull", True), ("action__isnull", False)),
                    _connector="OR",
                ),
                name="attachment_node_or_action",
            ),
        ),
        migrations.AddConstraint(
            model_name="attachment",
            constraint=models.CheckConstraint(
                condition=models.Q(("kind__in", ["image", "document"])),
                name="attachment_kind_valid",
            ),
        ),
        migrations.RunPython(executing(HISTORY_AGAIN), executing(HISTORY_BACK), elidable=False),
    ]

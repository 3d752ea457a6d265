# The organisation's catalog (docs/subsystems/code-catalog.md "Code catalog"): own codes (Code.organisation), a
# code's interval, overrides of starter codes' figures, and the catalog's history.
#
# Code.code is unique among starter codes and within an organisation's own codes; changing that
# rebuilds planning_code on SQLite, which would drop its change triggers, so every trigger is set
# aside around the schema changes as in 0015. Then the catalog's change triggers are replaced:
# 0006 marked every synced plan for a full sync on any change of a code. Now a change of a code's
# figures only (unit cost, service life, interval) leaves a change row for each node that uses
# the code, in the plans that were synced, so exactly those plans re-derive exactly those nodes'
# scopes; an override's change does the same for the nodes of its organisation's plans. Any
# other change of a code (added, deleted, renamed, new keywords: what the missing-code prefill
# matches against) still marks every plan that can see the code (all, or its organisation's)
# for a full sync.

import django.core.validators
import django.db.models.deletion
import planning.models.fields
from django.conf import settings
from django.db import migrations, models

from planning.db.change_log_triggers import (
    code_change,
    code_change_drop,
    code_change_every_plan,
    code_change_every_plan_drop,
    code_override_change,
    code_override_change_drop,
)
from planning.db.rebuild import triggers_restore, triggers_set_aside
from planning.db.statements import executing
from planning.db.tracked import EVERY_COLUMN, ChangeLog

# The tracked table as it was here (planning.db.tracked): a code's identity and its figures,
# and the node's columns a change row keeps (those of migration 0010).
CODE = ChangeLog(
    plans=("code", "name", "unit", "keywords", "organisation_id"),
    nodes=("unit_cost", "service_life_years", "interval_years"),
)
CODE_OVERRIDE = ChangeLog(nodes=EVERY_COLUMN)
NODE_OLD = ("parent_id", "kind", "building_id", "path")

TRIGGERS = (
    code_change_every_plan_drop()
    + code_change(CODE, node_old=NODE_OLD)
    + code_override_change(CODE_OVERRIDE, node_old=NODE_OLD)
)
TRIGGERS_BACK = code_override_change_drop() + code_change_drop() + code_change_every_plan()


class Migration(migrations.Migration):
    dependencies = [
        ("organisations", "0002_invitations"),
        ("planning", "0025_budget_peak"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(triggers_set_aside, triggers_restore, elidable=False),
        migrations.CreateModel(
            name="CatalogChange",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                ("at", models.DateTimeField(auto_now_add=True)),
                ("code", models.CharField(max_length=20)),
                ("summary", models.CharField(max_length=300)),
                ("changes", models.JSONField(default=dict)),
            ],
        ),
        migrations.CreateModel(
            name="CodeOverride",
            fields=[
                ("id", models.BigAutoField(primary_key=True, serialize=False)),
                (
                    "unit_cost",
                    models.DecimalField(
                        blank=True,
                        decimal_places=2,
                        max_digits=12,
                        null=True,
                        validators=[
                            django.core.validators.MinValueValidator(
                                0, message="Cannot be negative."
                            )
                        ],
                    ),
                ),
                (
                    "service_life_years",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        null=True,
                        validators=[django.core.validators.MinValueValidator(1)],
                    ),
                ),
                (
                    "interval_years",
                    models.PositiveSmallIntegerField(
                        blank=True,
                        null=True,
                        validators=[
                            django.core.validators.MinValueValidator(
                                1, message="Enter a whole number of years between 1 and 100."
                            ),
                            django.core.validators.MaxValueValidator(
                                100, message="Enter a whole number of years between 1 and 100."
                            ),
                        ],
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.AddField(
            model_name="code",
            name="interval_years",
            field=models.PositiveSmallIntegerField(
                blank=True,
                help_text="How often the component needs its recurring maintenance.",
                null=True,
                validators=[
                    django.core.validators.MinValueValidator(
                        1, message="Enter a whole number of years between 1 and 100."
                    ),
                    django.core.validators.MaxValueValidator(
                        100, message="Enter a whole number of years between 1 and 100."
                    ),
                ],
                verbose_name="interval (years)",
            ),
        ),
        migrations.AddField(
            model_name="code",
            name="organisation",
            field=models.ForeignKey(
                blank=True,
                help_text="Empty: a starter code, shared by every plan.",
                null=True,
                on_delete=django.db.models.deletion.CASCADE,
                related_name="codes",
                to="organisations.organisation",
            ),
        ),
        migrations.AlterField(
            model_name="code",
            name="code",
            field=models.CharField(
                max_length=20, validators=[planning.models.fields.validate_not_blank]
            ),
        ),
        migrations.AlterField(
            model_name="code",
            name="name",
            field=models.CharField(
                max_length=200, validators=[planning.models.fields.validate_not_blank]
            ),
        ),
        migrations.AddConstraint(
            model_name="code",
            constraint=models.UniqueConstraint(
                condition=models.Q(("organisation__isnull", True)),
                fields=("code",),
                name="code_starter_code_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="code",
            constraint=models.UniqueConstraint(
                condition=models.Q(("organisation__isnull", False)),
                fields=("organisation", "code"),
                name="code_own_code_unique",
            ),
        ),
        migrations.AddConstraint(
            model_name="code",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("interval_years__isnull", True),
                    models.Q(("interval_years__gte", 1), ("interval_years__lte", 100)),
                    _connector="OR",
                ),
                name="code_interval_in_range",
            ),
        ),
        migrations.AddField(
            model_name="catalogchange",
            name="by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="catalogchange",
            name="organisation",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="catalog_changes",
                to="organisations.organisation",
            ),
        ),
        migrations.AddField(
            model_name="codeoverride",
            name="code",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="overrides",
                to="planning.code",
            ),
        ),
        migrations.AddField(
            model_name="codeoverride",
            name="organisation",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="code_overrides",
                to="organisations.organisation",
            ),
        ),
        migrations.AddIndex(
            model_name="catalogchange",
            index=models.Index(fields=["organisation", "-id"], name="catalog_change_newest"),
        ),
        migrations.AddConstraint(
            model_name="codeoverride",
            constraint=models.UniqueConstraint(
                fields=("organisation", "code"), name="code_override_one_per_organisation"
            ),
        ),
        migrations.AddConstraint(
            model_name="codeoverride",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("unit_cost__isnull", True), ("unit_cost__gte", 0), _connector="OR"
                ),
                name="code_override_unit_cost_not_negative",
            ),
        ),
        migrations.AddConstraint(
            model_name="codeoverride",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("service_life_years__isnull", True),
                    ("service_life_years__gte", 1),
                    _connector="OR",
                ),
                name="code_override_service_life_positive",
            ),
        ),
        migrations.AddConstraint(
            model_name="codeoverride",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("interval_years__isnull", True),
                    models.Q(("interval_years__gte", 1), ("interval_years__lte", 100)),
                    _connector="OR",
                ),
                name="code_override_interval_in_range",
            ),
        ),
        migrations.RunPython(triggers_restore, triggers_set_aside, elidable=False),
        migrations.RunPython(executing(TRIGGERS), executing(TRIGGERS_BACK), elidable=False),
    ]

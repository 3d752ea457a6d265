# The organisation's catalog (docs/design.md "Code catalog"): own codes (Code.organisation), a
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

import importlib

import django.core.validators
import django.db.models.deletion
import planning.models.fields
from django.conf import settings
from django.db import migrations, models


m0006 = importlib.import_module("planning.migrations.0006_plan_change")
m0015 = importlib.import_module("planning.migrations.0015_plan_organisation_required")

CHANGE = m0006.CHANGE


def _nodes_of_code(row: str, code_column: str, organisation: str = "") -> str:
    """Change rows for the nodes using the code, as if each had changed (its current parent,
    kind, building and path stand for its state before)."""
    return (
        f"INSERT INTO {CHANGE} "
        "(plan_id, node_id, old_parent_id, old_kind, old_building_id, old_path, catalog) "
        "SELECT n.plan_id, n.id, n.parent_id, n.kind, n.building_id, n.path, {false} "
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


OVERRIDE_ORGANISATION = " AND p.organisation_id = {row}.organisation_id"
IDENTITY = ("code", "name", "unit", "keywords")
FIGURES = ("unit_cost", "service_life_years", "interval_years")


def _same(columns: tuple[str, ...], *, vendor: str) -> str:
    equal = "IS NOT DISTINCT FROM" if vendor == "postgresql" else "IS"
    return " AND ".join(f"NEW.{c} {equal} OLD.{c}" for c in columns)


POSTGRESQL = [
    "DROP TRIGGER planning_catalog_change ON planning_code;"
    " DROP FUNCTION planning_catalog_change();",
    f"""
    CREATE FUNCTION planning_catalog_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'UPDATE' THEN
        IF {_same((*IDENTITY, "organisation_id"), vendor="postgresql")} THEN
          IF NOT ({_same(FIGURES, vendor="postgresql")}) THEN
            {_nodes_of_code("NEW", "id")}
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
    """,
    f"""
    CREATE FUNCTION planning_code_override_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        {_nodes_of_code("OLD", "code_id", OVERRIDE_ORGANISATION.format(row="OLD"))}
      ELSE
        {_nodes_of_code("NEW", "code_id", OVERRIDE_ORGANISATION.format(row="NEW"))}
        IF TG_OP = 'UPDATE' AND NOT ({_same(("code_id", "organisation_id"), vendor="postgresql")})
        THEN
          {_nodes_of_code("OLD", "code_id", OVERRIDE_ORGANISATION.format(row="OLD"))}
        END IF;
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_code_override_change AFTER INSERT OR UPDATE OR DELETE
      ON planning_codeoverride FOR EACH ROW EXECUTE FUNCTION planning_code_override_change();
    """,
]
POSTGRESQL_BACK = [
    "DROP TRIGGER planning_code_override_change ON planning_codeoverride;"
    " DROP FUNCTION planning_code_override_change();",
    "DROP TRIGGER planning_catalog_change ON planning_code;"
    " DROP FUNCTION planning_catalog_change();",
    m0006.POSTGRESQL[2],
]

_IDENTITY_SQLITE = _same((*IDENTITY, "organisation_id"), vendor="sqlite")
SQLITE = [
    "DROP TRIGGER planning_catalog_insert;",
    "DROP TRIGGER planning_catalog_update;",
    "DROP TRIGGER planning_catalog_delete;",
    f"CREATE TRIGGER planning_catalog_insert AFTER INSERT ON planning_code "
    f"BEGIN {_plans_seeing('NEW')} END;",
    f"CREATE TRIGGER planning_catalog_delete AFTER DELETE ON planning_code "
    f"BEGIN {_plans_seeing('OLD')} END;",
    f"CREATE TRIGGER planning_catalog_update AFTER UPDATE ON planning_code "
    f"WHEN NOT ({_IDENTITY_SQLITE}) BEGIN {_plans_seeing('OLD')} {_plans_seeing('NEW')} END;",
    f"CREATE TRIGGER planning_catalog_figures AFTER UPDATE ON planning_code "
    f"WHEN {_IDENTITY_SQLITE} AND NOT ({_same(FIGURES, vendor='sqlite')}) "
    f"BEGIN {_nodes_of_code('NEW', 'id')} END;",
    f"CREATE TRIGGER planning_code_override_insert AFTER INSERT ON planning_codeoverride "
    f"BEGIN {_nodes_of_code('NEW', 'code_id', OVERRIDE_ORGANISATION.format(row='NEW'))} END;",
    f"CREATE TRIGGER planning_code_override_delete AFTER DELETE ON planning_codeoverride "
    f"BEGIN {_nodes_of_code('OLD', 'code_id', OVERRIDE_ORGANISATION.format(row='OLD'))} END;",
    f"CREATE TRIGGER planning_code_override_update AFTER UPDATE ON planning_codeoverride "
    f"BEGIN {_nodes_of_code('NEW', 'code_id', OVERRIDE_ORGANISATION.format(row='NEW'))} "
    f"{_nodes_of_code('OLD', 'code_id', OVERRIDE_ORGANISATION.format(row='OLD')).rstrip(';')}"
    f" AND NOT ({_same(('code_id', 'organisation_id'), vendor='sqlite')}); END;",
]
SQLITE_BACK = [
    *(
        f"DROP TRIGGER {name};"
        for name in (
            "planning_catalog_insert",
            "planning_catalog_update",
            "planning_catalog_delete",
            "planning_catalog_figures",
            "planning_code_override_insert",
            "planning_code_override_update",
            "planning_code_override_delete",
        )
    ),
    *(s for s in m0006.SQLITE if "ON planning_code " in s),
]


class Migration(migrations.Migration):
    dependencies = [
        ("organisations", "0002_invitations"),
        ("planning", "0025_budget_peak"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RunPython(m0015.triggers_set_aside, m0015.triggers_restore, elidable=False),
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
        migrations.RunPython(m0015.triggers_restore, m0015.triggers_set_aside, elidable=False),
        migrations.RunPython(
            m0006._run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            m0006._run({"postgresql": POSTGRESQL_BACK, "sqlite": SQLITE_BACK}),
            elidable=False,
        ),
    ]

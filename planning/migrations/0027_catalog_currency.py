# The currency of an organisation's catalog (docs/design.md "Code catalog" > "Currency").
#
# OrganisationCatalog holds the currency of an organisation's own figures (overrides, own codes);
# a starter code's own figures are in EUR (planning.catalog.starter.STARTER_CURRENCY). Every existing
# organisation gets the currency most of its plans are in (its figures were compared with those
# plans until now), else the default currency of new plans; every synced plan whose suggestions
# could change (a plan or a catalog not in EUR) is marked for a full sync.
#
# Then two change triggers (docs/design.md "Sync" > "Incremental: the change log"): a catalog's
# currency set, changed or removed, and a plan's currency or organisation changed, mark the
# synced plans concerned for a full sync (one `catalog` change row per plan), whatever path made
# the change. Both are rare; a full sync of each plan is simpler than finding the nodes.

import django.core.validators
import django.db.models.deletion
from collections import Counter
from django.conf import settings
from django.db import migrations, models

STARTER_CURRENCY = "EUR"  # planning.catalog.starter.STARTER_CURRENCY when this was written

CHANGE = "planning_planchange"


def _mark(plans: str) -> str:
    """One full-sync row for each synced plan that `plans` (a WHERE on planning_plan p) names,
    once per plan."""
    return (
        f"INSERT INTO {CHANGE} (plan_id, catalog) SELECT p.id, {{true}} FROM planning_plan p "
        f"WHERE {plans} AND p.last_synced_at IS NOT NULL "
        f"AND NOT EXISTS (SELECT 1 FROM {CHANGE} c WHERE c.plan_id = p.id AND c.catalog);"
    )


def _of_organisation(row: str) -> str:
    return _mark(f"p.organisation_id = {row}.organisation_id")


PLAN_MOVED = "(NEW.currency {distinct} OLD.currency OR NEW.organisation_id {distinct} OLD.organisation_id)"

POSTGRESQL = [
    f"""
    CREATE FUNCTION planning_catalog_currency_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF TG_OP = 'DELETE' THEN
        {_of_organisation("OLD")}
      ELSIF TG_OP = 'INSERT' OR NEW.currency IS DISTINCT FROM OLD.currency THEN
        {_of_organisation("NEW")}
      END IF;
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_catalog_currency_change AFTER INSERT OR UPDATE OR DELETE
      ON planning_organisationcatalog FOR EACH ROW
      EXECUTE FUNCTION planning_catalog_currency_change();
    """,
    f"""
    CREATE FUNCTION planning_plan_currency_change() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      {_mark("p.id = NEW.id")}
      RETURN NULL;
    END $$;
    CREATE TRIGGER planning_plan_currency_change AFTER UPDATE OF currency, organisation_id
      ON planning_plan FOR EACH ROW
      WHEN {PLAN_MOVED.format(distinct="IS DISTINCT FROM")}
      EXECUTE FUNCTION planning_plan_currency_change();
    """,
]
POSTGRESQL_BACK = [
    "DROP TRIGGER planning_plan_currency_change ON planning_plan;"
    " DROP FUNCTION planning_plan_currency_change();",
    "DROP TRIGGER planning_catalog_currency_change ON planning_organisationcatalog;"
    " DROP FUNCTION planning_catalog_currency_change();",
]

SQLITE = [
    "CREATE TRIGGER planning_catalog_currency_insert AFTER INSERT ON planning_organisationcatalog "
    f"BEGIN {_of_organisation('NEW')} END;",
    "CREATE TRIGGER planning_catalog_currency_update AFTER UPDATE OF currency "
    "ON planning_organisationcatalog WHEN NEW.currency IS NOT OLD.currency "
    f"BEGIN {_of_organisation('NEW')} END;",
    "CREATE TRIGGER planning_catalog_currency_delete AFTER DELETE ON planning_organisationcatalog "
    f"BEGIN {_of_organisation('OLD')} END;",
    "CREATE TRIGGER planning_plan_currency AFTER UPDATE OF currency, organisation_id "
    f"ON planning_plan WHEN {PLAN_MOVED.format(distinct='IS NOT')} "
    f"BEGIN {_mark('p.id = NEW.id')} END;",
]
SQLITE_BACK = [
    f"DROP TRIGGER {name};"
    for name in (
        "planning_catalog_currency_insert",
        "planning_catalog_currency_update",
        "planning_catalog_currency_delete",
        "planning_plan_currency",
    )
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        vendor = schema_editor.connection.vendor
        true = "true" if vendor == "postgresql" else "1"
        for statement in statements_by_vendor[vendor]:
            schema_editor.execute(statement.replace("{true}", true), params=None)

    return run


def catalogs_create(apps, schema_editor):
    Organisation = apps.get_model("organisations", "Organisation")
    OrganisationCatalog = apps.get_model("planning", "OrganisationCatalog")
    Plan = apps.get_model("planning", "Plan")
    PlanChange = apps.get_model("planning", "PlanChange")
    currencies: dict = {}
    for organisation_id, currency in Plan.objects.values_list("organisation_id", "currency"):
        currencies.setdefault(organisation_id, Counter())[currency] += 1
    catalogs = []
    for organisation_id in Organisation.objects.values_list("id", flat=True):
        counted = currencies.get(organisation_id)
        # The most common, ties to the first in the alphabet: the same answer on every run.
        currency = (
            min(counted.items(), key=lambda item: (-item[1], item[0]))[0]
            if counted
            else settings.PLAN_DEFAULT_CURRENCY
        )
        catalogs.append(OrganisationCatalog(organisation_id=organisation_id, currency=currency))
    OrganisationCatalog.objects.bulk_create(catalogs, batch_size=1000)
    in_euro = {c.organisation_id for c in catalogs if c.currency == STARTER_CURRENCY}
    marked = set(
        PlanChange.objects.filter(catalog=True).values_list("plan_id", flat=True).distinct()
    )
    PlanChange.objects.bulk_create(
        [
            PlanChange(plan_id=plan_id, catalog=True)
            for plan_id, organisation_id, currency in Plan.objects.filter(
                last_synced_at__isnull=False
            ).values_list("id", "organisation_id", "currency")
            if (currency != STARTER_CURRENCY or organisation_id not in in_euro)
            and plan_id not in marked
        ],
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [
        ("organisations", "0002_invitations"),
        ("planning", "0026_organisation_catalog"),
    ]

    operations = [
        migrations.CreateModel(
            name="OrganisationCatalog",
            fields=[
                (
                    "organisation",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="catalog",
                        serialize=False,
                        to="organisations.organisation",
                    ),
                ),
                (
                    "currency",
                    models.CharField(
                        help_text="ISO 4217 code of the organisation's own figures, e.g. EUR, SEK.",
                        max_length=3,
                        validators=[
                            django.core.validators.RegexValidator(
                                "^[A-Z]{3}\\Z",
                                message="Enter a 3-letter currency code such as EUR or USD.",
                            )
                        ],
                    ),
                ),
                ("updated_at", models.DateTimeField(auto_now=True)),
            ],
        ),
        migrations.RunPython(catalogs_create, migrations.RunPython.noop, elidable=False),
        migrations.RunPython(
            _run({"postgresql": POSTGRESQL, "sqlite": SQLITE}),
            _run({"postgresql": POSTGRESQL_BACK, "sqlite": SQLITE_BACK}),
            elidable=False,
        ),
    ]

# The currency of an organisation's catalog (docs/subsystems/code-catalog.md "Currency").
#
# OrganisationCatalog holds the currency of an organisation's own figures (overrides, own codes);
# a starter code's own figures are in EUR (planning.catalog.starter.STARTER_CURRENCY). Every existing
# organisation gets the currency most of its plans are in (its figures were compared with those
# plans until now), else the default currency of new plans; every synced plan whose suggestions
# could change (a plan or a catalog not in EUR) is marked for a full sync.
#
# Then two change triggers (docs/subsystems/sync.md "Incremental: the change log"): a catalog's
# currency set, changed or removed, and a plan's currency or organisation changed, mark the
# synced plans concerned for a full sync (one `catalog` change row per plan), whatever path made
# the change. Both are rare; a full sync of each plan is simpler than finding the nodes.

import django.core.validators
import django.db.models.deletion
from collections import Counter
from django.conf import settings
from django.db import migrations, models

from planning.db.change_log_triggers import (
    catalog_currency_change,
    catalog_currency_change_drop,
    plan_change,
    plan_change_drop,
)
from planning.db.statements import executing
from planning.db.tracked import ChangeLog

STARTER_CURRENCY = "EUR"  # planning.catalog.starter.STARTER_CURRENCY when this was written

# The tracked table as it was here (planning.db.tracked).
CATALOG = ChangeLog(plans=("currency",))
PLAN = ChangeLog(plans=("currency", "organisation_id"))


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
            executing(catalog_currency_change(CATALOG) + plan_change(PLAN)),
            executing(plan_change_drop() + catalog_currency_change_drop()),
            elidable=False,
        ),
    ]

"""Migration 0027 on the data of before it (docs/subsystems/code-catalog.md "Currency"): every
organisation's catalog takes the currency most of its plans are in, and the synced plans whose
suggestions can change are marked for a full sync.

It moves the schema with Django's MigrationExecutor, so it runs outside a transaction and leaves
the database at the latest migration whatever happens (as test_migration_organisations.py).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.apps.registry import Apps
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from planning.models import OrganisationCatalog, Plan, PlanChange

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(targets: list[tuple[str, str]]) -> Apps:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    executor.loader.build_graph()
    return executor.loader.project_state(targets).apps


@pytest.fixture
def before() -> Iterator[Apps]:
    try:
        yield _migrate([("planning", "0026_organisation_catalog")])
    finally:
        _migrate(list(MigrationExecutor(connection).loader.graph.leaf_nodes()))


def test_catalogs_take_their_plans_currency_and_plans_that_can_change_resync(
    before: Apps,
) -> None:
    OldOrganisation = before.get_model("organisations", "Organisation")
    OldPlan = before.get_model("planning", "Plan")
    synced = timezone.now()
    swedish = OldOrganisation.objects.create(name="Swedish", slug="swedish")
    euro = OldOrganisation.objects.create(name="Euro", slug="euro")
    OldOrganisation.objects.create(name="Empty", slug="empty")  # no plans
    plans = {}
    for number, (organisation, currency) in enumerate(
        [(swedish, "SEK"), (swedish, "SEK"), (swedish, "EUR"), (euro, "EUR"), (euro, "EUR")],
        start=901,
    ):
        plans[number] = OldPlan.objects.create(
            number=number,
            name=f"Plan {number}",
            organisation=organisation,
            currency=currency,
            last_synced_at=synced if number != 905 else None,
        ).pk

    _migrate(list(MigrationExecutor(connection).loader.graph.leaf_nodes()))

    currencies = dict(
        OrganisationCatalog.objects.values_list("organisation__slug", "currency").filter(
            organisation__slug__in=["swedish", "euro", "empty"]
        )
    )
    assert currencies == {"swedish": "SEK", "euro": "EUR", "empty": "EUR"}
    # Only this test's plans: the migration marks every synced plan of the database, and a
    # transactional test starts from whatever the tests before it left (CI once found a fourth,
    # synced plan there).
    marked = set(
        PlanChange.objects.filter(catalog=True, plan_id__in=plans.values()).values_list(
            "plan_id", flat=True
        )
    )
    # Every synced plan of the SEK catalog (its EUR plan loses the SEK figures), none of the
    # EUR catalog's EUR plans; never a plan that was never synced.
    assert marked == {plans[901], plans[902], plans[903]}

    # The triggers are in place: a plan's currency changed by any path marks it.
    Plan.objects.filter(pk=plans[904]).update(currency="NOK")
    assert PlanChange.objects.filter(plan_id=plans[904], catalog=True).exists()

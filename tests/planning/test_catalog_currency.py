"""The currency of catalog figures (planning.catalog.currency; docs/subsystems/code-catalog.md
"Currency"): a reference unit cost counts for a plan only in the plan's currency: rule 2's cost
check, "Set cost to reference", the condition's repair, the pages that show a reference, the
learned references; and a change of either currency re-derives the plans concerned."""

from __future__ import annotations

import datetime
from decimal import Decimal
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from organisations.models import Organisation, OrganisationRole
from planning.catalog.services import code_override_set
from planning.models import (
    ActionKind,
    Code,
    Completion,
    NodeKind,
    OrganisationCatalog,
    Plan,
    PlanChange,
    PlanRole,
    StructureNode,
    Suggestion,
)
from planning.plans.services.plans import plan_update
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import (
    ActionFactory,
    CodeFactory,
    OrganisationFactory,
    OrganisationMembershipFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db

COST_FIX = "Set cost to reference"


def _planning(client: Client, plan: Plan) -> str:
    return client.get(reverse("planning:action_planning", args=[plan.number])).content.decode()


def _node_page(client: Client, node: StructureNode) -> str:
    url = reverse("planning:node_detail", args=[node.plan.number, node.pk])
    return client.get(url).content.decode()


def _roof_plan(
    user: Any, *, currency: str, code: Code, organisation: Organisation | None = None
) -> tuple[Plan, StructureNode]:
    """A plan whose roof (10 m2 of `code`) has a replacement estimated at 3,000: three times a
    reference of 100 per m2, a critical cost deviation where the reference counts."""
    plan = PlanFactory.create(
        currency=currency, organisation=organisation or OrganisationFactory.create()
    )
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    roof = StructureNodeFactory.create(
        plan=plan, name="Roof", code=code, quantity=Decimal("10"), unit="m2"
    )
    ActionFactory.create(
        node=roof,
        plan=plan,
        title="New roof",
        kind=ActionKind.REPLACEMENT,
        planned_year=2030,
        estimated_cost=Decimal("3000.00"),
    )
    return plan, roof


def _cost_deviation(plan: Plan) -> Suggestion | None:
    return Suggestion.objects.filter(
        plan=plan, status="open", fingerprint__startswith="deviation:cost:"
    ).first()


@pytest.fixture
def owner(client: Client) -> Any:
    user = UserFactory.create()
    client.force_login(user)
    return user


@pytest.fixture
def starter() -> Code:
    """A starter code: its own unit cost (100 per m2) is in EUR."""
    return CodeFactory.create(code="S-1", name="Roof tiles", unit_cost=Decimal("100.00"))


def test_a_sek_plan_gets_no_cost_deviation_and_no_reference_button_from_the_eur_starter(
    client: Client, owner: Any, starter: Code
) -> None:
    euro, _ = _roof_plan(owner, currency="EUR", code=starter)
    krona, roof = _roof_plan(owner, currency="SEK", code=starter)

    in_euro = _planning(client, euro)
    in_krona = _planning(client, krona)

    assert "deviates from the reference" in in_euro
    assert f"{COST_FIX} (1,000.00\xa0EUR)" in in_euro
    assert _cost_deviation(krona) is None
    assert "deviates from the reference" not in in_krona
    assert COST_FIX not in in_krona
    node_page = _node_page(client, roof)
    assert "The reference cost is in EUR; this plan is in SEK." in node_page
    assert "Reference cost:" not in node_page


def test_the_node_page_shows_a_reference_in_the_plans_currency(
    client: Client, owner: Any, starter: Code
) -> None:
    _, roof = _roof_plan(owner, currency="EUR", code=starter)

    page = _node_page(client, roof)

    assert "Reference cost: 100.00\xa0EUR per m2, 1,000.00\xa0EUR for 10 m2." in page
    assert "this plan is in" not in page


def test_set_cost_to_reference_in_another_currency_is_refused_and_writes_nothing(
    client: Client, owner: Any, starter: Code
) -> None:
    plan, roof = _roof_plan(owner, currency="EUR", code=starter)
    suggestion_sync(plan=plan)
    deviation = _cost_deviation(plan)
    assert deviation is not None
    # The plan turns SEK behind the sync's back (a raw update, no sync yet): the stored
    # deviation and its EUR reference are still there when the POST comes.
    Plan.objects.filter(pk=plan.pk).update(currency="SEK")
    apply_url = reverse("planning:suggestion_apply", args=[plan.number, deviation.pk])

    page = client.post(apply_url, {"fix": "cost"}, follow=True).content.decode()

    assert "The reference cost is in EUR; this plan is in SEK. The cost was not changed." in page
    assert roof.actions.get().estimated_cost == Decimal("3000.00")
    deviation.refresh_from_db()
    assert deviation.status == "resolved" and deviation.resolution == "auto"  # the page synced
    assert COST_FIX not in page


def test_an_edit_opened_from_a_deviation_says_the_reference_is_in_another_currency(
    client: Client, owner: Any, starter: Code
) -> None:
    plan, roof = _roof_plan(owner, currency="EUR", code=starter)
    suggestion_sync(plan=plan)
    deviation = _cost_deviation(plan)
    assert deviation is not None
    Plan.objects.filter(pk=plan.pk).update(currency="SEK")
    action = roof.actions.get()

    page = client.get(
        reverse("planning:action_edit", args=[plan.number, action.pk]),
        {"suggestion": str(deviation.pk)},
    ).content.decode()

    assert "The reference cost is in EUR; this plan is in SEK." in page
    assert "Reference: 1,000.00" not in page


def test_a_sek_catalog_gives_a_sek_plan_its_deviation_from_an_override_and_an_own_code(
    client: Client, owner: Any, starter: Code
) -> None:
    organisation = OrganisationFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=owner, role=OrganisationRole.OWNER
    )
    catalog_url = reverse("catalog:catalog", args=[organisation.slug])
    said = client.post(
        reverse("catalog:currency", args=[organisation.slug]),
        {"currency-currency": "sek"},
        follow=True,
    ).content.decode()
    assert "Your figures are now in SEK: plans in SEK compare their costs with them." in said
    assert "Catalog currency changed from EUR to SEK" in said  # its history
    code_override_set(
        organisation=organisation, user=owner, code=starter, figures={"unit_cost": Decimal("90")}
    )
    own = CodeFactory.create(
        organisation=organisation, code="X-1", name="Sauna", unit_cost=Decimal("95")
    )
    plan, roof = _roof_plan(owner, currency="SEK", code=starter, organisation=organisation)
    sauna = StructureNodeFactory.create(plan=plan, name="Sauna", code=own, quantity=Decimal("10"))
    ActionFactory.create(
        node=sauna, plan=plan, kind=ActionKind.REPLACEMENT, estimated_cost=Decimal("3000.00")
    )

    page = _planning(client, plan)

    assert f"{COST_FIX} (900.00\xa0SEK)" in page
    assert f"{COST_FIX} (950.00\xa0SEK)" in page
    assert "Reference cost: 90.00\xa0SEK per m2" in _node_page(client, roof)
    catalog = client.get(catalog_url, {"q": "S-1"}).content.decode()
    assert "Your figures are in <strong>SEK</strong>" in catalog
    assert "90.00\xa0SEK" in catalog


def test_a_starter_figure_without_an_override_stays_eur_in_a_sek_catalog(
    client: Client, owner: Any, starter: Code
) -> None:
    organisation = OrganisationFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=owner, role=OrganisationRole.OWNER
    )
    OrganisationCatalog.objects.filter(organisation=organisation).update(currency="SEK")
    plan, _ = _roof_plan(owner, currency="SEK", code=starter, organisation=organisation)

    page = _planning(client, plan)
    catalog = client.get(
        reverse("catalog:catalog", args=[organisation.slug]), {"q": "S-1"}
    ).content.decode()

    assert COST_FIX not in page and _cost_deviation(plan) is None
    assert "100.00\xa0EUR" in catalog  # the starter's own figure, in its own currency
    assert "the starter figures are in EUR" in catalog


def test_changing_a_plans_currency_re_derives_its_cost_deviations(
    owner: Any, starter: Code
) -> None:
    plan, _ = _roof_plan(owner, currency="EUR", code=starter)
    suggestion_sync(plan=plan)
    deviation = _cost_deviation(plan)
    assert deviation is not None

    plan_update(plan=plan, name=plan.name, description="", currency="SEK")
    assert PlanChange.objects.filter(plan_id=plan.pk, catalog=True).exists()
    suggestion_sync(plan=plan)

    assert _cost_deviation(plan) is None
    deviation.refresh_from_db()
    assert (deviation.status, deviation.resolution) == ("resolved", "auto")

    Plan.objects.filter(pk=plan.pk).update(currency="EUR")  # any path, raw updates too
    suggestion_sync(plan=plan)

    reopened = _cost_deviation(plan)
    assert reopened is not None and reopened.pk == deviation.pk
    assert suggestion_sync(plan=plan, full=True).changed is False


def test_changing_a_catalogs_currency_re_derives_its_organisations_plans_only(
    client: Client, owner: Any, starter: Code
) -> None:
    mine, theirs = OrganisationFactory.create(), OrganisationFactory.create()
    OrganisationMembershipFactory.create(organisation=mine, user=owner, role=OrganisationRole.OWNER)
    code_override_set(
        organisation=mine, user=None, code=starter, figures={"unit_cost": Decimal("100")}
    )
    my_plan, _ = _roof_plan(owner, currency="EUR", code=starter, organisation=mine)
    their_plan, _ = _roof_plan(owner, currency="EUR", code=starter, organisation=theirs)
    for plan in (my_plan, their_plan):
        suggestion_sync(plan=plan)
    assert _cost_deviation(my_plan) is not None

    client.post(reverse("catalog:currency", args=[mine.slug]), {"currency-currency": "SEK"})

    assert PlanChange.objects.filter(plan_id=my_plan.pk, catalog=True).exists()
    assert not PlanChange.objects.filter(plan_id=their_plan.pk).exists()
    assert f"{COST_FIX} (1,000.00\xa0EUR)" not in _planning(client, my_plan)
    assert _cost_deviation(my_plan) is None  # the override is SEK now; the plan is EUR
    assert _cost_deviation(their_plan) is not None

    OrganisationCatalog.objects.filter(organisation=mine).delete()  # back to the default, EUR

    assert f"{COST_FIX} (1,000.00\xa0EUR)" in _planning(client, my_plan)


def test_a_bad_catalog_currency_is_refused_with_the_models_message(
    client: Client, owner: Any
) -> None:
    organisation = OrganisationFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=owner, role=OrganisationRole.OWNER
    )

    response = client.post(
        reverse("catalog:currency", args=[organisation.slug]), {"currency-currency": "E1R"}
    )

    assert response.status_code == 400
    assert "Enter a 3-letter currency code such as EUR or USD." in response.content.decode()
    assert OrganisationCatalog.objects.get(organisation=organisation).currency == "EUR"


def test_a_new_organisations_catalog_is_in_the_default_currency_of_new_plans(
    settings: Any,
) -> None:
    settings.PLAN_DEFAULT_CURRENCY = "SEK"

    organisation = OrganisationFactory.create()

    assert OrganisationCatalog.objects.get(organisation=organisation).currency == "SEK"


def test_the_condition_repair_costs_nothing_rather_than_a_reference_in_another_currency(
    client: Client, owner: Any, starter: Code
) -> None:
    plan = PlanFactory.create(currency="SEK")
    PlanMembershipFactory.create(plan=plan, user=owner, role=PlanRole.OWNER)
    StructureNodeFactory.create(
        plan=plan,
        kind=NodeKind.COMPONENT,
        name="Tiles",
        code=starter,
        quantity=Decimal("10"),
        condition_grade=3,
    )

    page = _planning(client, plan)

    assert "Apply: plan a repair in" in page
    assert "(0.00\xa0SEK)" in page
    assert "1,000.00" not in page


def _replaced(plan: Plan, node: StructureNode, actual: str) -> None:
    action = ActionFactory.create(plan=plan, node=node, kind="replacement", status="done")
    Completion.objects.create(
        action=action,
        completed_on=datetime.date(2025, 5, 1),
        planned_year=2025,
        estimated_cost=action.estimated_cost,
        actual_cost=Decimal(actual),
    )


def test_learned_references_count_the_work_of_plans_in_the_catalogs_currency_only(
    client: Client, owner: Any, starter: Code
) -> None:
    organisation = OrganisationFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=owner, role=OrganisationRole.OWNER
    )
    plan, roof = _roof_plan(owner, currency="SEK", code=starter, organisation=organisation)
    for actual in ("14000", "15000", "13000"):  # 1,400 SEK per m2, median
        _replaced(plan, roof, actual)
    learned_url = reverse("catalog:learned", args=[organisation.slug])

    in_euro = client.get(learned_url).content.decode()

    assert 'data-code="S-1"' not in in_euro  # SEK work says nothing about an EUR catalog
    assert "Amounts in EUR, your catalog's currency" in in_euro

    OrganisationCatalog.objects.filter(organisation=organisation).update(currency="SEK")
    in_krona = client.get(learned_url).content.decode()

    assert 'data-code="S-1"' in in_krona and "1400.00" in in_krona
    assert ">none<" in in_krona  # the starter's 100 EUR is no reference in SEK
    done = client.post(
        reverse("catalog:learned_use", args=[organisation.slug, starter.pk]), follow=True
    ).content.decode()
    assert "Code S-1: your reference is now 1400.00 SEK per m2." in done


def test_import_catalog_sets_the_currency_the_file_is_in(tmp_path: Path) -> None:
    organisation = OrganisationFactory.create(slug="riverside")
    path = tmp_path / "catalog.csv"
    path.write_text("code,name,unit,unit_cost\nX-1,Sauna stove,pcs,24000\n", encoding="utf-8")
    out = StringIO()

    call_command("import_catalog", "riverside", str(path), "--currency", "sek", stdout=out)

    assert "1 added, 0 changed, 0 unchanged; the catalog's currency is now SEK" in out.getvalue()
    assert OrganisationCatalog.objects.get(organisation=organisation).currency == "SEK"
    with pytest.raises(CommandError, match="3-letter currency code"):
        call_command("import_catalog", "riverside", str(path), "--currency", "KRONA")


def test_the_catalog_upload_says_the_files_currency_and_sets_it(client: Client, owner: Any) -> None:
    organisation = OrganisationFactory.create()
    OrganisationMembershipFactory.create(
        organisation=organisation, user=owner, role=OrganisationRole.OWNER
    )
    upload = SimpleUploadedFile(
        "catalog.csv", b"code,name,unit,unit_cost\nX-1,Sauna stove,pcs,24000\n", "text/csv"
    )

    page = client.post(
        reverse("catalog:upload", args=[organisation.slug]),
        {"upload-file": upload, "upload-currency": "nok"},
        follow=True,
    ).content.decode()

    assert "Catalog imported: 1 added, 0 changed, 0 unchanged" in page
    assert "Your figures are in <strong>NOK</strong>" in page
    listed = client.get(reverse("catalog:catalog", args=[organisation.slug]), {"q": "X-1"})
    assert "24,000.00\xa0NOK" in listed.content.decode()

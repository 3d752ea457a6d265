"""The organisation's catalog (docs/subsystems/code-catalog.md "Code catalog"): own codes and
overrides of starter codes, `manage.py import_catalog`, the effective catalog the rules use (a
change re-derives exactly the plans that use the code), the catalog pages, and reference values
learned from the organisation's completed work."""

from __future__ import annotations

import datetime
import time
from decimal import Decimal
from io import StringIO
from pathlib import Path
from typing import Any

import pytest
from django.core.management import CommandError, call_command
from django.urls import reverse

from organisations.models import OrganisationRole
from planning.catalog.services import code_override_set
from planning.models import (
    CatalogChange,
    Code,
    CodeOverride,
    Completion,
    NodeKind,
    PlanChange,
    Suggestion,
)
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import (
    ActionFactory,
    CodeFactory,
    OrganisationFactory,
    OrganisationMembershipFactory,
    PlanFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


def _import(tmp_path: Path, slug: str, text: str) -> str:
    path = tmp_path / "catalog.csv"
    path.write_text(text, encoding="utf-8")
    out = StringIO()
    call_command("import_catalog", slug, str(path), stdout=out)
    return out.getvalue()


def test_import_catalog_overrides_starter_figures_adds_own_codes_and_updates_again(
    tmp_path: Path,
) -> None:
    organisation = OrganisationFactory.create(slug="riverside")
    starter = Code.objects.get(organisation__isnull=True, code="363.2")

    said = _import(
        tmp_path,
        "riverside",
        "code,name,unit,unit_cost,service_life_years,interval_years,keywords\n"
        "363.2,,,95.50,,10,\n"
        "X-1,Sauna stove,pcs,2400,15,,sauna,stove\n".replace("sauna,stove", '"sauna,stove"'),
    )

    assert "1 added, 1 changed, 0 unchanged" in said
    override = CodeOverride.objects.get(organisation=organisation, code=starter)
    assert (override.unit_cost, override.service_life_years, override.interval_years) == (
        Decimal("95.50"),
        None,
        10,
    )
    starter.refresh_from_db()
    assert starter.unit_cost == Decimal("80.00")  # the starter itself is untouched
    own = Code.objects.get(organisation=organisation, code="X-1")
    assert (own.name, own.unit_cost, own.keywords) == (
        "Sauna stove",
        Decimal("2400"),
        "sauna,stove",
    )

    again = _import(tmp_path, "riverside", "code;unit_cost\n363.2;99,90\nX-1;2.500,00\n")

    assert "0 added, 2 changed, 0 unchanged" in again
    override.refresh_from_db()
    own.refresh_from_db()
    assert (override.unit_cost, override.interval_years) == (Decimal("99.90"), 10)
    assert own.unit_cost == Decimal("2500.00")
    assert CatalogChange.objects.filter(organisation=organisation).count() == 4


def test_a_bad_catalog_is_refused_whole_with_every_problem(tmp_path: Path) -> None:
    organisation = OrganisationFactory.create(slug="riverside")

    with pytest.raises(CommandError) as refused:
        _import(
            tmp_path,
            "riverside",
            "code,name,unit_cost,interval_years\n"
            "X-1,Good one,10,\n"
            "X-2,,10,\n"
            "X-3,Bad cost,-5,\n"
            "X-1,Twice,1,\n"
            "X-4,Bad interval,,400\n",
        )

    message = str(refused.value)
    assert "nothing was imported" in message
    assert "catalog.csv line 3: name: is required for a new code" in message
    assert "line 4" in message and "unit_cost" in message
    assert "line 5" in message and "appears twice" in message
    assert "line 6" in message and "interval_years" in message
    assert not Code.objects.filter(organisation=organisation).exists()


def test_import_catalog_names_an_unknown_organisation(tmp_path: Path) -> None:
    with pytest.raises(CommandError, match="No organisation with the slug 'nowhere'"):
        _import(tmp_path, "nowhere", "code\n363.2\n")


def _plan_using(organisation: Any, code: Code) -> tuple[Any, Any]:
    plan = PlanFactory.create(organisation=organisation)
    roof = StructureNodeFactory.create(
        plan=plan, name="Roof", code=code, quantity=Decimal("10"), install_year=2000
    )
    ActionFactory.create(
        plan=plan, node=roof, kind="replacement", planned_year=2030, estimated_cost=Decimal("1000")
    )
    return plan, roof


def _cost_deviation(plan: Any) -> Suggestion | None:
    return Suggestion.objects.filter(
        plan=plan, status="open", fingerprint__startswith="deviation:cost:"
    ).first()


def test_an_override_re_derives_exactly_its_organisations_plans_that_use_the_code() -> None:
    code = CodeFactory.create(unit_cost=Decimal("100.00"))  # reference 1,000: no deviation
    mine, theirs = OrganisationFactory.create(), OrganisationFactory.create()
    my_plan, _ = _plan_using(mine, code)
    their_plan, _ = _plan_using(theirs, code)
    unrelated = PlanFactory.create(organisation=mine)
    StructureNodeFactory.create(plan=unrelated, name="Shed")
    for plan in (my_plan, their_plan, unrelated):
        suggestion_sync(plan=plan)
    assert _cost_deviation(my_plan) is None

    code_override_set(
        organisation=mine, user=None, code=code, figures={"unit_cost": Decimal("200.00")}
    )

    assert not PlanChange.objects.filter(plan_id__in=[their_plan.pk, unrelated.pk]).exists()
    result = suggestion_sync(plan=my_plan)
    assert not result.full
    deviation = _cost_deviation(my_plan)
    assert deviation is not None
    assert deviation.recommended_action_json["reference"]["expected_cost"] == "2000.00"
    assert _cost_deviation(their_plan) is None
    assert suggestion_sync(plan=my_plan, full=True).changed is False

    code_override_set(organisation=mine, user=None, code=code, figures={})

    assert not CodeOverride.objects.exists()
    suggestion_sync(plan=my_plan)
    assert _cost_deviation(my_plan) is None


def test_an_own_code_is_seen_by_its_organisations_plans_only(tmp_path: Path) -> None:
    from planning.transfer.imports.json_file import plan_import
    from planning.transfer.imports.problems import ImportRejected
    from tests.factories import UserFactory

    mine, theirs = OrganisationFactory.create(), OrganisationFactory.create()
    CodeFactory.create(organisation=mine, code="X-1", name="Sauna stove")
    owner = UserFactory.create()
    OrganisationMembershipFactory.create(
        organisation=theirs, user=owner, role=OrganisationRole.OWNER
    )
    document = (
        b'{"name": "P", "nodes": [{"ref": "A", "name": "Stove", "kind": "component", '
        b'"code": "X-1"}], "actions": []}'
    )

    with pytest.raises(ImportRejected, match='no code "X-1" in the catalog'):
        plan_import(owner=owner, organisation=theirs, content=document, filename="p.json")

    OrganisationMembershipFactory.create(organisation=mine, user=owner, role=OrganisationRole.OWNER)
    plan = plan_import(owner=owner, organisation=mine, content=document, filename="p.json")
    node = plan.nodes.get()
    assert node.code is not None and node.code.code == "X-1"


def _completed(plan: Any, node: Any, actual: str) -> None:
    action = ActionFactory.create(plan=plan, node=node, kind="replacement", status="done")
    Completion.objects.create(
        action=action,
        completed_on=datetime.date(2025, 5, 1),
        planned_year=2025,
        estimated_cost=action.estimated_cost,
        actual_cost=Decimal(actual),
    )


def _manager(client: Any, organisation: Any, role: str = OrganisationRole.OWNER) -> Any:
    from tests.factories import UserFactory

    user = UserFactory.create()
    OrganisationMembershipFactory.create(organisation=organisation, user=user, role=role)
    client.force_login(user)
    return user


def test_learned_references_list_codes_off_by_more_than_a_quarter_and_use_one(client: Any) -> None:
    code = CodeFactory.create(code="L-1", unit_cost=Decimal("100.00"))
    near = CodeFactory.create(code="L-2", unit_cost=Decimal("100.00"))
    organisation = OrganisationFactory.create()
    plan = PlanFactory.create(organisation=organisation)
    roof = StructureNodeFactory.create(plan=plan, code=code, quantity=Decimal("10"))
    wall = StructureNodeFactory.create(plan=plan, code=near, quantity=Decimal("10"))
    for actual in ("1300", "1500", "1400"):  # 130, 150, 140 per unit: median 140, +40 %
        _completed(plan, roof, actual)
    for actual in ("1100", "1200", "1250"):  # median 120: +20 %, within a quarter
        _completed(plan, wall, actual)
    _completed(plan, wall, "0")  # a fourth keeps the median at 115: still within
    user = _manager(client, organisation)
    learned_url = reverse("catalog:learned", args=[organisation.slug])

    page = client.get(learned_url).content.decode()

    assert 'data-code="L-1"' in page and "+40 %" in page and "140.00" in page
    assert 'data-code="L-2"' not in page

    done = client.post(
        reverse("catalog:learned_use", args=[organisation.slug, code.pk]), follow=True
    ).content.decode()

    assert "Code L-1: your reference is now 140.00 EUR per m2." in done
    override = CodeOverride.objects.get(organisation=organisation, code=code)
    assert override.unit_cost == Decimal("140.00")
    change = CatalogChange.objects.get(organisation=organisation)
    assert (change.by, change.changes["unit_cost"]) == (user, [None, "140.00"])
    assert 'data-code="L-1"' not in done  # now it costs what the catalog says


def test_the_catalog_pages_are_for_owners_and_admins(client: Any) -> None:
    organisation = OrganisationFactory.create()
    url = reverse("catalog:catalog", args=[organisation.slug])
    _manager(client, organisation, OrganisationRole.PLANNER)
    assert client.get(url).status_code == 403
    outsider = OrganisationFactory.create()
    _manager(client, outsider)
    assert client.get(url).status_code == 404
    _manager(client, organisation, OrganisationRole.ADMIN)
    page = client.get(url, {"q": "roof"}).content.decode()
    assert 'data-code="363.2"' in page and 'data-code="334.1"' not in page


def test_another_organisations_code_has_no_page(client: Any) -> None:
    mine, theirs = OrganisationFactory.create(), OrganisationFactory.create()
    their_code = CodeFactory.create(organisation=theirs, code="T-1")
    _manager(client, mine)
    url = reverse("catalog:code", args=[mine.slug, their_code.pk])
    assert client.get(url).status_code == 404


def test_an_own_code_in_use_is_not_deleted(client: Any) -> None:
    organisation = OrganisationFactory.create()
    own = CodeFactory.create(organisation=organisation, code="X-9")
    plan = PlanFactory.create(organisation=organisation)
    StructureNodeFactory.create(plan=plan, code=own, kind=NodeKind.COMPONENT)
    _manager(client, organisation)

    page = client.post(
        reverse("catalog:code_reset", args=[organisation.slug, own.pk]), follow=True
    ).content.decode()

    assert "Code X-9 is used by 1 component; assign them another code first." in page
    assert Code.objects.filter(pk=own.pk).exists()


def _upload_catalog(client: Any, content: bytes) -> tuple[int, str]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    organisation = OrganisationFactory.create()
    _manager(client, organisation)
    response = client.post(
        reverse("catalog:upload", args=[organisation.slug]),
        {"upload-file": SimpleUploadedFile("catalog.csv", content, "text/csv")},
    )
    return response.status_code, response.content.decode()


def test_a_catalog_header_of_300000_columns_is_one_problem_within_seconds(client: Any) -> None:
    header = ",".join(f"{n:x}" for n in range(300_000)).encode()  # 1.7 MB, under the 2 MB
    started = time.monotonic()

    status, page = _upload_catalog(client, header + b"\n")

    assert time.monotonic() - started < 5
    assert status == 400 and "1 problem; nothing was imported" in page
    assert "catalog.csv line 1: has 300,000 columns; a table has at most 64" in page


def test_the_catalog_upload_shows_200_problems_and_how_many_more(client: Any) -> None:
    rows = b"".join(b"Z-%d,,,-1\n" % n for n in range(1_000))  # a new code needs a name

    status, page = _upload_catalog(client, b"code,name,unit,unit_cost\n" + rows)

    assert status == 400 and "2000 problems; nothing was imported" in page
    assert page.count("<li>catalog.csv line") == 200 and "and 1800 more" in page

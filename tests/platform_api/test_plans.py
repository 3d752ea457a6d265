"""The platform resources over the API (platform_api.endpoints.plans): the plans a key may read,
one plan, its nodes, actions and projects, their filters, pages that never repeat or skip a row
that stays, 304, and the errors."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.db import connection
from django.db.models import F
from django.test import Client
from django.utils import timezone

from apikeys.models import ApiKey, ServiceAccount
from apikeys.services import api_access_set, api_key_create
from organisations.models import Organisation
from planning.models import ActionStatus, NodeKind, Plan, PlanRole
from tests.envelope import assert_envelope
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
)

pytestmark = pytest.mark.django_db


def _data(response: Any, status: int = 200, key: str = "ok") -> Any:
    return assert_envelope(response, status, key)["data"]


@pytest.fixture
def plan(user: Any) -> Plan:
    plan = PlanFactory.create(name="Harbour", index_rate_percent=Decimal("10"))
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    return plan


@pytest.fixture
def api(user: Any) -> Any:
    api_access_set(user=user, enabled=True)
    _key, raw = api_key_create(user=user, name="erp")
    client = Client()

    def get(path: str, **params: Any) -> Any:
        headers = {"Authorization": f"Bearer {raw}", **params.pop("headers", {})}
        return client.get(f"/api/v1/platform/{path}", params, headers=headers)

    return get


def _walk(api: Any, path: str, field: str, **params: Any) -> list[dict[str, Any]]:
    """Every row of the list, page by page (from `cursor` when given)."""
    rows: list[dict[str, Any]] = []
    data = _data(api(path, **params))
    params.pop("cursor", None)
    while True:
        rows += data[field]
        if data["next_cursor"] is None:
            return rows
        data = _data(api(path, cursor=data["next_cursor"], **params))


def test_the_plans_list_holds_exactly_the_plans_the_key_reads(
    api: Any, plan: Plan, user: Any
) -> None:
    mine = [plan] + [PlanFactory.create() for _ in range(3)]
    for other in mine[1:]:
        PlanMembershipFactory.create(plan=other, user=user)
    PlanFactory.create(name="Not mine")
    rows = _walk(api, "plans", "plans", limit=2)
    assert [row["number"] for row in rows] == sorted(p.number for p in mine)
    assert "Not mine" not in {row["name"] for row in rows}
    first = rows[0]
    assert set(first) == {
        "id",
        "number",
        "name",
        "organisation",
        "currency",
        "open_count",
        "updated_at",
    }


def test_a_service_account_lists_its_organisations_plans(plan: Plan) -> None:
    organisation: Organisation = plan.organisation
    organisation.api_access_enabled = True
    organisation.save()
    sibling = PlanFactory.create(organisation=organisation)
    PlanFactory.create(name="Elsewhere")
    from apikeys.keys import key_generate, key_hash, key_hint

    raw = key_generate()
    ApiKey.objects.create(
        organisation=organisation,
        service_account=ServiceAccount.objects.create(organisation=organisation, name="ERP"),
        name="ERP",
        key_hash=key_hash(raw),
        hint=key_hint(raw),
    )
    response = Client().get("/api/v1/platform/plans", headers={"Authorization": f"Bearer {raw}"})
    numbers = [row["number"] for row in _data(response)["plans"]]
    assert numbers == sorted([plan.number, sibling.number])


def test_one_plan_with_its_money_settings_and_key_figures(api: Any, plan: Plan) -> None:
    house = StructureNodeFactory.create(
        plan=plan, kind=NodeKind.BUILDING, name="House", gross_floor_area_m2=Decimal("100")
    )
    from django.utils import timezone

    ActionFactory.create(
        node=house, planned_year=timezone.localdate().year, estimated_cost=Decimal("1000")
    )
    data = _data(api(f"plans/{plan.number}"))
    assert data["money"]["index_rate_percent"] == "10.00"
    assert data["key_figures"]["ten_year_cost"] == "1000.00"
    assert data["key_figures"]["cost_per_m2_year"] == "1.00"
    etag = api(f"plans/{plan.number}")["ETag"]
    assert api(f"plans/{plan.number}", headers={"If-None-Match": etag}).status_code == 304


def test_nodes_with_their_filters(api: Any, plan: Plan) -> None:
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Site")
    house = StructureNodeFactory.create(
        plan=plan, parent=site, kind=NodeKind.BUILDING, name="House"
    )
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    other = StructureNodeFactory.create(plan=PlanFactory.create(), name="Elsewhere")
    names = {row["name"] for row in _walk(api, f"plans/{plan.number}/nodes", "nodes", limit=1)}
    assert names == {"Site", "House", "Roof"}
    under = _walk(api, f"plans/{plan.number}/nodes", "nodes", under=str(house.pk))
    assert {row["name"] for row in under} == {"House", "Roof"}
    assert [r["id"] for r in under if r["name"] == "Roof"] == [str(roof.pk)]
    children = _walk(api, f"plans/{plan.number}/nodes", "nodes", parent_id=str(site.pk))
    assert [row["name"] for row in children] == ["House"]
    assert children[0]["building_id"] == str(house.pk)
    assert _walk(api, f"plans/{plan.number}/nodes", "nodes", kind="site")[0]["name"] == "Site"
    assert _walk(api, f"plans/{plan.number}/nodes", "nodes", under=str(other.pk)) == []
    bad = _data(api(f"plans/{plan.number}/nodes", kind="castle"), 400, "validation.query")
    assert set(bad["errors"]) == {"kind"}


def test_a_nodes_path_names_its_ancestors_in_the_form_of_their_ids(api: Any, plan: Plan) -> None:
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Site")
    house = StructureNodeFactory.create(
        plan=plan, parent=site, kind=NodeKind.BUILDING, name="House"
    )
    StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    rows = {row["name"]: row for row in _walk(api, f"plans/{plan.number}/nodes", "nodes")}
    assert rows["Site"]["path"] == ""
    assert rows["Roof"]["path"] == f"{rows['Site']['id']}/{rows['House']['id']}/"
    assert rows["Roof"]["path"].split("/")[:-1] == [str(site.pk), str(house.pk)]


@pytest.mark.parametrize(
    ("listing", "field"), [("nodes", "name"), ("actions", "title"), ("projects", "name")]
)
def test_a_change_made_by_raw_sql_changes_the_lists_etag_at_once(
    api: Any, plan: Plan, listing: str, field: str
) -> None:
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    row = {
        "nodes": lambda: house,
        "actions": lambda: ActionFactory.create(node=house, title="Paint"),
        "projects": lambda: ProjectFactory.create(plan=plan, name="Roofs"),
    }[listing]()
    first = api(f"plans/{plan.number}/{listing}")
    unchanged = api(f"plans/{plan.number}/{listing}", headers={"If-None-Match": first["ETag"]})
    assert unchanged.status_code == 304

    meta = type(row)._meta
    with connection.cursor() as cursor:  # as a script or the admin's SQL console would
        cursor.execute(
            f"UPDATE {meta.db_table} SET {field} = 'Shed' WHERE id = %s",  # noqa: S608 - the test's own names
            [meta.pk.get_db_prep_value(row.pk, connection)],
        )

    changed = api(f"plans/{plan.number}/{listing}", headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and changed["ETag"] != first["ETag"]
    assert "Shed" in {listed[field] for listed in _data(changed)[listing]}


def test_actions_with_their_filters_and_a_walk_that_survives_changes(api: Any, plan: Plan) -> None:
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House")
    project = ProjectFactory.create(plan=plan, name="Roofs", year=2030)
    actions = [
        ActionFactory.create(
            node=house, planned_year=2030 + n % 3, estimated_cost=Decimal("100"), title=f"A{n}"
        )
        for n in range(9)
    ]
    actions[0].project = project
    actions[0].save()
    path = f"plans/{plan.number}/actions"
    first = _data(api(path, limit=4))
    # Between the pages: one action changes every field the list could sort by.
    actions[8].planned_year = 2040
    actions[8].estimated_cost = Decimal("9")
    actions[8].status = ActionStatus.DONE
    actions[8].save()
    rest = _walk(api, path, "actions", limit=4, cursor=first["next_cursor"])
    ids = [row["id"] for row in first["actions"] + rest]
    assert sorted(ids) == sorted(str(a.pk) for a in actions) and len(set(ids)) == 9
    assert first["actions"][0]["nominal_cost"] is not None
    in_2031 = _walk(api, path, "actions", year_from=2031, year_to=2031)
    assert {row["title"] for row in in_2031} == {"A1", "A4", "A7"}
    only_project = _walk(api, path, "actions", project_id=str(project.pk))
    assert [row["title"] for row in only_project] == ["A0"]
    done = _walk(api, path, "actions", status="done")
    assert [row["title"] for row in done] == ["A8"]
    bad = _data(api(path, year_from=2031, year_to=2030), 400, "validation.query")
    assert set(bad["errors"]) == {"year_to"}


def test_projects_and_a_plan_the_key_may_not_read(api: Any, plan: Plan) -> None:
    ProjectFactory.create(plan=plan, name="Roofs", year=2030)
    assert [row["name"] for row in _walk(api, f"plans/{plan.number}/projects", "projects")] == [
        "Roofs"
    ]
    hidden = PlanFactory.create()
    for path in ("", "/nodes", "/actions", "/projects"):
        assert_envelope(api(f"plans/{hidden.number}{path}"), 404, "plans.not_found")


def test_the_plans_list_counts_each_plans_open_suggestions_as_they_change(
    api: Any, plan: Plan, user: Any
) -> None:
    """The counts are kept under each plan's data version: a sync, a dismissal and a fix each
    raise it, so the list never shows a count of before."""
    from planning.models import Suggestion
    from planning.suggestions.services.dismissal import suggestions_dismiss
    from planning.suggestions.sync.run import suggestion_sync

    other = PlanFactory.create()
    PlanMembershipFactory.create(plan=other, user=user)
    for name in ("Roof", "Door", "Lift"):
        StructureNodeFactory.create(plan=plan, kind=NodeKind.COMPONENT, name=name)

    def counts() -> dict[int, int]:
        return {row["number"]: row["open_count"] for row in _data(api("plans"))["plans"]}

    assert counts() == {plan.number: 0, other.number: 0}  # not synced yet
    suggestion_sync(plan=plan)
    assert counts() == {plan.number: 3, other.number: 0}
    roof = Suggestion.objects.get(plan=plan, structure_node__name="Roof")
    suggestions_dismiss(plan=plan, suggestion_ids=[roof.pk], user=user, reason="accepted")
    assert counts() == {plan.number: 2, other.number: 0}


def test_a_plan_changed_while_its_request_runs_is_answered_no_older_than_its_etag(
    api: Any, plan: Plan, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plan was read with the key; an edit that commits before the ETag's version is read
    must not leave the old body under the new ETag (a client would keep it, 304 after 304)."""
    from platform_api.endpoints import plans

    read_version = plans.plan_data_version

    def edited_meanwhile(*, plan: Plan) -> int:
        Plan.objects.filter(pk=plan.pk).update(
            name="Harbour North", data_version=F("data_version") + 1
        )
        monkeypatch.setattr(plans, "plan_data_version", read_version)
        return read_version(plan=plan)

    monkeypatch.setattr(plans, "plan_data_version", edited_meanwhile)
    first = api(f"plans/{plan.number}")
    assert _data(first)["name"] == "Harbour North"
    again = api(f"plans/{plan.number}", headers={"If-None-Match": first["ETag"]})
    assert again.status_code == 304


def test_a_nodes_condition_carries_its_consequence_and_risk(api: Any, plan: Plan) -> None:
    from planning.plans.services.surveys import survey_record

    roof = StructureNodeFactory.create(plan=plan, name="Roof")
    StructureNodeFactory.create(plan=plan, name="Gutter")
    survey_record(
        node=roof,
        grade=2,
        consequence=3,
        note="",
        assessed_on=timezone.localdate(),
        by=None,
    )
    rows = {row["name"]: row for row in _walk(api, f"plans/{plan.number}/nodes", "nodes")}
    assert (rows["Roof"]["condition_grade"], rows["Roof"]["condition_consequence"]) == (2, 3)
    assert rows["Roof"]["condition_risk"] == 6
    assert rows["Gutter"]["condition_consequence"] is None
    assert rows["Gutter"]["condition_risk"] is None

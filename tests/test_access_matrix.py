"""Who gets what: every principal x every plan page, download and integrator operation
(issue 20 "Tests that must exist", issue 27's organisation boundary).

The table is three parts, each a plain dict, so a new page, route or principal is one row:
- PRINCIPALS: the people (and service accounts) and, written by hand, the role each should end
  up with on each plan (docs/subsystems/organisations.md "Rights on a plan": owner/admin -> owner,
  planner -> editor, viewer -> viewer, a guest grant editor|viewer, the higher of the two).
- PLAN_ROUTES / OTHER_ROUTES: every URL name of planning/web/urls/plans.py and
  planning/web/urls/action_planning.py, with what someone allowed gets for a GET and for a POST
  and the right a POST needs.
  `test_every_planning_url_has_a_row` reads the URL resolver, so a page added without a row
  fails the suite.
- API_PLAN_ROUTES: every route of platform_api/urls.py that names a plan.

Expected: someone who may see the plan gets the row's answer (405 for a method the view does not
answer, 403 for a POST above their rights); anyone else gets exactly what a missing plan number
gets (same status, same bytes but for the CSRF token, the plan's name nowhere). Anonymous
visitors are sent to the login page, for a missing plan alike.

The world (two organisations, their plans with content, every principal's session and keys) is
built once per module inside a transaction that is rolled back at the end; each test runs in a
savepoint of it (pytest-django's `db`), so a POST that deletes the plan leaves the next test's
world intact.
"""

from __future__ import annotations

import enum
import json
import re
import uuid
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.models import User
from apikeys.keys import key_generate, key_hash, key_hint
from apikeys.models import ApiKey, ServiceAccount
from apikeys.services import api_key_create
from organisations.models import Organisation, OrganisationRole
from organisations.selectors import personal_organisation
from organisations.services import member_add, organisation_create
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    Attachment,
    Code,
    ConditionSurvey,
    DismissReason,
    Fund,
    FundingScenario,
    NodeKind,
    Plan,
    PlanImport,
    PlanImportFormat,
    PlanImportStatus,
    PlanMembership,
    PlanReport,
    PlanReportStatus,
    PlanRole,
    PlanVersion,
    Project,
    StructureNode,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.services.attachments import attachment_add
from planning.plans.services.plans import plan_create
from planning.plans.services.surveys import survey_record
from planning.records.adoption import plan_adopt
from planning.suggestions.services.dismissal import suggestions_dismiss
from planning.suggestions.sync.run import suggestion_sync
from tests.envelope import assert_envelope
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanMembershipFactory,
    ProjectFactory,
    StructureNodeFactory,
    UserFactory,
)
from tests.planning.photos import jpeg_bytes, photo_upload

pytestmark = pytest.mark.django_db

# A number no plan has (plans are numbered from 1 by one counter).
MISSING_NUMBER = 2_000_000_000


# --- principals --------------------------------------------------------------------------------


class Right(enum.IntEnum):
    """What a POST needs, and what an effective plan role gives."""

    VIEW = 1
    EDIT = 2
    MANAGE = 3  # the plan's guests, deleting the plan


RIGHT_OF_ROLE = {
    PlanRole.VIEWER: Right.VIEW,
    PlanRole.EDITOR: Right.EDIT,
    PlanRole.OWNER: Right.MANAGE,
}


@dataclass(frozen=True)
class Principal:
    """Who sends the requests: the organisation roles and plan grants they are given, and (by
    hand, not from the product's rules) the role they should end up with on each plan."""

    organisation_roles: dict[str, OrganisationRole] = field(default_factory=dict)
    grants: dict[str, PlanRole] = field(default_factory=dict)
    expected: dict[str, PlanRole] = field(default_factory=dict)
    anonymous: bool = False


OWNER, ADMIN, PLANNER, VIEWER = (
    OrganisationRole.OWNER,
    OrganisationRole.ADMIN,
    OrganisationRole.PLANNER,
    OrganisationRole.VIEWER,
)

PRINCIPALS: dict[str, Principal] = {
    "a-owner": Principal({"A": OWNER}, expected={"A1": PlanRole.OWNER}),
    "a-admin": Principal({"A": ADMIN}, expected={"A1": PlanRole.OWNER}),
    "a-planner": Principal({"A": PLANNER}, expected={"A1": PlanRole.EDITOR}),
    "a-viewer": Principal({"A": VIEWER}, expected={"A1": PlanRole.VIEWER}),
    "b-owner": Principal({"B": OWNER}, expected={"B1": PlanRole.OWNER}),
    "b-admin": Principal({"B": ADMIN}, expected={"B1": PlanRole.OWNER}),
    "b-planner": Principal({"B": PLANNER}, expected={"B1": PlanRole.EDITOR}),
    "b-viewer": Principal({"B": VIEWER}, expected={"B1": PlanRole.VIEWER}),
    "guest-editor": Principal(grants={"A1": PlanRole.EDITOR}, expected={"A1": PlanRole.EDITOR}),
    "guest-viewer": Principal(grants={"A1": PlanRole.VIEWER}, expected={"A1": PlanRole.VIEWER}),
    # The higher of the two, either way round.
    "a-viewer+editor-grant": Principal(
        {"A": VIEWER}, grants={"A1": PlanRole.EDITOR}, expected={"A1": PlanRole.EDITOR}
    ),
    "a-planner+viewer-grant": Principal(
        {"A": PLANNER}, grants={"A1": PlanRole.VIEWER}, expected={"A1": PlanRole.EDITOR}
    ),
    "stranger": Principal(),
    "anonymous": Principal(anonymous=True),
}
PEOPLE = [name for name, principal in PRINCIPALS.items() if not principal.anonymous]

# Plans the table targets; A2 is a second plan of A (for keys limited to it).
TARGET_PLANS = ["A1", "B1"]


# --- the world ---------------------------------------------------------------------------------


@dataclass
class PlanWorld:
    """One plan with something behind every URL: nodes, actions, a project, suggestions, a
    guest grant nobody in PRINCIPALS holds."""

    plan: Plan
    site: StructureNode
    building: StructureNode
    component: StructureNode
    leaf: StructureNode
    planned: Action  # in the project
    done: Action
    loose: Action  # in no project
    project: Project
    open_suggestion: Suggestion
    grouping_suggestion: Suggestion
    dismissed_suggestion: Suggestion
    bystander_grant: PlanMembership
    code: Code
    report: PlanReport  # a finished board report
    version: PlanVersion  # an adopted version
    scenario: FundingScenario  # beside the plan's fund
    attachment: Attachment  # a photo of the component
    survey_key: str  # the idempotency key of a survey entry recorded in survey mode


@dataclass
class World:
    organisations: dict[str, Organisation]
    plans: dict[str, PlanWorld]
    users: dict[str, User]
    sessions: dict[str, str]  # principal -> session cookie
    keys: dict[str, str]  # principal -> raw personal key (every plan they see)
    write_keys: dict[str, str]  # principal -> raw personal read_write key (every plan)
    limited_keys: dict[str, str]  # principal -> raw key limited to their own personal plan
    own_plans: dict[str, Plan]  # principal -> a plan of their personal organisation
    service_keys: dict[str, str]  # "A", "B" -> raw service-account key of that organisation
    newcomer: User  # an account with no relation to anything, for the guests form
    own_import: PlanImport  # a-planner's


def _plan_world(
    *, organisation: Organisation, owner: User, name: str, bystander: User
) -> PlanWorld:
    plan = plan_create(owner=owner, name=name, organisation=organisation)
    code = CodeFactory.create(
        name=f"{name} fan unit", keywords=f"fan{plan.number}", unit_cost=Decimal("100")
    )
    site = StructureNodeFactory.create(plan=plan, kind=NodeKind.SITE, name="Campus")
    building = StructureNodeFactory.create(
        plan=plan, parent=site, kind=NodeKind.BUILDING, name="House A"
    )
    component = StructureNodeFactory.create(
        plan=plan, parent=building, name="Roof", code=code, quantity=Decimal("10")
    )
    fan = StructureNodeFactory.create(plan=plan, parent=building, name=f"fan{plan.number}")
    leaf = StructureNodeFactory.create(plan=plan, parent=building, name="Fence")
    project = ProjectFactory.create(plan=plan, name="Roof works", year=2030)
    planned = ActionFactory.create(
        node=component,
        title="Replace roof",
        kind=ActionKind.REPLACEMENT,
        planned_year=2030,
        estimated_cost=Decimal("1800.00"),
        project=project,
    )
    ActionFactory.create(node=fan, title="Service fan", planned_year=2030)
    ActionFactory.create(node=leaf, title="Paint fence", planned_year=2030)
    loose = ActionFactory.create(node=leaf, title="Fix gate", planned_year=2031)
    done = ActionFactory.create(
        node=leaf, title="Old repair", planned_year=2031, status=ActionStatus.DONE
    )
    suggestion_sync(plan=plan)
    suggestions = Suggestion.objects.filter(plan=plan, status=SuggestionStatus.OPEN)
    by_type = {s.suggestion_type: s for s in suggestions}
    assert {SuggestionType.MISSING_CODE, SuggestionType.PROJECT_GROUPING} <= set(by_type)
    missing_code = [s for s in suggestions if s.suggestion_type == SuggestionType.MISSING_CODE]
    assert len(missing_code) >= 2, missing_code
    open_suggestion, dismissed = missing_code[:2]
    suggestions_dismiss(
        plan=plan,
        suggestion_ids=[dismissed.pk],
        user=owner,
        reason=DismissReason.NOT_APPLICABLE,
        comment="",
    )
    return PlanWorld(
        plan=plan,
        site=site,
        building=building,
        component=component,
        leaf=leaf,
        planned=planned,
        done=done,
        loose=loose,
        project=project,
        open_suggestion=open_suggestion,
        grouping_suggestion=by_type[SuggestionType.PROJECT_GROUPING],
        dismissed_suggestion=dismissed,
        bystander_grant=PlanMembershipFactory.create(
            plan=plan, user=bystander, role=PlanRole.VIEWER
        ),
        code=code,
        version=plan_adopt(plan=plan, name="Adopted in the matrix"),
        scenario=_funding(plan),
        report=PlanReport.objects.create(
            plan=plan,
            requested_by=owner,
            prices="today",
            status=PlanReportStatus.DONE,
            pdf=b"%PDF-1.7 matrix",
            size=15,
        ),
        attachment=attachment_add(
            plan=plan, node=component, upload=photo_upload("roof.jpg", jpeg_bytes()), by=owner
        ),
        survey_key=_survey_entry(component, owner),
    )


def _survey_entry(component: StructureNode, owner: User) -> str:
    """A survey entry recorded as survey mode sends it (with its key), for its photos' route."""
    key = str(uuid.uuid4())
    survey_record(
        node=component,
        grade=1,
        consequence=1,
        note="",
        assessed_on=date(2026, 5, 1),
        by=owner,
        idempotency_key=key,
    )
    return key


def _funding(plan: Plan) -> FundingScenario:
    """The plan's fund and one scenario of its funding."""
    Fund.objects.create(plan=plan, opening_balance=Decimal(100), start_year=2026)
    return FundingScenario.objects.create(
        plan=plan, name="Matrix scenario", contribution=Decimal(50), start_year=2026
    )


def _service_key(
    organisation: Organisation,
    *,
    plans: list[Plan] | None = None,
    permission: str = ApiKey.Permission.READ,
) -> str:
    """A service-account key of the organisation (its services are helper B's: made here as
    the model stores one)."""
    raw = key_generate()
    api_key = ApiKey.objects.create(
        organisation=organisation,
        service_account=ServiceAccount.objects.create(organisation=organisation, name="ERP sync"),
        name="ERP sync",
        key_hash=key_hash(raw),
        hint=key_hint(raw),
        limited_to_plans=plans is not None,
        permission=permission,
    )
    if plans:
        api_key.plans.set(plans)
    return raw


def _world_build() -> World:
    users = {name: UserFactory.create(name=name) for name in PEOPLE}
    founders = {
        "A": UserFactory.create(name="Founder A"),
        "B": UserFactory.create(name="Founder B"),
    }
    organisations = {
        key: organisation_create(name=f"Organisation {key} of the matrix", owner=founder)
        for key, founder in founders.items()
    }
    for name, principal in PRINCIPALS.items():
        for key, role in principal.organisation_roles.items():
            member_add(organisation=organisations[key], user=users[name], role=role)
    bystander = UserFactory.create(name="Bystander")
    plans = {
        "A1": _plan_world(
            organisation=organisations["A"],
            owner=founders["A"],
            name="Quillfeather Court",
            bystander=bystander,
        ),
        "B1": _plan_world(
            organisation=organisations["B"],
            owner=founders["B"],
            name="Marrowgate Terrace",
            bystander=bystander,
        ),
    }
    a2 = plan_create(owner=founders["A"], name="Second plan of A", organisation=organisations["A"])
    for name, principal in PRINCIPALS.items():
        for plan_key, grant in principal.grants.items():
            PlanMembershipFactory.create(plan=plans[plan_key].plan, user=users[name], role=grant)
    for organisation in organisations.values():
        organisation.api_access_enabled = True
        organisation.save(update_fields=["api_access_enabled"])

    sessions, keys, write_keys, limited_keys, own_plans = {}, {}, {}, {}, {}
    for name, user in users.items():
        client = Client()
        client.force_login(user)
        sessions[name] = client.cookies[settings.SESSION_COOKIE_NAME].value
        # Everyone has a plan of their own, in a personal organisation with API access, so
        # every key authenticates and the answers below are about the target plan alone.
        own_plans[name] = plan_create(owner=user, name=f"Own plan of {name}")
        personal = personal_organisation(user=user)
        assert personal is not None
        Organisation.objects.filter(pk=personal.pk).update(api_access_enabled=True)
        keys[name] = api_key_create(user=user, name="Everything")[1]
        write_keys[name] = api_key_create(
            user=user, name="Acts", permission=ApiKey.Permission.READ_WRITE
        )[1]
        limited_keys[name] = api_key_create(user=user, name="Own", plans=[own_plans[name]])[1]
    service_keys = {
        "A": _service_key(organisations["A"]),
        "B": _service_key(organisations["B"]),
        "A limited to A2": _service_key(organisations["A"], plans=[a2]),
        "A read_write": _service_key(organisations["A"], permission=ApiKey.Permission.READ_WRITE),
        "B read_write": _service_key(organisations["B"], permission=ApiKey.Permission.READ_WRITE),
    }
    own_import = PlanImport.objects.create(
        owner=users["a-planner"],
        idempotency_key=uuid.uuid4().hex,
        file_format=PlanImportFormat.DOCUMENT,
        filename="estate.json",
        name="Estate",
        status=PlanImportStatus.REJECTED,
        problems=[{"message": "Bad row"}],
    )
    return World(
        organisations=organisations,
        plans=plans,
        users=users,
        sessions=sessions,
        keys=keys,
        write_keys=write_keys,
        limited_keys=limited_keys,
        own_plans=own_plans,
        service_keys=service_keys,
        newcomer=UserFactory.create(name="Newcomer"),
        own_import=own_import,
    )


@pytest.fixture(scope="module")
def world(django_db_setup: Any, django_db_blocker: Any) -> Iterator[World]:
    """Built once, in a transaction rolled back after the module's last test."""
    with django_db_blocker.unblock():
        atomic = transaction.atomic()
        atomic.__enter__()
        try:
            built = _world_build()
        except BaseException:
            transaction.set_rollback(True)
            atomic.__exit__(None, None, None)
            raise
    yield built
    with django_db_blocker.unblock():
        transaction.set_rollback(True)
        atomic.__exit__(None, None, None)


def client_for(world: World, principal: str) -> Client:
    client = Client()
    if not PRINCIPALS[principal].anonymous:
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[principal]
    return client


# --- the plan routes -------------------------------------------------------------------------


Kwargs = Callable[[PlanWorld], list[dict[str, Any]]]
Body = Callable[[PlanWorld, World], dict[str, Any]]


def _none(w: PlanWorld) -> list[dict[str, Any]]:
    return [{}]


def _empty(w: PlanWorld, world: World) -> dict[str, Any]:
    return {}


@dataclass(frozen=True)
class PlanRoute:
    """What someone who may see the plan gets: `get` for a GET (None: the view does not answer
    GET, 405), `post` = (the right needed, the answer) for a POST (None: 405). `kwargs`: the
    URL's arguments besides the plan number (one dict per variant to request); `body`: a POST
    body the view accepts; `query`: a query string for the GET."""

    get: int | None
    post: tuple[Right, int] | None
    kwargs: Kwargs = _none
    body: Body = _empty
    query: str = ""
    # A page's JSON endpoint (planning.web.access.plan_member_required_json): the body is sent
    # as JSON (unless it holds a file), and a signed-out request is a 401 for the script to show
    # rather than the login page.
    json: bool = False


def _fmts(w: PlanWorld) -> list[dict[str, Any]]:
    return [{"fmt": "csv"}, {"fmt": "xlsx"}]


PLAN_ROUTES: dict[str, PlanRoute] = {
    "plan_detail": PlanRoute(200, None),
    "plan_settings": PlanRoute(
        200,
        (Right.EDIT, 302),
        body=lambda w, world: {
            "plan-name": "Renamed",
            "plan-description": "",
            "plan-currency": "USD",
        },
    ),
    "plan_delete": PlanRoute(
        None,
        (Right.MANAGE, 302),
        body=lambda w, world: {"delete-confirm_name": w.plan.name},
    ),
    "node_root_create": PlanRoute(
        None,
        (Right.EDIT, 302),
        body=lambda w, world: {"root-name": "New site", "root-kind": "site"},
    ),
    "node_lookup": PlanRoute(200, None, query="?q=roof"),
    "node_children": PlanRoute(200, None, kwargs=lambda w: [{"node_id": w.building.pk}]),
    "node_detail": PlanRoute(200, None, kwargs=lambda w: [{"node_id": w.component.pk}]),
    "node_rename": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.component.pk}],
        body=lambda w, world: {"rename-name": "New roof"},
    ),
    "node_details": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.component.pk}],
        body=lambda w, world: {
            "details-kind": "component",
            "details-quantity": "12",
            "details-unit": "m2",
            "details-install_year": "1990",
        },
    ),
    "node_move": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.leaf.pk}],
        body=lambda w, world: {"move-parent": str(w.site.pk)},
    ),
    "node_child_create": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.building.pk}],
        body=lambda w, world: {"child-name": "Boiler", "child-kind": "component"},
    ),
    "node_code": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.leaf.pk}],
        body=lambda w, world: {"code-code": w.code.code},
    ),
    "node_code_clear": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"node_id": w.component.pk}]
    ),
    "node_delete": PlanRoute(200, (Right.EDIT, 302), kwargs=lambda w: [{"node_id": w.leaf.pk}]),
    "plan_actions": PlanRoute(200, None),
    "action_create": PlanRoute(
        None,
        (Right.EDIT, 302),
        body=lambda w, world: {
            "action-node": str(w.leaf.pk),
            "action-title": "New fence",
            "action-kind": "replacement",
            "action-planned_year": "2033",
            "action-estimated_cost": "500.00",
            "action-project": "",
        },
    ),
    "action_edit": PlanRoute(
        200,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"action_id": w.planned.pk}],
        body=lambda w, world: {
            "action-node": str(w.component.pk),
            "action-title": "Replace the roof",
            "action-kind": "replacement",
            "action-planned_year": "2031",
            "action-estimated_cost": "1900.00",
            "action-project": str(w.project.pk),
        },
    ),
    "action_cancel": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"action_id": w.planned.pk}]
    ),
    "action_done": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"action_id": w.planned.pk}]
    ),
    "action_done_undo": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"action_id": w.done.pk}]
    ),
    "actions_bulk": PlanRoute(
        None,
        (Right.EDIT, 302),
        body=lambda w, world: {
            "action": [str(w.planned.pk)],
            "change": "year",
            "to_year": "2032",
        },
    ),
    "actions_bulk_undo": PlanRoute(None, (Right.EDIT, 302)),
    "plan_money": PlanRoute(
        None,
        (Right.EDIT, 302),
        body=lambda w, world: {
            "money-price_base_year": "2026",
            "money-index_rate_percent": "3",
            "money-markup_1_name": "Overhead",
            "money-markup_1_percent": "10",
            "money-markup_2_name": "VAT",
            "money-markup_2_percent": "24",
            "money-annual_budget": "",
        },
    ),
    "node_building": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.building.pk}],
        body=lambda w, world: {
            "building-address": "Main street 1",
            "building-gross_floor_area_m2": "1200",
            "building-year_built": "1975",
        },
    ),
    "node_condition": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.component.pk}],
        body=lambda w, world: {
            "condition-condition_grade": "2",
            "condition-condition_assessed_on": "2026-05-01",
        },
    ),
    "node_survey": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.component.pk}],
        body=lambda w, world: {
            "survey-grade": "2",
            "survey-consequence": "1",
            "survey-note": "Moss",
            "survey-assessed_on": "2026-05-01",
        },
    ),
    "node_attachment_upload": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"node_id": w.component.pk}],
        body=lambda w, world: {"file": photo_upload("gutter.jpg", jpeg_bytes())},
    ),
    "action_attachment_upload": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"action_id": w.planned.pk}],
        body=lambda w, world: {"file": photo_upload("offer.jpg", jpeg_bytes())},
    ),
    "survey_buildings": PlanRoute(200, None),
    "survey_building": PlanRoute(200, None, kwargs=lambda w: [{"building_id": w.building.pk}]),
    "survey_components": PlanRoute(
        200, None, kwargs=lambda w: [{"building_id": w.building.pk}], json=True
    ),
    "survey_entry": PlanRoute(
        None,
        (Right.EDIT, 201),
        body=lambda w, world: {
            "key": str(uuid.uuid4()),
            "node": str(w.component.pk),
            "grade": 2,
            "consequence": 1,
            "note": "Moss",
            "assessed_on": "2026-05-01",
        },
        json=True,
    ),
    "survey_photo": PlanRoute(
        None,
        (Right.EDIT, 201),
        body=lambda w, world: {
            "key": str(uuid.uuid4()),
            "entry": w.survey_key,
            "file": photo_upload("moss.jpg", jpeg_bytes()),
        },
        json=True,
    ),
    "building_survey_report": PlanRoute(
        200, None, kwargs=lambda w: [{"node_id": w.building.pk, "fmt": f} for f in ("pdf", "xlsx")]
    ),
    "attachment_download": PlanRoute(
        200, None, kwargs=lambda w: [{"attachment_id": w.attachment.pk}]
    ),
    "attachment_thumbnail": PlanRoute(
        200, None, kwargs=lambda w: [{"attachment_id": w.attachment.pk}]
    ),
    "attachment_delete": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"attachment_id": w.attachment.pk}]
    ),
    "key_figures": PlanRoute(200, None),
    "follow_up": PlanRoute(200, None, query="?year_from=2025&year_to=2031"),
    "plan_history": PlanRoute(200, None),
    "plan_versions": PlanRoute(
        200,
        (Right.MANAGE, 302),
        body=lambda w, world: {"name": "Board", "decided_on": "2026-01-01", "note": ""},
    ),
    "plan_version": PlanRoute(200, None, kwargs=lambda w: [{"version_id": w.version.pk}]),
    "plan_version_export": PlanRoute(
        200,
        None,
        kwargs=lambda w: [{"version_id": w.version.pk, **fmt} for fmt in _fmts(w)],
    ),
    "plan_history_csv": PlanRoute(200, None),
    "plan_reports": PlanRoute(200, (Right.VIEW, 302), body=lambda w, world: {"prices": "today"}),
    "plan_report_progress": PlanRoute(200, None, kwargs=lambda w: [{"report_id": w.report.pk}]),
    "plan_report_download": PlanRoute(200, None, kwargs=lambda w: [{"report_id": w.report.pk}]),
    "export_plan": PlanRoute(200, None),
    "export_plan_as": PlanRoute(200, None, kwargs=lambda w: [{"fmt": "xlsx"}, {"fmt": "json"}]),
    "export_plan_table": PlanRoute(
        200, None, kwargs=lambda w: [{"table": "nodes"}, {"table": "actions"}]
    ),
    "action_reopen": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"action_id": w.done.pk}]
    ),
    "project_list": PlanRoute(
        200,
        (Right.EDIT, 302),
        body=lambda w, world: {"new-name": "Facade", "new-year": "2031"},
    ),
    "project_detail": PlanRoute(
        200,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"project_id": w.project.pk}],
        body=lambda w, world: {"project-name": "Roof and gutters", "project-year": "2031"},
    ),
    "project_actions_add": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"project_id": w.project.pk}],
        body=lambda w, world: {"action": [str(w.loose.pk)]},
    ),
    "project_action_remove": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"project_id": w.project.pk, "action_id": w.planned.pk}],
    ),
    "project_delete": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"project_id": w.project.pk}]
    ),
    "export_actions": PlanRoute(200, None, kwargs=_fmts),
    "export_budget": PlanRoute(200, None, kwargs=_fmts),
    "funding": PlanRoute(200, None),
    "fund_save": PlanRoute(
        None,
        (Right.EDIT, 302),
        body=lambda w, world: {
            "fund-opening_balance": "1000",
            "fund-start_year": "2026",
            "fund-interest_percent": "1",
            "fund-contribution": "500",
            "fund-contribution_increase_percent": "0",
            "fund-horizon_years": "20",
        },
    ),
    "scenario_create": PlanRoute(
        None,
        (Right.EDIT, 302),
        body=lambda w, world: {
            "scenario-name": "Matrix baseline",
            "scenario-opening_balance": "0",
            "scenario-start_year": "2026",
            "scenario-interest_percent": "0",
            "scenario-contribution_increase_percent": "0",
            "scenario-goal": "baseline",
            "scenario-horizon_years": "30",
        },
    ),
    "scenario_edit": PlanRoute(
        200,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"scenario_id": w.scenario.pk}],
        body=lambda w, world: {
            "scenario-name": "Matrix renamed",
            "scenario-opening_balance": "0",
            "scenario-start_year": "2026",
            "scenario-interest_percent": "0",
            "scenario-contribution": "75",
            "scenario-contribution_increase_percent": "0",
            "scenario-horizon_years": "30",
        },
    ),
    "scenario_delete": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"scenario_id": w.scenario.pk}]
    ),
    "funding_export": PlanRoute(200, None, kwargs=_fmts),
    "members": PlanRoute(
        200,
        (Right.MANAGE, 302),
        body=lambda w, world: {"add-email": world.newcomer.email, "add-role": "viewer"},
    ),
    "member_role_set": PlanRoute(
        None,
        (Right.MANAGE, 302),
        kwargs=lambda w: [{"membership_id": w.bystander_grant.pk}],
        body=lambda w, world: {f"m{w.bystander_grant.pk}-role": "editor"},
    ),
    "member_remove": PlanRoute(
        None, (Right.MANAGE, 302), kwargs=lambda w: [{"membership_id": w.bystander_grant.pk}]
    ),
    # planning/web/urls/action_planning.py
    "action_planning": PlanRoute(200, None),
    "planning_building_rows": PlanRoute(200, None, kwargs=lambda w: [{"node_id": w.building.pk}]),
    "suggestions_dismissed": PlanRoute(200, None),
    "suggestions_dismiss": PlanRoute(
        None,
        (Right.EDIT, 302),
        body=lambda w, world: {
            "suggestion": [str(w.open_suggestion.pk)],
            "reason": DismissReason.ACCEPTED,
            "comment": "",
        },
    ),
    "suggestions_dismiss_undo": PlanRoute(None, (Right.EDIT, 302)),
    "suggestion_apply": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"suggestion_id": w.grouping_suggestion.pk}]
    ),
    "suggestion_fix_undo": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"suggestion_id": w.open_suggestion.pk}]
    ),
    "suggestion_dismiss": PlanRoute(
        None,
        (Right.EDIT, 302),
        kwargs=lambda w: [{"suggestion_id": w.open_suggestion.pk}],
        body=lambda w, world: {"reason": DismissReason.FALSE_POSITIVE, "comment": ""},
    ),
    "suggestion_restore": PlanRoute(
        None, (Right.EDIT, 302), kwargs=lambda w: [{"suggestion_id": w.dismissed_suggestion.pk}]
    ),
}


class Audience(enum.Enum):
    """Who may use a planning URL that names no plan."""

    PUBLIC = "anyone, signed in or not"
    SIGNED_IN = "anyone signed in"
    IMPORT_OWNER = "the import's owner; anyone else gets what a missing import gets"


@dataclass(frozen=True)
class OtherRoute:
    audience: Audience
    get: int | None
    post: int | None
    kwargs: Callable[[World], dict[str, Any]] = lambda world: {}
    body: Callable[[World], dict[str, Any]] = lambda world: {}


EXAMPLE_PLAN = Path(settings.BASE_DIR) / "docs" / "examples" / "plan.json"


def _import_upload(world: World) -> dict[str, Any]:
    from django.core.files.uploadedfile import SimpleUploadedFile

    return {
        "import-plan_file": SimpleUploadedFile(
            "plan.json", EXAMPLE_PLAN.read_bytes(), content_type="application/json"
        ),
        "import-name": "Imported",
    }


OTHER_ROUTES: dict[str, OtherRoute] = {
    "plan_list": OtherRoute(
        Audience.SIGNED_IN, 200, 302, body=lambda world: {"create-name": "A new plan"}
    ),
    "plan_import": OtherRoute(Audience.SIGNED_IN, 302, 302, body=_import_upload),
    "plan_import_format": OtherRoute(Audience.PUBLIC, 200, None),
    "survey_worker": OtherRoute(Audience.PUBLIC, 200, None),
    "plan_import_template": OtherRoute(
        Audience.PUBLIC, 200, None, kwargs=lambda world: {"filename": "plan.json"}
    ),
    "plan_import_detail": OtherRoute(
        Audience.IMPORT_OWNER, 200, None, kwargs=lambda world: {"import_id": world.own_import.pk}
    ),
    "plan_import_progress": OtherRoute(
        Audience.IMPORT_OWNER, 200, None, kwargs=lambda world: {"import_id": world.own_import.pk}
    ),
    "plan_import_sheet_template": OtherRoute(Audience.PUBLIC, 200, None),
    # Its owner is sent on to the import's page: this import waits for no mapping.
    "plan_import_mapping": OtherRoute(
        Audience.IMPORT_OWNER, 302, 302, kwargs=lambda world: {"import_id": world.own_import.pk}
    ),
}
IMPORT_OWNER = "a-planner"


# --- the URL resolver ------------------------------------------------------------------------


@dataclass(frozen=True)
class ResolvedRoute:
    urlconf: str
    namespace: str
    name: str
    route: str


def _resolved(
    patterns: list[Any], *, urlconf: str, namespace: str, prefix: str
) -> Iterator[ResolvedRoute]:
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            inner = pattern.urlconf_name  # a module once include() imported it
            name = inner if isinstance(inner, str) else getattr(inner, "__name__", urlconf)
            yield from _resolved(
                pattern.url_patterns,
                urlconf=name,
                namespace=pattern.namespace or namespace,
                prefix=prefix + str(pattern.pattern),
            )
        elif isinstance(pattern, URLPattern) and pattern.name:
            yield ResolvedRoute(urlconf, namespace, pattern.name, prefix + str(pattern.pattern))


def resolved_routes() -> list[ResolvedRoute]:
    """Every named route the site answers, with the URL module that declares it."""
    return list(_resolved(get_resolver().url_patterns, urlconf="", namespace="", prefix=""))


def test_every_planning_url_has_a_row() -> None:
    planning = {
        r.name: r
        for r in resolved_routes()
        if r.urlconf in ("planning.web.urls.plans", "planning.web.urls.action_planning")
    }
    assert "action_planning" in planning  # the included module is read too

    assert set(planning) == set(PLAN_ROUTES) | set(OTHER_ROUTES), (
        "every URL of planning/web/urls/plans.py needs a row in PLAN_ROUTES or OTHER_ROUTES"
    )
    naming_a_plan = {name for name, r in planning.items() if "<int:number>" in r.route}
    assert naming_a_plan == set(PLAN_ROUTES)


def test_every_integrator_route_naming_a_plan_has_a_row() -> None:
    integrator = [r for r in resolved_routes() if r.urlconf == "platform_api.urls"]
    assert integrator
    naming_a_plan = {r.name for r in integrator if "planNumber" in r.route}
    assert naming_a_plan == set(API_PLAN_ROUTES)


# --- comparing with a missing plan -------------------------------------------------------------


def _without_csrf_token(content: bytes) -> bytes:
    return re.sub(rb'(name="csrfmiddlewaretoken" value=")[^"]+"', rb'\1"', content)


def assert_same_as_missing(
    response: Any, missing: Any, *, secret: str, swap: tuple[str, str]
) -> None:
    """`response` is exactly what the missing thing got: status, Location (with the missing
    number or id in the place of the real one), the bytes but for the CSRF token, and the
    secret (the plan's name) nowhere."""
    assert response.status_code == missing.status_code
    assert response.get("Location", "").replace(*swap) == missing.get("Location", "")
    assert _without_csrf_token(response.body_bytes) == _without_csrf_token(missing.body_bytes)
    assert secret.encode() not in response.body_bytes


def _request(
    client: Client, method: str, url: str, body: dict[str, Any], *, json: bool = False
) -> Any:
    """The response, with its body read (a download's stream too) as `body_bytes`; a JSON
    route's body without a file goes as JSON."""
    if method == "GET":
        response: Any = client.get(url)
    elif json and not any(hasattr(value, "read") for value in body.values()):
        response = client.post(url, body, content_type="application/json")
    else:
        response = client.post(url, body)
    if response.streaming:  # the test client closes it once the stream is read
        response.body_bytes = b"".join(response.streaming_content)
    else:
        response.body_bytes = response.content
    return response


# --- the web matrix ----------------------------------------------------------------------------


def expected_status(route: PlanRoute, method: str, role: PlanRole) -> int:
    if method == "GET":
        return route.get or 405
    if route.post is None:
        return 405
    needed, status = route.post
    return status if RIGHT_OF_ROLE[role] >= needed else 403


def _plan_state(w: PlanWorld) -> tuple[Any, ...]:
    """What a refused request must leave as it was."""
    plan = w.plan
    return (
        list(Plan.objects.filter(pk=plan.pk).values_list("name", "currency", "data_version")),
        list(
            StructureNode.objects.filter(plan=plan)
            .values_list("id", "name", "parent_id", "code_id")
            .order_by("id")
        ),
        list(plan.actions.values_list("id", "title", "status", "project_id").order_by("id")),
        list(Project.objects.filter(plan=plan).values_list("id", "name", "year").order_by("id")),
        list(PlanMembership.objects.filter(plan=plan).values_list("id", "role").order_by("id")),
        list(Suggestion.objects.filter(plan=plan).values_list("id", "status").order_by("id")),
        list(Attachment.objects.filter(plan=plan).values_list("id", flat=True).order_by("id")),
        list(ConditionSurvey.objects.filter(plan=plan).values_list("id", flat=True).order_by("id")),
    )


@pytest.mark.parametrize("route_name", list(PLAN_ROUTES))
@pytest.mark.parametrize("plan_key", TARGET_PLANS)
@pytest.mark.parametrize("principal", list(PRINCIPALS))
def test_plan_route(world: World, principal: str, plan_key: str, route_name: str) -> None:
    """A GET, then a POST (both, whatever the view answers: a method it does not answer is a
    405 for those who see the plan and a missing plan's 404 for the others)."""
    route = PLAN_ROUTES[route_name]
    target = world.plans[plan_key]
    for method in ("GET", "POST"):
        for kwargs in route.kwargs(target):
            _plan_request_check(world, principal, plan_key, route_name, method, kwargs)


def _plan_request_check(
    world: World,
    principal: str,
    plan_key: str,
    route_name: str,
    method: str,
    kwargs: dict[str, Any],
) -> None:
    route = PLAN_ROUTES[route_name]
    target = world.plans[plan_key]
    number = target.plan.number
    role = PRINCIPALS[principal].expected.get(plan_key)
    client = client_for(world, principal)
    body = route.body(target, world) if method == "POST" else {}
    url = reverse(f"planning:{route_name}", kwargs={"number": number, **kwargs})
    url += route.query if method == "GET" else ""
    where = (principal, role, method, url)
    before = _plan_state(target) if role is None or method == "POST" else None

    response = _request(client, method, url, body, json=route.json)

    if role is not None and not PRINCIPALS[principal].anonymous:
        want = expected_status(route, method, role)
        assert response.status_code == want, where
        if want == 403:
            assert _plan_state(target) == before, where
        return
    if PRINCIPALS[principal].anonymous and route.json:
        assert response.status_code == 401, where
    elif PRINCIPALS[principal].anonymous:
        assert response.status_code == 302, where
        assert response["Location"].startswith(reverse("accounts:login")), where
    else:
        assert response.status_code == 404, where
    assert _plan_state(target) == before, where
    swap = (f"/plans/{number}/", f"/plans/{MISSING_NUMBER}/")
    missing = _request(client, method, url.replace(*swap, 1), body, json=route.json)
    assert_same_as_missing(response, missing, secret=target.plan.name, swap=swap)


@pytest.mark.parametrize("method", ["GET", "POST"])
@pytest.mark.parametrize("route_name", list(OTHER_ROUTES))
@pytest.mark.parametrize("principal", list(PRINCIPALS))
def test_route_naming_no_plan(world: World, principal: str, route_name: str, method: str) -> None:
    route = OTHER_ROUTES[route_name]
    client = client_for(world, principal)
    url = reverse(f"planning:{route_name}", kwargs=route.kwargs(world))
    body = route.body(world) if method == "POST" else {}
    allowed = route.get if method == "GET" else route.post

    response = _request(client, method, url, body)

    anonymous = PRINCIPALS[principal].anonymous
    if anonymous and route.audience is not Audience.PUBLIC:
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("accounts:login"))
        return
    if route.audience is Audience.IMPORT_OWNER and principal != IMPORT_OWNER:
        real = str(world.own_import.pk)
        missing_id = str(uuid.uuid4())
        missing = _request(client, method, url.replace(real, missing_id), body)
        assert response.status_code == (404 if method == "GET" or route.post else 405)
        assert_same_as_missing(
            response, missing, secret=world.own_import.filename, swap=(real, missing_id)
        )
        return
    assert response.status_code == (allowed or 405), (principal, url, method)
    # No plan list shows a plan to someone who may not see it.
    for key, target in world.plans.items():
        if PRINCIPALS[principal].expected.get(key) is None:
            assert target.plan.name.encode() not in response.body_bytes


# --- the integrator API ------------------------------------------------------------------------


@dataclass(frozen=True)
class ApiPlanRoute:
    """A route of platform_api/urls.py that names a plan: its method and what a key that
    may read the plan gets."""

    method: str
    status: int
    message_key: str
    arguments: Callable[[Plan], dict[str, str]] = lambda plan: {}  # the URL's other ones


def _version_of(plan: Plan) -> dict[str, str]:
    """The id of an adopted version of the plan (adopted here if it has none)."""
    version = PlanVersion.objects.filter(plan=plan).first() or plan_adopt(plan=plan, name="V")
    return {"versionId": str(version.pk)}


def _a_suggestion_of(plan: Plan) -> dict[str, str]:
    """The id of one of the plan's suggestions (a made-up id when it has none)."""
    suggestion = Suggestion.objects.filter(plan=plan).first()
    return {"suggestionId": str(suggestion.pk if suggestion else uuid.uuid4())}


def _an_action_of(plan: Plan) -> dict[str, str]:
    """The id of one of the plan's planned actions (a made-up id when it has none)."""
    action = plan.actions.filter(status=ActionStatus.PLANNED).order_by("pk").first()
    return {"actionId": str(action.pk if action else uuid.uuid4())}


API_PLAN_ROUTES: dict[str, ApiPlanRoute] = {
    "api-plan-suggestions": ApiPlanRoute("GET", 200, "ok"),
    "api-plan": ApiPlanRoute("GET", 200, "ok"),
    "api-plan-nodes": ApiPlanRoute("GET", 200, "ok"),
    "api-plan-actions": ApiPlanRoute("GET", 200, "ok"),
    "api-plan-projects": ApiPlanRoute("GET", 200, "ok"),
    "api-plan-history": ApiPlanRoute("GET", 200, "ok"),
    "api-plan-funding": ApiPlanRoute("GET", 200, "ok"),
    # The matrix's keys may only read: acting on a plan they may read is 403, the rest 404.
    "api-suggestion-dismiss": ApiPlanRoute(
        "POST", 403, "auth.insufficient_permission", _a_suggestion_of
    ),
    "api-suggestion-restore": ApiPlanRoute(
        "POST", 403, "auth.insufficient_permission", _a_suggestion_of
    ),
    "api-suggestion-apply": ApiPlanRoute(
        "POST", 403, "auth.insufficient_permission", _a_suggestion_of
    ),
    "api-plan-action": ApiPlanRoute("PATCH", 403, "auth.insufficient_permission", _an_action_of),
    "api-plan-action-complete": ApiPlanRoute(
        "POST", 403, "auth.insufficient_permission", _an_action_of
    ),
    "api-plan-versions": ApiPlanRoute("GET", 200, "ok"),
    "api-plan-version-actions": ApiPlanRoute("GET", 200, "ok", _version_of),
}

# Who reads through which key: every person's own key, the organisations' service accounts.
API_PRINCIPALS = [*PEOPLE, "service-A", "service-B", "service-A-limited-to-A2", "no-key"]
SERVICE_SEES = {"service-A": {"A1"}, "service-B": {"B1"}, "service-A-limited-to-A2": set()}


def _api_key(world: World, principal: str) -> str | None:
    if principal == "no-key":
        return None
    if principal.startswith("service-"):
        return world.service_keys[
            {"service-A": "A", "service-B": "B", "service-A-limited-to-A2": "A limited to A2"}[
                principal
            ]
        ]
    return world.keys[principal]


def _sees(principal: str, plan_key: str) -> bool:
    if principal in SERVICE_SEES:
        return plan_key in SERVICE_SEES[principal]
    if principal == "no-key":
        return False
    return plan_key in PRINCIPALS[principal].expected


def _api_url(route_name: str, number: int, plan: Plan) -> str:
    """The route's URL with `number` as the plan number and `plan`'s other arguments."""
    extra = API_PLAN_ROUTES[route_name].arguments(plan)
    return reverse(route_name, kwargs={"planNumber": str(number), **extra})


def _api_call(route: ApiPlanRoute, url: str, key: str | None) -> Any:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return Client().generic(route.method, url, headers=headers)


def assert_api_same_as_missing(response: Any, missing: Any, *, secret: str) -> None:
    """The same status and envelope as for a missing plan number (the trace id aside)."""
    body, missing_body = response.json(), missing.json()
    body.pop("traceId"), missing_body.pop("traceId")
    assert response.status_code == missing.status_code
    assert body == missing_body
    assert secret.encode() not in response.content


def _api_case(
    world: World,
    *,
    principal: str,
    plan_key: str,
    route_name: str,
    key: str | None,
    allowed: tuple[int, str] | None,
) -> None:
    """`allowed`: the status and messageKey for a key that may see the plan; None: the answer
    must be exactly a missing plan's."""
    route = API_PLAN_ROUTES[route_name]
    target = world.plans[plan_key].plan
    response = _api_call(route, _api_url(route_name, target.number, target), key)
    if allowed is not None:
        assert_envelope(response, *allowed)
        return
    missing = _api_call(route, _api_url(route_name, MISSING_NUMBER, target), key)
    if key is not None:
        assert_envelope(response, 404, "plans.not_found")
    assert_api_same_as_missing(response, missing, secret=target.name)


@pytest.mark.parametrize("route_name", list(API_PLAN_ROUTES))
@pytest.mark.parametrize("plan_key", TARGET_PLANS)
@pytest.mark.parametrize("principal", API_PRINCIPALS)
def test_api_route(world: World, principal: str, plan_key: str, route_name: str) -> None:
    route = API_PLAN_ROUTES[route_name]
    sees = _sees(principal, plan_key)
    _api_case(
        world,
        principal=principal,
        plan_key=plan_key,
        route_name=route_name,
        key=_api_key(world, principal),
        allowed=(route.status, route.message_key) if sees else None,
    )


@pytest.mark.parametrize("route_name", list(API_PLAN_ROUTES))
@pytest.mark.parametrize("plan_key", TARGET_PLANS)
@pytest.mark.parametrize("principal", PEOPLE)
def test_api_key_limited_to_another_plan(
    world: World, principal: str, plan_key: str, route_name: str
) -> None:
    """A key limited to the person's own plan reads that one and nothing else."""
    route = API_PLAN_ROUTES[route_name]
    key = world.limited_keys[principal]
    own_plan = world.own_plans[principal]
    own = _api_call(route, _api_url(route_name, own_plan.number, own_plan), key)
    assert_envelope(own, route.status, route.message_key)

    _api_case(
        world, principal=principal, plan_key=plan_key, route_name=route_name, key=key, allowed=None
    )


def _api_access_off(world: World, plan_key: str) -> None:
    Organisation.objects.filter(plans=world.plans[plan_key].plan).update(api_access_enabled=False)


@pytest.mark.parametrize("route_name", list(API_PLAN_ROUTES))
@pytest.mark.parametrize("plan_key", TARGET_PLANS)
@pytest.mark.parametrize("principal", [*PEOPLE, "service-A", "service-B"])
def test_api_organisation_without_api_access(
    world: World, principal: str, plan_key: str, route_name: str, settings: Any
) -> None:
    """The plan's organisation has no API access: 403 for those who may see it, and still a
    missing plan's 404 for everyone else (their keys work elsewhere)."""
    settings.API_ACCESS_REQUIRES_GRANT = True
    _api_access_off(world, plan_key)
    sees = _sees(principal, plan_key)
    if principal.startswith("service-") and sees:
        allowed: tuple[int, str] | None = (403, "auth.api_access_disabled")  # at the key itself
    elif principal.startswith("service-"):
        allowed = None
    else:
        allowed = (403, "auth.api_access_disabled") if sees else None
    _api_case(
        world,
        principal=principal,
        plan_key=plan_key,
        route_name=route_name,
        key=_api_key(world, principal),
        allowed=allowed,
    )


@pytest.mark.parametrize("route_name", list(API_PLAN_ROUTES))
@pytest.mark.parametrize("plan_key", TARGET_PLANS)
@pytest.mark.parametrize("principal", PEOPLE)
def test_api_personal_override_reads_a_plan_of_an_organisation_without_api_access(
    world: World, principal: str, plan_key: str, route_name: str, settings: Any
) -> None:
    """Staff's per-user override: every plan the person sees, nothing more."""
    settings.API_ACCESS_REQUIRES_GRANT = True
    _api_access_off(world, plan_key)
    User.objects.filter(pk=world.users[principal].pk).update(api_access_enabled=True)
    route = API_PLAN_ROUTES[route_name]
    sees = _sees(principal, plan_key)
    _api_case(
        world,
        principal=principal,
        plan_key=plan_key,
        route_name=route_name,
        key=world.keys[principal],
        allowed=(route.status, route.message_key) if sees else None,
    )


# --- acts with keys that may write -----------------------------------------------------------


@dataclass(frozen=True)
class ApiAct:
    """An act of platform_api/urls.py: what it acts on (the URL's argument and the row), its
    method and body, and its answer for a key whose holder may change the plan."""

    acted_on: Callable[[PlanWorld], tuple[str, Any]]
    body: dict[str, Any]
    message_key: str
    method: str = "POST"


API_ACTS: dict[str, ApiAct] = {
    "api-suggestion-dismiss": ApiAct(
        lambda w: ("suggestionId", w.open_suggestion),
        {"reason": "not_applicable"},
        "suggestions.dismissed",
    ),
    "api-suggestion-restore": ApiAct(
        lambda w: ("suggestionId", w.dismissed_suggestion), {}, "suggestions.restored"
    ),
    "api-suggestion-apply": ApiAct(
        lambda w: ("suggestionId", w.grouping_suggestion), {}, "suggestions.applied"
    ),
    "api-plan-action": ApiAct(
        lambda w: ("actionId", w.loose), {"title": "Renamed by the API"}, "actions.updated", "PATCH"
    ),
    "api-plan-action-complete": ApiAct(
        lambda w: ("actionId", w.loose),
        {"completed_on": "2026-05-01", "actual_cost": "120.00"},
        "actions.completed",
    ),
}
# The read_write service-account keys and the right their organisation gives on each plan.
WRITE_SERVICE_KEYS = {"service-A-rw": "A read_write", "service-B-rw": "B read_write"}
WRITE_SERVICE_SEES = {"service-A-rw": {"A1"}, "service-B-rw": {"B1"}}


def test_every_act_of_the_api_has_a_row() -> None:
    acts = {name for name, route in API_PLAN_ROUTES.items() if route.method != "GET"}
    assert acts == set(API_ACTS)


def _act_call(world: World, route_name: str, number: int, target: PlanWorld, key: str) -> Any:
    act = API_ACTS[route_name]
    argument, row = act.acted_on(target)
    url = reverse(route_name, kwargs={"planNumber": str(number), argument: str(row.pk)})
    return Client().generic(
        act.method,
        url,
        json.dumps(act.body),
        content_type="application/json",
        headers={"Authorization": f"Bearer {key}"},
    )


@pytest.mark.parametrize("route_name", list(API_ACTS))
@pytest.mark.parametrize("plan_key", TARGET_PLANS)
@pytest.mark.parametrize("principal", [*PEOPLE, *WRITE_SERVICE_KEYS])
def test_api_act_with_a_read_write_key(
    world: World, principal: str, plan_key: str, route_name: str
) -> None:
    """A key acts with at most its holder's rights on the plan (docs/subsystems/integrator-api.md
    "Acts"): an editor, an owner or the organisation's service account acts; a viewer (a member or a
    guest) gets 403 auth.insufficient_permission and the suggestion stays as it was; anyone who may
    not see the plan gets exactly a missing plan's 404."""
    target = world.plans[plan_key]
    if principal in WRITE_SERVICE_KEYS:
        key = world.service_keys[WRITE_SERVICE_KEYS[principal]]
        sees = plan_key in WRITE_SERVICE_SEES[principal]
        role: PlanRole | None = PlanRole.OWNER if sees else None
    else:
        key = world.write_keys[principal]
        role = PRINCIPALS[principal].expected.get(plan_key)
    before = _plan_state(target)

    response = _act_call(world, route_name, target.plan.number, target, key)

    where = (principal, role, route_name)
    if role is None:
        missing = _act_call(world, route_name, MISSING_NUMBER, target, key)
        assert_envelope(response, 404, "plans.not_found")
        assert_api_same_as_missing(response, missing, secret=target.plan.name)
        assert _plan_state(target) == before, where
    elif RIGHT_OF_ROLE[role] >= Right.EDIT:
        body = assert_envelope(response, 200, API_ACTS[route_name].message_key)
        assert body["data"]["id"] == str(API_ACTS[route_name].acted_on(target)[1].pk), where
    else:
        assert_envelope(response, 403, "auth.insufficient_permission")
        assert _plan_state(target) == before, where


def test_the_world_is_what_the_table_says(world: World) -> None:
    """The roles the table expects come from the memberships built, not from a typo: each
    principal's organisation memberships and grants are exactly those listed."""
    for name, principal in PRINCIPALS.items():
        if principal.anonymous:
            continue
        user = world.users[name]
        roles = {
            key: user.organisation_memberships.get(organisation=organisation).role
            for key, organisation in world.organisations.items()
            if user.organisation_memberships.filter(organisation=organisation).exists()
        }
        assert roles == principal.organisation_roles
        grants = {
            key: PlanMembership.objects.get(plan=target.plan, user=user).role
            for key, target in world.plans.items()
            if PlanMembership.objects.filter(plan=target.plan, user=user).exists()
        }
        assert grants == principal.grants

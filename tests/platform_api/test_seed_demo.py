from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from accounts.models import User
from apikeys.keys import key_hash
from apikeys.models import ApiKey
from planning.models import (
    Action,
    ActionKind,
    Code,
    NodeKind,
    Plan,
)
from platform_api.management.commands.seed_demo import (
    DEMO_EMAIL,
    DEMO_PLAN_NAME,
    demo_plan_document,
)
from tests.factories import UserFactory
from tests.planning.conftest import db_counts

pytestmark = pytest.mark.django_db


def _seed() -> str:
    stdout = StringIO()
    call_command("seed_demo", stdout=stdout)
    return stdout.getvalue()


def _demo_plan() -> Plan:
    return Plan.objects.get(name=DEMO_PLAN_NAME)


def test_first_run_creates_the_demo_user_with_the_printed_password() -> None:
    output = _seed()

    password = re.search(rf"Demo login: {re.escape(DEMO_EMAIL)}\s+password: (\S+)", output)
    assert password is not None
    user = User.objects.get(email=DEMO_EMAIL)
    assert user.check_password(password.group(1))
    assert user.api_access_enabled is True


@pytest.mark.usefixtures("starter_catalog")
def test_first_run_creates_the_demo_plan_owned_by_the_demo_user() -> None:
    _seed()

    plan = _demo_plan()
    demo_user = plan.organisation.personal_for
    assert demo_user is not None and demo_user.email == DEMO_EMAIL
    kinds = Counter(plan.nodes.values_list("kind", flat=True))
    assert kinds[NodeKind.SITE] == 2
    assert kinds[NodeKind.BUILDING] == 5
    assert 140 <= kinds[NodeKind.COMPONENT] <= 160
    assert 350 <= plan.actions.count() <= 450


@pytest.mark.usefixtures("starter_catalog")
def test_demo_actions_span_ten_years_from_this_year_and_one_is_overdue() -> None:
    _seed()

    years = Counter(_demo_plan().actions.values_list("planned_year", flat=True))
    this_year = timezone.now().year
    assert set(years) == set(range(this_year - 1, this_year + 10))
    assert years[this_year - 1] == 1


@pytest.mark.usefixtures("starter_catalog")
def test_the_demo_shows_every_rule_and_the_organisations_catalog_at_work(client: Client) -> None:
    from django.urls import reverse

    from planning.models import CodeOverride, SuggestionType
    from planning.suggestions.sync.run import suggestion_sync

    _seed()
    plan = _demo_plan()
    suggestion_sync(plan=plan)

    open_types = set(
        plan.suggestions.filter(status="open").values_list("suggestion_type", flat=True)
    )
    assert open_types == set(SuggestionType.values)
    override = CodeOverride.objects.get(organisation=plan.organisation)
    assert (override.code.code, override.unit_cost) == ("334.2", Decimal("640.00"))
    client.force_login(User.objects.get(email=DEMO_EMAIL))
    learned = client.get(reverse("catalog:learned", args=[plan.organisation.slug]))
    from planning.models import Completion

    # The replacements marked done (the plan's file also has inspections done this year,
    # imported as completions of their own: docs/subsystems/imports.md "Work done").
    done = Completion.objects.filter(action__plan=plan, action__kind="replacement").select_related(
        "action__node__code"
    )
    codes = {completion.action.node.code.code for completion in done}  # type: ignore[union-attr]
    assert len(done) == 3 and len(codes) == 1
    assert f'data-code="{codes.pop()}"' in learned.content.decode()


@pytest.mark.usefixtures("starter_catalog")
def test_demo_plan_has_components_missing_their_code() -> None:
    _seed()

    components = _demo_plan().nodes.filter(kind=NodeKind.COMPONENT)
    assert components.filter(code__isnull=True).count() >= 5
    assert components.filter(code__isnull=False).count() >= 100


@pytest.mark.usefixtures("starter_catalog")
def test_demo_plan_has_cost_and_timing_outliers() -> None:
    _seed()

    cost_outliers = timing_outliers = 0
    replacements = Action.objects.filter(
        plan=_demo_plan(), kind=ActionKind.REPLACEMENT, node__code__isnull=False
    ).select_related("node__code")
    for action in replacements:
        node: Any = action.node
        code: Any = node.code
        reference = code.unit_cost * node.quantity
        if abs(action.estimated_cost - reference) > reference:
            cost_outliers += 1
        if abs(action.planned_year - (node.install_year + code.service_life_years)) >= 5:
            timing_outliers += 1
    assert cost_outliers >= 2
    assert timing_outliers >= 2


@pytest.mark.usefixtures("starter_catalog")
def test_demo_plan_has_groupable_actions_in_one_building_and_year() -> None:
    _seed()

    plan = _demo_plan()
    building_of = {}
    for building in plan.nodes.filter(kind=NodeKind.BUILDING):
        for system in building.children.all():
            for component in system.children.all():
                building_of[component.id] = building.name
    per_building_year = Counter(
        (building_of[node_id], year)
        for node_id, year in plan.actions.filter(
            kind=ActionKind.REPLACEMENT, project__isnull=True
        ).values_list("node_id", "planned_year")
        if node_id in building_of
    )
    assert max(per_building_year.values()) >= 5


def test_demo_document_is_the_same_every_time() -> None:
    assert demo_plan_document(year=2026) == demo_plan_document(year=2026)


def test_demo_plan_imports_without_a_catalog() -> None:
    Code.objects.all().delete()

    _seed()

    assert _demo_plan().nodes.filter(code__isnull=False).count() == 0
    assert _demo_plan().actions.count() > 300


def test_second_run_changes_nothing_and_says_so() -> None:
    _seed()
    before = db_counts()

    output = _seed()

    assert db_counts() == before
    assert output.splitlines() == [
        f"Demo data already in place ({DEMO_EMAIL}, plan #{_demo_plan().number}); nothing "
        f"changed. Forgot the password? manage.py changepassword {DEMO_EMAIL}"
    ]


def test_existing_demo_user_gets_api_access_and_keeps_the_password() -> None:
    UserFactory(email=DEMO_EMAIL, password="kept-password-99", api_access_enabled=False)

    output = _seed()

    user = User.objects.get(email=DEMO_EMAIL)
    assert user.api_access_enabled is True
    assert user.check_password("kept-password-99")
    assert "password:" not in output
    assert Plan.objects.filter(name=DEMO_PLAN_NAME).count() == 1


def test_first_run_prints_a_working_api_key(client: Client) -> None:
    output = _seed()

    raw_key = re.search(r"Demo API key \(shown this once\): (mpk_\w+)", output)
    assert raw_key is not None
    api_key = ApiKey.objects.get(key_hash=key_hash(raw_key.group(1)))
    assert api_key.owner is not None and api_key.owner.email == DEMO_EMAIL
    assert api_key.revoked_at is None
    response = client.get(
        f"/api/v1/platform/plans/{_demo_plan().number}/suggestions",
        HTTP_AUTHORIZATION=f"Bearer {raw_key.group(1)}",
    )
    assert response.status_code == 200, response.content
    assert response.json()["data"]["open_count"] > 0


def test_second_run_prints_no_key_and_creates_none() -> None:
    _seed()
    keys_before = ApiKey.objects.count()

    output = _seed()

    assert "mpk_" not in output
    assert ApiKey.objects.count() == keys_before


@pytest.mark.usefixtures("starter_catalog")
def test_a_fresh_demo_shows_something_in_every_tab_and_every_section_of_the_guide(
    client: Client,
) -> None:
    """docs/integrators.md on the demo: its history, an adopted version's actions, events, and a
    dismiss with the printed key; and the plan's tabs each with something on them."""
    from planning.models import Completion, HistoryEntry, Project, Suggestion

    output = _seed()
    plan = _demo_plan()
    raw_key = re.search(r"Demo API key \(shown this once\): (mpk_\w+)", output)
    assert raw_key is not None
    auth = {"Authorization": f"Bearer {raw_key.group(1)}"}
    api = f"/api/v1/platform/plans/{plan.number}"

    # section 14: the history and the newest adopted version's actions
    assert client.get(f"{api}/history", headers=auth).json()["data"]["entries"]
    versions = client.get(f"{api}/versions", headers=auth).json()["data"]["versions"]
    assert [v["name"] for v in versions] == [f"Adopted by the board {timezone.now().year}"]
    actions = client.get(f"{api}/versions/{versions[0]['id']}/actions", headers=auth).json()["data"]
    assert actions["actions"]
    # section 15: the printed key may act on suggestions
    open_one = Suggestion.objects.filter(plan=plan, status="open").order_by("id").first()
    assert open_one is not None
    dismissed = client.post(
        f"{api}/suggestions/{open_one.pk}/dismiss",
        {"reason": "accepted"},
        content_type="application/json",
        headers=auth,
    )
    assert dismissed.status_code == 200, dismissed.content
    # section 16: events of the plan's suggestions
    assert client.get("/api/v1/platform/events", {"plan": plan.number}, headers=auth).json()[
        "data"
    ]["events"]

    # the tabs: a project, work done with its actual cost, a dismissed suggestion, the demo
    # planner in the history, and the plan now differing from its adopted version
    assert Project.objects.filter(plan=plan, actions__isnull=False).exists()
    assert Completion.objects.filter(action__kind="repair", actual_cost__isnull=False).count() == 3
    assert Suggestion.objects.filter(plan=plan, dismiss_comment__startswith="Planned with").exists()
    assert HistoryEntry.objects.filter(plan_id=plan.pk, actor_label=DEMO_EMAIL).exists()
    client.force_login(User.objects.get(email=DEMO_EMAIL))
    version_page = client.get(f"/plans/{plan.number}/versions/{versions[0]['id']}/")
    assert "changed" in version_page.content.decode()
    for tab in ("", "actions/", "planning/", "projects/", "follow-up/", "versions/", "history/"):
        response = client.get(f"/plans/{plan.number}/{tab}")
        assert response.status_code == 200, tab
    # the seed's dismissal and the key's just now
    assert "Dismissed (2)" in client.get(f"/plans/{plan.number}/planning/").content.decode()

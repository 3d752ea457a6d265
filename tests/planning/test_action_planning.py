"""The action-planning view: grid, chart, suggestions with Apply and Dismiss."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from django.test import Client

from planning.models import ActionKind, ActionStatus, NodeKind, Plan, PlanRole, Suggestion
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    CodeFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


def planning_url(plan: Plan) -> str:
    return f"/plans/{plan.number}/planning/"


def make_plan(user: Any, role: str = PlanRole.OWNER) -> dict[str, Any]:
    plan = PlanFactory.create(name="Harbour house")
    PlanMembershipFactory.create(plan=plan, user=user, role=role)
    code = CodeFactory.create(name="Qwertyfan unit", keywords="qwertyfan", unit_cost=Decimal("100"))
    building = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="House A")
    fan = StructureNodeFactory.create(plan=plan, parent=building, name="Qwertyfan")
    roof = StructureNodeFactory.create(
        plan=plan, parent=building, name="Roof", code=code, quantity=Decimal("10")
    )
    ActionFactory.create(node=fan, planned_year=2030, estimated_cost=Decimal("250.00"))
    ActionFactory.create(
        node=roof,
        planned_year=2030,
        kind=ActionKind.REPLACEMENT,
        estimated_cost=Decimal("1800.00"),
    )
    ActionFactory.create(node=roof, planned_year=2032, estimated_cost=Decimal("100.00"))
    ActionFactory.create(
        node=roof, planned_year=2031, estimated_cost=Decimal("999"), status=ActionStatus.DONE
    )
    return {"plan": plan, "code": code, "building": building, "fan": fan, "roof": roof}


def suggestion(plan: Plan, fingerprint: str) -> Suggestion:
    return Suggestion.objects.get(plan=plan, fingerprint=fingerprint)


@pytest.fixture
def owner_client(client: Client, user: Any) -> Client:
    client.force_login(user)
    return client


def test_page_syncs_and_shows_grid_chart_and_open_suggestions(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    response = owner_client.get(planning_url(items["plan"]))
    html = response.content.decode()
    assert response.status_code == 200
    assert Suggestion.objects.filter(plan=items["plan"], status="open").count() == 3
    assert "Group 2 actions on “House A” in 2030 into a project" in html
    assert "Assign a classification code to “Qwertyfan”" in html
    assert "Replacement cost on “Roof” in 2030 deviates from the reference" in html
    assert "3 open" in html
    # years 2030..2032 contiguous, done actions left out of the totals
    assert '<g class="bar" data-year="2030" data-total="2050.00">' in html
    assert '<g class="bar" data-year="2031" data-total="0.00">' in html
    assert '<g class="bar" data-year="2032" data-total="100.00">' in html
    assert "2150.00" in html  # grand total
    assert f"?node={items['roof'].pk}&amp;year=2030" in html  # deviation: the filtered view


def test_apply_code_assigns_it_and_resolves_the_suggestion(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    missing = suggestion(items["plan"], f"missing_code:{items['fan'].pk}")

    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{missing.pk}/apply/",
        {"code": str(items["code"].pk)},
        follow=True,
    )

    items["fan"].refresh_from_db()
    missing.refresh_from_db()
    assert items["fan"].code_id == items["code"].pk
    assert (missing.status, missing.resolution) == ("resolved", "applied")
    html = response.content.decode()
    assert "Code assigned" in html
    assert f'id="suggestion-{missing.pk}"' not in html


def test_apply_code_rejects_a_code_that_was_not_proposed(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    missing = suggestion(items["plan"], f"missing_code:{items['fan'].pk}")
    other = CodeFactory.create()
    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{missing.pk}/apply/",
        {"code": str(other.pk)},
        follow=True,
    )
    missing.refresh_from_db()
    assert missing.status == "open"
    assert "Choose one of the proposed codes." in response.content.decode()


def test_apply_code_never_overwrites_a_code_assigned_since(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    missing = suggestion(items["plan"], f"missing_code:{items['fan'].pk}")
    chosen_meanwhile = CodeFactory.create()
    items["fan"].code = chosen_meanwhile  # another tab assigned a code after the page loaded
    items["fan"].save()

    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{missing.pk}/apply/",
        {"code": str(items["code"].pk)},
        follow=True,
    )

    items["fan"].refresh_from_db()
    assert items["fan"].code_id == chosen_meanwhile.pk
    assert "has a code already" in response.content.decode()
    missing.refresh_from_db()
    assert missing.resolution != "applied"


def test_apply_grouping_creates_the_project(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    grouping = suggestion(items["plan"], f"project_grouping:{items['building'].pk}:2030")
    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{grouping.pk}/apply/", follow=True
    )
    project = items["plan"].projects.get()
    assert (project.name, project.year, project.actions.count()) == ("House A 2030", 2030, 2)
    assert "Project “House A 2030” created." in response.content.decode()
    grouping.refresh_from_db()
    assert grouping.resolution == "applied"


def test_apply_deviation_opens_the_filtered_actions(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")
    response = owner_client.post(f"{planning_url(items['plan'])}suggestions/{deviation.pk}/apply/")
    assert response.status_code == 302
    assert response["Location"] == (
        f"/plans/{items['plan'].number}/?node={items['roof'].pk}&year=2030"
    )


def test_dismiss_with_reason_and_comment(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")
    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/dismiss/",
        {"reason": "planned_elsewhere", "comment": "In the 2030 framework contract"},
        follow=True,
    )
    deviation.refresh_from_db()
    assert deviation.status == "dismissed"
    assert (deviation.dismiss_reason, deviation.dismissed_by) == ("planned_elsewhere", user)
    assert deviation.dismiss_comment == "In the 2030 framework contract"
    assert "deviates from the reference" not in response.content.decode().split("<aside")[1]


@pytest.mark.parametrize(
    "post", [{"reason": "bored"}, {}, {"reason": "accepted", "comment": "x" * 281}]
)
def test_dismiss_with_bad_input_is_refused(owner_client: Client, user: Any, post: dict) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")
    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/dismiss/", post, follow=True
    )
    assert response.status_code == 200
    assert "Not dismissed." in response.content.decode()
    deviation.refresh_from_db()
    assert deviation.status == "open"


def test_viewer_sees_suggestions_but_cannot_apply_or_dismiss(client: Client, user: Any) -> None:
    items = make_plan(user, role=PlanRole.VIEWER)
    client.force_login(user)
    html = client.get(planning_url(items["plan"])).content.decode()
    assert "Assign a classification code to “Qwertyfan”" in html
    assert "Dismiss…" not in html
    assert "Apply: assign code" not in html
    missing = suggestion(items["plan"], f"missing_code:{items['fan'].pk}")
    base = f"{planning_url(items['plan'])}suggestions/{missing.pk}"
    assert client.post(f"{base}/apply/", {"code": str(items["code"].pk)}).status_code == 403
    assert client.post(f"{base}/dismiss/", {"reason": "accepted"}).status_code == 403
    missing.refresh_from_db()
    assert missing.status == "open"


def test_non_member_gets_404(client: Client, user: Any) -> None:
    items = make_plan(UserFactory.create())
    client.force_login(user)
    assert client.get(planning_url(items["plan"])).status_code == 404
    assert not Suggestion.objects.filter(plan=items["plan"]).exists()


def test_anonymous_is_sent_to_login(client: Client, user: Any) -> None:
    items = make_plan(user)
    response = client.get(planning_url(items["plan"]))
    assert response.status_code == 302
    assert "/accounts/login/" in response["Location"]


def test_suggestion_of_another_plan_is_404(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    other = make_plan(UserFactory.create())
    assert owner_client.get(planning_url(other["plan"])).status_code == 404
    assert not Suggestion.objects.filter(plan=other["plan"]).exists()  # nothing synced
    foreign = StructureNodeFactory.create(plan=other["plan"])
    from planning.suggestions.sync import suggestion_sync

    suggestion_sync(plan=other["plan"])
    alien = suggestion(other["plan"], f"missing_code:{foreign.pk}")
    dismiss = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{alien.pk}/dismiss/", {"reason": "accepted"}
    )
    apply = owner_client.post(f"{planning_url(items['plan'])}suggestions/{alien.pk}/apply/")
    assert dismiss.status_code == apply.status_code == 404
    alien.refresh_from_db()
    assert alien.status == "open"


# --- in the browser ----------------------------------------------------------------------------
@pytest.mark.browser
@pytest.mark.django_db(transaction=True, serialized_rollback=True)
def test_apply_and_dismiss_in_the_browser_remove_them_from_page_and_api(
    page: Any, api_user: Any, raw_key: str, client: Client
) -> None:
    items = make_plan(api_user)
    plan = items["plan"]

    browser_login(page, api_user.email)
    page.goto(planning_url(plan))
    assert page.locator("article.suggestion").count() == 3
    assert page.locator("#cost-chart g.bar").count() == 3

    missing = suggestion(plan, f"missing_code:{items['fan'].pk}")
    card = page.locator(f"#suggestion-{missing.pk}")
    card.locator("select[name=code]").select_option(str(items["code"].pk))
    card.get_by_role("button", name="Apply: assign code").click()
    page.wait_for_load_state()
    assert page.get_by_role("status").filter(has_text="Code assigned").count() == 1
    assert page.locator(f"#suggestion-{missing.pk}").count() == 0

    deviation = Suggestion.objects.get(plan=plan, suggestion_type="deviation")
    card = page.locator(f"#suggestion-{deviation.pk}")
    card.locator("summary").click()
    card.locator("select[name=reason]").select_option("false_positive")
    card.locator("textarea[name=comment]").fill("Reference is outdated")
    card.get_by_role("button", name="Dismiss", exact=True).click()
    page.wait_for_load_state()
    assert page.get_by_role("status").filter(has_text="Dismissed").count() == 1
    assert page.locator(f"#suggestion-{deviation.pk}").count() == 0
    assert page.locator("article.suggestion").count() == 1
    assert page.locator("#open-count").inner_text() == "1 open"

    body = client.get(
        f"/api/v1/platform/plans/{plan.number}/suggestions", HTTP_AUTHORIZATION=f"Bearer {raw_key}"
    ).json()
    listed = {s["id"] for s in body["data"]["suggestions"]}
    assert str(missing.pk) not in listed
    assert str(deviation.pk) not in listed
    assert body["data"]["open_count"] == 1
    missing.refresh_from_db()
    deviation.refresh_from_db()
    assert (missing.status, missing.resolution) == ("resolved", "applied")
    assert (deviation.status, deviation.dismiss_reason) == ("dismissed", "false_positive")


def test_many_suggestions_are_shown_a_page_at_a_time(owner_client: Client, user: Any) -> None:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user)
    for i in range(53):
        StructureNodeFactory.create(plan=plan, name=f"Widget {i:02d}")
    first = owner_client.get(planning_url(plan)).content.decode()
    second = owner_client.get(f"{planning_url(plan)}?page=2").content.decode()
    assert first.count('class="card suggestion"') == 50
    assert second.count('class="card suggestion"') == 3
    assert "53 open" in first
    assert "Suggestions 51" in second
    assert "53 of 53" in second
    assert 'href="?page=2"' in first

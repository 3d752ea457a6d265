"""The action-planning view: grid, chart, suggestions with Apply and Dismiss."""

from __future__ import annotations

import datetime
import re
from decimal import Decimal
from html.parser import HTMLParser
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from planning.models import ActionKind, ActionStatus, NodeKind, Plan, PlanRole, Suggestion
from planning.suggestions.sync.run import suggestion_sync
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


def _grid(html: str) -> dict[str, list[str]]:
    """The budget grid's rows by their first cell's text (and "head": the header row)."""

    class GridParser(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.inside = False
            self.rows: list[list[str]] = []
            self.cell: list[str] | None = None

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            if tag == "table" and ("id", "planning-grid") in attrs:
                self.inside = True
            elif self.inside and tag == "tr":
                self.rows.append([])
            elif self.inside and tag in ("td", "th"):
                self.cell = []

        def handle_endtag(self, tag: str) -> None:
            if tag == "table":
                self.inside = False
            elif self.inside and tag in ("td", "th") and self.cell is not None:
                self.rows[-1].append("".join(self.cell).strip())
                self.cell = None

        def handle_data(self, data: str) -> None:
            if self.cell is not None:
                self.cell.append(data)

    parser = GridParser()
    parser.feed(html)
    rows = [row for row in parser.rows if row]
    return {"head": rows[0], **{row[0]: row for row in rows[1:]}}


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
    assert "Group 2 actions in House A in 2030 into a project" in html
    assert "Assign a classification code to “Qwertyfan” in House A" in html
    assert "Replacement cost of “Roof” in House A in 2030 deviates from the reference" in html
    assert "3 open" in html
    # this year and the next nine by default; done actions left out of the totals
    this_year = timezone.now().year
    assert f'id="id_year_from" value="{this_year}"' in html
    assert f'id="id_year_to" value="{this_year + 9}"' in html
    grid = _grid(html)
    assert grid["head"][:2] == ["Building", "Total"]
    assert grid["head"][2:] == [str(year) for year in range(this_year, this_year + 10)]
    house = grid["House A"]
    column = {year: 2 + year - this_year for year in (2030, 2031, 2032)}
    assert house[1] == "2,150"  # the building's total
    assert (house[column[2030]], house[column[2031]], house[column[2032]]) == (
        "2,050",
        "",
        "100",
    )
    assert grid["Total per year"][1] == "2,150"
    assert grid["Total per year"][column[2030]] == "2,050"
    assert "2030, House A: 2,050.00\xa0EUR" in html  # the chart's hover text
    assert "2030, Replacement: 1,800.00\xa0EUR" in html


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
    # The actions it holds, costliest first, each with its building.
    replacement, fan = (
        items["roof"].actions.get(planned_year=2030),
        items["fan"].actions.get(planned_year=2030),
    )
    assert (
        f"Project “House A 2030” created with “{replacement.title}” in House A, "
        f"“{fan.title}” in House A."
    ) in response.content.decode()
    grouping.refresh_from_db()
    assert grouping.resolution == "applied"


def _undo(client: Client, plan: Plan, found: Suggestion) -> str:
    response = client.post(
        f"{planning_url(plan)}suggestions/{found.pk}/apply/undo/",
        {"next": planning_url(plan)},
        follow=True,
    )
    return str(response.content.decode())


def test_undo_of_an_assigned_code_clears_it_and_reopens_the_suggestion(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    missing = suggestion(items["plan"], f"missing_code:{items['fan'].pk}")
    apply = f"{planning_url(items['plan'])}suggestions/{missing.pk}/apply/"
    page = owner_client.post(apply, {"code": str(items["code"].pk)}, follow=True)
    assert f"{apply}undo/" in page.content.decode()  # the message's Undo button

    html = _undo(owner_client, items["plan"], missing)

    items["fan"].refresh_from_db()
    missing.refresh_from_db()
    assert items["fan"].code_id is None
    assert (missing.status, missing.resolution) == ("open", "")
    assert re.search(
        rf'id="confirmation".*has no code again.*id="suggestion-{missing.pk}"', html, re.S
    )


def test_undo_of_an_assigned_code_keeps_a_code_chosen_since(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    missing = suggestion(items["plan"], f"missing_code:{items['fan'].pk}")
    owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{missing.pk}/apply/",
        {"code": str(items["code"].pk)},
    )
    chosen_since = CodeFactory.create()
    items["fan"].code = chosen_since
    items["fan"].save()

    html = _undo(owner_client, items["plan"], missing)

    items["fan"].refresh_from_db()
    assert items["fan"].code_id == chosen_since.pk
    assert "has another code since, so it was kept." in html


def test_undo_of_a_created_project_removes_it_and_reopens_the_grouping(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    grouping = suggestion(items["plan"], f"project_grouping:{items['building'].pk}:2030")
    owner_client.post(f"{planning_url(items['plan'])}suggestions/{grouping.pk}/apply/")
    assert items["plan"].projects.count() == 1

    html = _undo(owner_client, items["plan"], grouping)

    assert not items["plan"].projects.exists()
    assert not items["plan"].actions.filter(project__isnull=False).exists()
    grouping.refresh_from_db()
    assert (grouping.status, grouping.resolution) == ("open", "")
    fan = items["fan"].actions.get(planned_year=2030)
    assert "Project “House A 2030” removed; its actions have no project again: “" in html
    assert f"“{fan.title}” in House A." in html


def test_undo_of_a_created_project_keeps_it_when_it_holds_more_since(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    grouping = suggestion(items["plan"], f"project_grouping:{items['building'].pk}:2030")
    owner_client.post(f"{planning_url(items['plan'])}suggestions/{grouping.pk}/apply/")
    project = items["plan"].projects.get()
    other = items["plan"].actions.filter(project__isnull=True).first()
    assert other is not None
    other.project = project
    other.save()

    html = _undo(owner_client, items["plan"], grouping)

    assert project.actions.count() == 3
    assert "has other actions since, so it was kept." in html


def test_cost_fix_sets_the_reference_and_resolves_in_one_step(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")
    assert "Set cost to reference (1,000.00\xa0EUR)" in html
    back = f"{planning_url(items['plan'])}?severity=warning#suggestion-x"

    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/apply/",
        {"fix": "cost", "next": back},
    )

    # the same filters, at the message shown above the card the anchor named
    assert response.status_code == 302
    assert response["Location"] == f"{planning_url(items['plan'])}?severity=warning#confirmation"
    replacement = items["roof"].actions.get(kind=ActionKind.REPLACEMENT)
    assert replacement.estimated_cost == Decimal("1000.00")
    deviation.refresh_from_db()
    assert (deviation.status, deviation.resolution) == ("resolved", "applied")
    owner_client.get(planning_url(items["plan"]))  # the next sync agrees: nothing to reopen
    deviation.refresh_from_db()
    assert (deviation.status, deviation.resolution) == ("resolved", "applied")


def _fix_cost(client: Client, plan: Plan) -> Suggestion:
    deviation = Suggestion.objects.get(plan=plan, suggestion_type="deviation")
    client.post(f"{planning_url(plan)}suggestions/{deviation.pk}/apply/", {"fix": "cost"})
    return deviation


def test_undo_of_a_fix_puts_the_cost_back_and_reopens_the_suggestion(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    deviation = _fix_cost(owner_client, items["plan"])

    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/apply/undo/",
        {"next": planning_url(items["plan"])},
        follow=True,
    )

    assert items["roof"].actions.get(kind=ActionKind.REPLACEMENT).estimated_cost == Decimal(
        "1800.00"
    )
    deviation.refresh_from_db()
    assert (deviation.status, deviation.resolution) == ("open", "")
    html = response.content.decode()
    # shown above the suggestion, back in its place
    assert re.search(rf'id="confirmation".*Fix undone.*id="suggestion-{deviation.pk}"', html, re.S)


def test_undo_of_a_fix_leaves_a_cost_changed_since(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    deviation = _fix_cost(owner_client, items["plan"])
    replacement = items["roof"].actions.get(kind=ActionKind.REPLACEMENT)
    replacement.estimated_cost = Decimal("1234.00")
    replacement.save()

    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/apply/undo/", follow=True
    )

    assert "The action has changed since the fix, so it was not undone." in (
        response.content.decode()
    )
    replacement.refresh_from_db()
    assert replacement.estimated_cost == Decimal("1234.00")


def test_undo_of_a_fix_needs_the_fix_of_this_session(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")

    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/apply/undo/", follow=True
    )

    assert "There is nothing to undo." in response.content.decode()
    deviation.refresh_from_db()
    assert deviation.status == "open"


def _timing_case(items: dict[str, Any], *, install_year: int) -> None:
    """The roof's code lasts 30 years; its replacement is planned for 2030."""
    items["code"].service_life_years = 30
    items["code"].save()
    items["roof"].install_year = install_year
    items["roof"].save()


def test_timing_fix_moves_the_action_to_the_due_year(
    owner_client: Client, user: Any, time_machine: Any
) -> None:
    time_machine.move_to(datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC), tick=False)
    items = make_plan(user)
    _timing_case(items, install_year=2005)  # due 2035
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    replacement = items["roof"].actions.get(kind=ActionKind.REPLACEMENT)
    timing = suggestion(items["plan"], f"deviation:timing:{replacement.pk}")
    assert "Move to the due year (2035)" in html

    done = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{timing.pk}/apply/", {"fix": "year"}, follow=True
    ).content.decode()

    assert items["roof"].actions.get(kind=ActionKind.REPLACEMENT).planned_year == 2035
    assert f"“{replacement.title}” in House A moved to 2035, the year it is due." in done
    timing.refresh_from_db()
    assert (timing.status, timing.resolution) == ("resolved", "applied")


def test_a_due_year_gone_by_is_fixed_with_this_year_never_the_past(
    owner_client: Client, user: Any, time_machine: Any
) -> None:
    time_machine.move_to(datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC), tick=False)
    items = make_plan(user)
    _timing_case(items, install_year=1953)  # due 1983
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    replacement = items["roof"].actions.get(kind=ActionKind.REPLACEMENT)
    timing = suggestion(items["plan"], f"deviation:timing:{replacement.pk}")
    assert "Move to 2026 (due in 1983)" in html
    assert "Move to the due year (1983)" not in html
    assert timing.recommended_action_json["reference"]["due_year"] == 1983  # the contract's

    done = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{timing.pk}/apply/", {"fix": "year"}, follow=True
    ).content.decode()

    assert items["roof"].actions.get(kind=ActionKind.REPLACEMENT).planned_year == 2026
    assert (
        f"“{replacement.title}” in House A moved to 2026, the earliest year left (it was due in "
        "1983)."
    ) in done


def test_no_move_is_offered_when_the_action_is_planned_this_year_and_was_due_before(
    owner_client: Client, user: Any, time_machine: Any
) -> None:
    time_machine.move_to(datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC), tick=False)
    items = make_plan(user)
    _timing_case(items, install_year=1953)  # due 1983
    replacement = items["roof"].actions.get(kind=ActionKind.REPLACEMENT)
    replacement.planned_year = 2026
    replacement.save()
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    timing = suggestion(items["plan"], f"deviation:timing:{replacement.pk}")
    assert timing.status == "open"
    assert "Move to" not in html and "It cannot be done earlier than this year." in html

    done = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{timing.pk}/apply/", {"fix": "year"}, follow=True
    ).content.decode()

    assert "The action is planned for this year: no earlier year is left." in done
    assert items["roof"].actions.get(kind=ActionKind.REPLACEMENT).planned_year == 2026


def test_a_fix_of_the_wrong_kind_changes_nothing(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")

    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/apply/",
        {"fix": "year"},
        follow=True,
    )

    assert "Only a timing deviation can be fixed this way." in response.content.decode()
    deviation.refresh_from_db()
    assert deviation.status == "open"
    replacement = items["roof"].actions.get(kind=ActionKind.REPLACEMENT)
    assert (replacement.estimated_cost, replacement.planned_year) == (Decimal("1800.00"), 2030)


def test_edit_the_action_shows_the_reference_beside_the_field(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")
    replacement = items["roof"].actions.get(kind=ActionKind.REPLACEMENT)
    link = re.search(rf'href="([^"]*/actions/{replacement.pk}/edit/[^"]*)">Edit the action', html)
    assert link is not None

    page = owner_client.get(link.group(1).replace("&amp;", "&")).content.decode()

    assert f"suggestion={deviation.pk}" in link.group(1)
    field = page[page.index('name="action-estimated_cost"') :]
    assert "Reference: 1,000.00\xa0EUR" in field[: field.index("</div>")]


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
    suggestions = response.content.decode().split('id="suggestions"')[1]
    assert "deviates from the reference" not in suggestions


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
    assert "Assign a classification code to “Qwertyfan” in House A" in html
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
@pytest.mark.django_db(transaction=True)
def test_apply_and_dismiss_in_the_browser_remove_them_from_page_and_api(
    page: Any, api_user: Any, raw_key: str, client: Client
) -> None:
    items = make_plan(api_user)
    plan = items["plan"]

    browser_login(page, api_user.email)
    page.goto(planning_url(plan))
    assert page.locator("article.suggestion").count() == 3
    assert page.locator("#cost-chart rect.bar").count() == 2  # 2030 and 2032, one building

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
    third = owner_client.get(f"{planning_url(plan)}?page=3").content.decode()
    assert first.count('class="card suggestion"') == 24
    assert third.count('class="card suggestion"') == 5
    assert "53 open" in first
    assert "Suggestions 49" in third
    assert "53 of 53" in third
    assert 'href="?page=2#suggestions"' in first


def test_year_range_is_chosen_and_a_bad_one_falls_back_to_the_default(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    url = planning_url(items["plan"])

    chosen = owner_client.get(url, {"year_from": "2031", "year_to": "2032"}).content.decode()
    backwards = owner_client.get(url, {"year_from": "2032", "year_to": "2030"}).content.decode()
    garbage = owner_client.get(url, {"year_from": "soon", "year_to": "1e9"})

    assert _grid(chosen)["head"] == ["Building", "Total", "2031", "2032"]
    assert _grid(chosen)["House A"][1] == "100"
    assert "The last year comes before the first." in backwards
    assert len(_grid(backwards)["head"]) == 12  # the default ten years
    assert garbage.status_code == 200 and 'class="error"' in garbage.content.decode()


def test_a_building_opens_to_its_nodes(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    rows_url = re.search(r'data-rows-url="([^"]+)"', html)
    assert rows_url is not None

    fragment = owner_client.get(rows_url.group(1).replace("&amp;", "&")).content.decode()
    foreign = owner_client.get(
        f"{planning_url(items['plan'])}buildings/{StructureNodeFactory.create().pk}/rows/"
    )

    assert f'data-node-id="{items["roof"].pk}"' in fragment
    assert f'data-node-id="{items["fan"].pk}"' in fragment
    assert ">1,900<" in fragment  # the roof: 1,800 + 100 planned
    assert foreign.status_code == 404


def test_suggestions_are_filtered_with_counts(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    other = StructureNodeFactory.create(plan=items["plan"], kind=NodeKind.BUILDING, name="Barn")
    StructureNodeFactory.create(plan=items["plan"], parent=other, name="Loose part")
    url = planning_url(items["plan"])

    everything = owner_client.get(url).content.decode()
    deviations = owner_client.get(url, {"suggestion_type": "deviation"}).content.decode()
    in_barn = owner_client.get(url, {"building": str(other.pk)}).content.decode()
    info_in_house = owner_client.get(
        url, {"severity": "info", "building": str(items["building"].pk)}
    ).content.decode()

    assert everything.count('class="card suggestion"') == 4
    assert 'value="missing_code"> Missing code <span class="count">(2)</span>' in everything
    assert deviations.count('class="card suggestion"') == 1
    assert 'data-type="deviation"' in deviations
    assert in_barn.count('class="card suggestion"') == 1 and "Loose part" in in_barn
    assert 'value="missing_code"> Missing code <span class="count">(1)</span>' in in_barn
    assert info_in_house.count('class="card suggestion"') == 1
    assert 'data-type="project_grouping"' in info_in_house


def test_several_suggestions_are_dismissed_with_one_reason(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    missing = suggestion(items["plan"], f"missing_code:{items['fan'].pk}")
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")
    back = f"{planning_url(items['plan'])}?page=1#suggestions"

    response = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/dismiss/",
        {
            "suggestion": [str(missing.pk), str(deviation.pk)],
            "reason": "accepted",
            "comment": "Reviewed with the owner",
            "next": back,
        },
    )
    nothing_ticked = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/dismiss/", {"reason": "accepted"}, follow=True
    )

    assert response["Location"] == f"{planning_url(items['plan'])}?page=1#confirmation"
    for one in (missing, deviation):
        one.refresh_from_db()
        assert (one.status, one.dismiss_reason, one.dismiss_comment) == (
            "dismissed",
            "accepted",
            "Reviewed with the owner",
        )
    assert "Nothing dismissed." in nothing_ticked.content.decode()
    assert Suggestion.objects.filter(plan=items["plan"], status="open").count() == 1


def test_restore_brings_a_dismissed_suggestion_back_and_the_sync_keeps_it(
    owner_client: Client, user: Any
) -> None:
    items = make_plan(user)
    owner_client.get(planning_url(items["plan"]))
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")
    owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/dismiss/",
        {"reason": "false_positive", "comment": "Old quote"},
    )
    listing = owner_client.get(f"{planning_url(items['plan'])}dismissed/").content.decode()
    assert f'id="suggestion-{deviation.pk}"' in listing
    assert "False positive" in listing and "Old quote" in listing and user.email in listing

    owner_client.post(f"{planning_url(items['plan'])}suggestions/{deviation.pk}/restore/")
    suggestion_sync(plan=items["plan"])

    deviation.refresh_from_db()
    assert (deviation.status, deviation.dismiss_reason, deviation.dismissed_by) == (
        "open",
        "",
        None,
    )
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    assert f'id="suggestion-{deviation.pk}"' in html
    again = owner_client.post(
        f"{planning_url(items['plan'])}suggestions/{deviation.pk}/restore/", follow=True
    )
    assert "This suggestion is not dismissed." in again.content.decode()


def test_a_viewer_cannot_restore_or_dismiss_in_bulk(client: Client, user: Any) -> None:
    items = make_plan(user, role=PlanRole.VIEWER)
    client.force_login(user)
    client.get(planning_url(items["plan"]))
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")

    bulk = client.post(
        f"{planning_url(items['plan'])}suggestions/dismiss/",
        {"suggestion": [str(deviation.pk)], "reason": "accepted"},
    )
    restore = client.post(f"{planning_url(items['plan'])}suggestions/{deviation.pk}/restore/")

    assert bulk.status_code == restore.status_code == 403
    deviation.refresh_from_db()
    assert deviation.status == "open"


def test_budget_and_counts_follow_every_change_whatever_makes_it(
    owner_client: Client, user: Any
) -> None:
    from planning.models import Action

    items = make_plan(user)
    url = planning_url(items["plan"])
    assert _grid(owner_client.get(url).content.decode())["House A"][1] == "2,150"

    # a change the web app never saw: the triggers record it, the sync raises the version
    Action.objects.filter(node=items["fan"]).update(estimated_cost=Decimal("1250.00"))
    StructureNodeFactory.create(plan=items["plan"], parent=items["building"], name="Unknown")
    html = owner_client.get(url).content.decode()

    assert _grid(html)["House A"][1] == "3,150"
    assert "4 open" in html
    assert 'value="missing_code"> Missing code <span class="count">(2)</span>' in html


@pytest.mark.parametrize(
    ("method", "tail"),
    [
        ("GET", "dismissed/"),
        ("GET", "buildings/{building}/rows/"),
        ("POST", "suggestions/dismiss/"),
        ("POST", "suggestions/{suggestion}/restore/"),
        ("POST", "suggestions/{suggestion}/apply/"),
    ],
)
def test_a_non_member_gets_404_on_every_planning_route(
    client: Client, user: Any, method: str, tail: str
) -> None:
    items = make_plan(UserFactory.create())
    suggestion_sync(plan=items["plan"])
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")
    url = planning_url(items["plan"]) + tail.format(
        building=items["building"].pk, suggestion=deviation.pk
    )
    client.force_login(user)

    response = (
        client.get(url)
        if method == "GET"
        else client.post(
            url, {"suggestion": [str(deviation.pk)], "reason": "accepted", "fix": "cost"}
        )
    )

    assert response.status_code == 404
    deviation.refresh_from_db()
    assert deviation.status == "open"


def test_suggestion_texts_show_money_as_people_read_it(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    deviation = Suggestion.objects.get(plan=items["plan"], suggestion_type="deviation")

    assert "estimated at 1800.00;" in deviation.body  # stored and served plain (the API's)
    # the quantity keeps its plain form: only the money figures are rewritten
    assert "estimated at 1,800.00\xa0EUR; the reference for 10.00 m2" in html
    assert "is 1,000.00\xa0EUR (80 % off)." in html
    assert "(total 2,050.00\xa0EUR)" in html  # the grouping's total
    assert "1800.00" not in html and "2050.00" not in html


def test_a_grouping_card_lists_the_actions_it_would_group(owner_client: Client, user: Any) -> None:
    items = make_plan(user)
    for i in range(6):
        ActionFactory.create(
            node=items["fan"], planned_year=2030, title=f"Belt {i}", estimated_cost=Decimal("10")
        )
    html = owner_client.get(planning_url(items["plan"])).content.decode()
    grouping = Suggestion.objects.get(plan=items["plan"], suggestion_type="project_grouping")
    card = html.split(f'id="suggestion-{grouping.pk}"')[1].split("</article>")[0]

    listed = re.findall(r"<li>([^<]*) <small class=\"help\">([^<]*)</small></li>", card)
    assert len(listed) == 5
    assert all(when.startswith("2030 · ") and when.endswith("\xa0EUR") for _, when in listed)
    assert "and 3 more" in card  # 8 actions in 2030 on House A

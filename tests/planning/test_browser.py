"""The plan pages in headless Chromium: log in, create a plan, import one, assign a code to a
node, add an action, and see them on the page."""

from __future__ import annotations

from typing import Any

import pytest

from planning.models import Action, Plan, StructureNode
from tests.conftest import browser_login, run_queued_jobs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PLAN_JSON = b"""{
  "name": "Browser school",
  "nodes": [
    {"ref": "S", "parent_ref": null, "name": "School site", "kind": "site"},
    {"ref": "B", "parent_ref": "S", "name": "Main building", "kind": "building"},
    {"ref": "L", "parent_ref": "B", "name": "Staircase lift", "kind": "component",
     "quantity": 1, "unit": "pcs", "install_year": 2001}
  ],
  "actions": [
    {"node_ref": "L", "title": "Lift inspection", "kind": "inspection",
     "planned_year": 2027, "estimated_cost": 400}
  ]
}"""


def test_create_import_assign_code_and_add_action(
    page: Any, user: Any, starter_catalog: None
) -> None:
    from playwright.sync_api import expect

    browser_login(page, user.email)

    # create an empty plan
    page.fill("input[name=create-name]", "Empty plan")
    page.click("#create-plan button[type=submit]")
    expect(page.locator("h1")).to_contain_text("Empty plan")
    expect(page.get_by_text("No structure yet.")).to_be_visible()

    # import a small JSON plan through the upload form of the plan list
    page.click("header a:has-text('Plans')")
    page.set_input_files(
        "input[name=import-plan_file]",
        files=[{"name": "plan.json", "mimeType": "application/json", "buffer": PLAN_JSON}],
    )
    page.click("#import-plan button[type=submit]")
    # the upload is a job: its page shows a progress bar until a worker has run it, then
    # (polling) goes on to the new plan
    expect(page.locator("h1")).to_contain_text("Import of plan.json")
    expect(page.locator("progress#import-bar")).to_be_visible()
    assert run_queued_jobs() == 1
    expect(page.locator("h1")).to_contain_text("Browser school")
    plan = Plan.objects.get(name="Browser school")
    # the tree opens down to the building; the lift is below it, loaded when it is opened
    expect(page.locator("#structure")).to_contain_text("Main building")
    expect(page.locator("#structure")).not_to_contain_text("Staircase lift")
    page.get_by_role("button", name="Show what is under Main building").click()
    expect(page.locator("#structure")).to_contain_text("Staircase lift")
    expect(page.locator("#structure .badge.warning")).to_contain_text("no code")

    # assign a catalog code to the lift, found by searching the catalog
    page.click("#structure a:has-text('Staircase lift')")
    page.locator("#assign-code summary").click()  # the catalog opens on request
    page.fill("input[name=q]", "elevator")
    page.click("#assign-code button:has-text('Search')")
    page.locator("#code-results tr[data-code='461.1'] button:has-text('Assign')").click()
    expect(page.get_by_text("Code 461.1 “Passenger elevator, complete” assigned.")).to_be_visible()
    expect(page.locator("#node-code")).to_contain_text("461.1")
    lift = StructureNode.objects.get(plan=plan, name="Staircase lift")
    assert lift.code is not None and lift.code.code == "461.1"

    # add an action on the lift from the Actions tab, picking the node by typing its name
    page.click(f"a:has-text('#{plan.number} Browser school')")
    page.click("nav.tabs a:has-text('Actions')")
    page.fill("#id_action-node_search", "stair")
    page.get_by_role("option", name="Staircase lift").click()
    assert page.input_value("input[name=action-node]") == str(lift.pk)
    page.fill("input[name=action-title]", "Modernise lift controls")
    page.select_option("select[name=action-kind]", "replacement")
    page.fill("input[name=action-planned_year]", "2031")
    page.fill("input[name=action-estimated_cost]", "30000")
    page.click("#add-action button[type=submit]")
    expect(page.get_by_text("Action “Modernise lift controls” added for 2031.")).to_be_visible()

    # both show on the Actions tab, and the code in the tree
    table = page.locator("#actions-table")
    expect(table.locator("tr", has_text="Modernise lift controls")).to_contain_text("2031")
    expect(table.locator("tr", has_text="Lift inspection")).to_contain_text("2027")
    assert set(Action.objects.filter(plan=plan).values_list("title", flat=True)) == {
        "Lift inspection",
        "Modernise lift controls",
    }
    page.click("nav.tabs a:has-text('Structure')")
    page.get_by_role("button", name="Show what is under Main building").click()
    expect(page.locator("#structure")).to_contain_text("461.1")


def test_a_new_project_is_made_from_the_projects_tab(page: Any, user: Any) -> None:
    from planning.models import Project
    from planning.plans.services.plans import plan_create

    plan = plan_create(owner=user, name="School")
    browser_login(page, user.email)
    page.goto(f"/plans/{plan.number}/projects/")
    page.fill("input[name=new-name]", "Roofs 2030")
    page.fill("input[name=new-year]", "2030")
    page.click("button:has-text('Create project')")
    page.wait_for_url(f"**/plans/{plan.number}/projects/*/")

    assert page.get_by_text("Project “Roofs 2030” created").is_visible()
    assert Project.objects.get(plan=plan).year == 2030

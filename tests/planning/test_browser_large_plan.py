"""The plan's pages in headless Chromium on a generated 2,000-node plan: small pages (DOM
elements), no sideways page scroll at 390 px, the tree opened on request and searched, exports
that parse, and Apply / Dismiss / Restore that keep the user where they were."""

from __future__ import annotations

import csv
import io
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone
from openpyxl import load_workbook

from planning.management.commands.generate_plan import synthetic_plan_document
from planning.models import Action, Code, Plan, StructureNode, Suggestion
from planning.transfer.imports.plan_document import plan_import_document
from tests.conftest import browser_login

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DOM_LIMIT = 4000
TRAP = '=HYPERLINK("x")'


@pytest.fixture
def large_plan(user: Any, starter_catalog: None) -> Plan:
    document = synthetic_plan_document(
        nodes=2000,
        actions=6000,
        seed=11,
        year=timezone.now().year,
        codes=list(Code.objects.order_by("code")),
    )
    # Three times the reference: critical cost deviations, first in the list.
    replacements = [a for a in document["actions"] if a["kind"] == "replacement"]
    for action in replacements[:80]:
        action["estimated_cost"] = round(action["estimated_cost"] * 3, 2)
    document["nodes"].append({"ref": "TRAP", "name": TRAP, "kind": "site"})
    document["actions"].append(
        {
            "node_ref": "TRAP",
            "title": "Trap inspection",
            "kind": "inspection",
            "planned_year": timezone.now().year,
            "estimated_cost": 10,
        }
    )
    return plan_import_document(owner=user, document=document)


def _elements(page: Any) -> int:
    return int(page.evaluate("document.getElementsByTagName('*').length"))


def _sideways(page: Any) -> int:
    return int(
        page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
    )


def test_pages_stay_small_open_on_request_and_export(
    page: Any, user: Any, large_plan: Plan, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    number = large_plan.number
    pages = [f"/plans/{number}/", f"/plans/{number}/actions/", f"/plans/{number}/planning/"]
    browser_login(page, user.email)
    page.set_viewport_size({"width": 1366, "height": 900})
    for path in pages:
        page.goto(path)
        assert _elements(page) < DOM_LIMIT, path

    # the tree: buildings closed, one opened on request
    page.goto(pages[0])
    building_id = StructureNode.objects.get(plan=large_plan, name="Building 1").pk
    building = page.locator(f"#structure li[data-node-id='{building_id}']")
    expect(building.locator("li")).to_have_count(0)
    building.locator("> button.tree-toggle").click()
    expect(building.locator("> ul > li").first).to_be_visible()
    assert building.locator("> ul > li").count() >= 3  # its systems

    # the search finds a node deep below a building
    page.fill("#tree-q", "Roof 1")
    page.click(".tree-search button[type=submit]")
    expect(page.locator("#node-matches")).to_contain_text("Roof 1")

    # no sideways scrolling of the page on a phone
    page.set_viewport_size({"width": 390, "height": 844})
    for path in pages:
        page.goto(path)
        assert _sideways(page) <= 0, path

    # exports download and parse; the node named like a formula stays text
    page.goto(pages[1])
    with page.expect_download() as csv_download:
        page.get_by_role("link", name="CSV", exact=True).click()
    with page.expect_download() as xlsx_download:
        page.get_by_role("link", name="Excel", exact=True).click()
    csv_path = tmp_path / "actions.csv"
    xlsx_path = tmp_path / "actions.xlsx"
    csv_download.value.save_as(csv_path)
    xlsx_download.value.save_as(xlsx_path)
    rows = list(csv.reader(io.StringIO(csv_path.read_text(encoding="utf-8-sig"))))
    assert len(rows) == Action.objects.filter(plan=large_plan).count() + 1
    assert ["'" + TRAP] in [row[:1] for row in rows]
    sheet = load_workbook(xlsx_path, read_only=True).active
    first_column = [row[0] for row in sheet.iter_rows(min_col=1, max_col=1)]
    # the title block, then the table: the same rows as the CSV
    header = [cell.value for cell in first_column].index("Node path")
    assert len(first_column) - header == len(rows)
    # In XLSX the name is a text cell as it is (an inline string is never evaluated).
    assert {cell.data_type for cell in first_column if cell.value == TRAP} == {"s"}


def test_fix_dismiss_and_restore_keep_the_filters_page_and_card(
    page: Any, user: Any, large_plan: Plan
) -> None:
    from playwright.sync_api import expect

    planning = f"/plans/{large_plan.number}/planning/"
    browser_login(page, user.email)
    filters = "suggestion_type=deviation&severity=critical"
    page.goto(f"{planning}?{filters}&page=2")
    assert _elements(page) < DOM_LIMIT

    # Apply a cost fix on page 2 of the deviations: same filters and page, the card is gone
    card = (
        page.locator("article.suggestion")
        .filter(has=page.get_by_role("button", name="Set cost to reference"))
        .first
    )
    suggestion_id = card.get_attribute("data-suggestion-id")
    before = page.locator("#open-count").inner_text()
    card.get_by_role("button", name="Set cost to reference").click()
    expect(page.get_by_role("status")).to_contain_text("the reference")
    assert f"?{filters}&page=2#confirmation" in page.url
    expect(page.locator(f"#suggestion-{suggestion_id}")).to_have_count(0)
    expect(page.locator("#open-count")).not_to_have_text(before)
    fixed = Suggestion.objects.get(pk=suggestion_id)
    assert (fixed.status, fixed.resolution) == ("resolved", "applied")

    # Dismiss the first card, then restore it from the Dismissed list: it is back in its place
    page.goto(f"{planning}?suggestion_type=deviation")
    first = page.locator("article.suggestion").first
    dismissed_id = first.get_attribute("data-suggestion-id")
    first.locator("summary").click()
    first.locator("select[name=reason]").select_option("accepted")
    first.get_by_role("button", name="Dismiss", exact=True).click()
    expect(page.locator(f"#suggestion-{dismissed_id}")).to_have_count(0)
    assert "suggestion_type=deviation" in page.url

    page.get_by_role("link", name="Dismissed (1)").click()
    page.locator(f"#suggestion-{dismissed_id}").get_by_role("button", name="Restore").click()
    expect(page.get_by_role("status")).to_contain_text("Restored")
    page.goto(f"{planning}?suggestion_type=deviation")
    expect(page.locator("article.suggestion").first).to_have_attribute(
        "data-suggestion-id", str(dismissed_id)
    )


def test_planning_page_uses_the_width(page: Any, user: Any, large_plan: Plan) -> None:
    """At 1366 px: the ten years of the grid without sideways scrolling, the suggestions as wide
    as the page (no empty column beside them), the page under 5,500 px; at 390 px nothing
    scrolls the page sideways (the grid may scroll in its own box)."""
    from playwright.sync_api import expect

    browser_login(page, user.email)
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"/plans/{large_plan.number}/planning/")
    expect(page.locator("#grid-unit")).to_have_text("Amounts in thousands of EUR")
    grid = page.locator(".grid-scroll")
    assert grid.evaluate("box => box.scrollWidth - box.clientWidth") <= 0
    grid.scroll_into_view_if_needed()
    for year in range(timezone.now().year, timezone.now().year + 10):
        expect(page.locator("#planning-grid thead th", has_text=str(year))).to_be_in_viewport()
    main = page.locator("main").bounding_box()
    suggestions = page.locator("#suggestions").bounding_box()
    assert suggestions["width"] > 0.9 * (main["width"] - 40)
    cards = page.locator("article.suggestion")
    assert cards.nth(0).bounding_box()["y"] == cards.nth(1).bounding_box()["y"]  # side by side
    # Which 25 cards the first page holds depends on the suggestions' random ids (ties of
    # severity and creation time), and their texts differ in length: 4,800 to 5,020 px seen.
    assert page.evaluate("document.documentElement.scrollHeight") < 5500

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"/plans/{large_plan.number}/planning/")
    assert _sideways(page) <= 0

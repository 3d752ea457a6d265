"""A version's comparison in headless Chromium, at 1366 and 390 px: after an action was added,
one deleted and a recurring one marked done, an owner opens the version from the Versions tab,
reads the rows and the totals, picks a building in the filter and compares, downloads the
filtered CSV; nothing scrolls sideways and axe finds no serious or critical violation."""

from __future__ import annotations

import csv
import io
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from planning.models import NodeKind, PlanRole
from planning.plans.services.actions import action_create, action_mark_done
from planning.plans.services.nodes import node_delete
from planning.records.adoption import plan_adopt
from tests.conftest import browser_login
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _axe_problems(page: Any) -> list[str]:
    """Serious and critical axe violations of the page (as tests/test_accessibility.py)."""
    from axe_playwright_python.sync_playwright import Axe

    return [
        f"{violation['id']} ({violation['impact']})"
        for violation in Axe().run(page).response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("width", [1366, 390])
def test_an_owner_reads_what_changed_since_the_version_and_filters_by_building(
    new_page: Any, user: Any, width: int, tmp_path: Path
) -> None:
    from playwright.sync_api import expect

    year = timezone.localdate().year
    today = timezone.localdate()
    plan = PlanFactory.create(name="Harbour")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    north = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="North")
    south = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="South")
    roof = StructureNodeFactory.create(plan=plan, parent=north, name="Roof")
    boiler = StructureNodeFactory.create(plan=plan, parent=south, name="Boiler")
    lift = StructureNodeFactory.create(plan=plan, parent=south, name="Lift")
    ActionFactory.create(
        node=roof, title="New roof", planned_year=year + 2, estimated_cost=Decimal("19000")
    )
    service = ActionFactory.create(
        node=boiler,
        title="Service",
        planned_year=year,
        interval_years=3,
        estimated_cost=Decimal("1150.50"),
    )
    ActionFactory.create(
        node=lift, title="Lift check", planned_year=year + 4, estimated_cost=Decimal("2000")
    )
    plan_adopt(plan=plan, name="Board")
    # Since the adoption: one added, one deleted (with its node), the service done today.
    action_create(
        plan=plan,
        node=roof,
        title="Skylight",
        kind="replacement",
        planned_year=year + 1,
        estimated_cost=Decimal("4000"),
    )
    node_delete(node=lift)
    action_mark_done(action=service, completed_on=today)

    page = new_page(viewport={"width": width, "height": 900}, accept_downloads=True)
    browser_login(page, user.email)
    page.goto(f"/plans/{plan.number}/versions/")
    page.get_by_role("link", name="Board", exact=True).click()
    expect(
        page.get_by_role("heading", name="From version 1 “Board” to the plan now")
    ).to_be_visible()

    rows = page.locator("#comparison-actions tbody tr")
    expect(rows).to_have_count(3)
    texts = [" ".join(text.split()) for text in rows.all_inner_texts()]
    assert texts[0].startswith("added Skylight North Roof")
    assert "4,000.00 Planned Changed: new action" in texts[0]
    assert texts[1].startswith("removed Lift check South Lift")
    assert "2,000.00 Planned Changed: deleted" in texts[1]
    assert texts[2].startswith(f"changed Service South Boiler {year} → {year + 3} 1,150.50")
    assert texts[2].endswith(f"done {today.isoformat()}, next {year + 3} Changed: done {today}")
    # 19,000 + 4 x 1,150.50 + 2,000 before; 19,000 + 4,000 + 3 x 1,150.50 now.
    expect(page.locator("#comparison-years tfoot")).to_have_text(
        "Total 25,602.00 26,451.50 +849.50", use_inner_text=True
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert _axe_problems(page) == []

    filters = page.locator("#comparison-filters")
    filters.get_by_label("Building").fill("Sout")
    page.get_by_role("option").filter(has_text="South").first.click()
    filters.get_by_role("button", name="Compare").click()
    page.wait_for_url(f"**building={south.pk}**")
    expect(rows).to_have_count(2)
    assert rows.locator("td:nth-child(2)").all_inner_texts() == ["Lift check", "Service"]
    expect(page.locator("#comparison-years tfoot")).to_have_text(
        "Total 6,602.00 3,451.50 -3,150.50", use_inner_text=True
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    with page.expect_download() as download:
        page.get_by_role("link", name="CSV", exact=True).click()
    saved = tmp_path / "comparison.csv"
    download.value.save_as(saved)
    exported = list(csv.reader(io.StringIO(saved.read_text(encoding="utf-8-sig"))))
    assert [(row[0], row[2], row[-1]) for row in exported[1:3]] == [
        ("removed", "Lift check", "deleted"),
        ("changed", "Service", f"done {today.isoformat()}"),
    ]
    assert exported[-1][:1] + exported[-1][9:12] == ["Total", "6602.00", "3451.50", "-3150.50"]

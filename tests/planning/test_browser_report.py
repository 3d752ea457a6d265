"""The board report in headless Chromium: a viewer picks nominal prices on the Report tab,
submits the form as a person would, watches the progress until the worker has made the PDF, and
downloads it."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest

from planning.models import NodeKind, PlanReport, PlanRole
from tests.conftest import browser_login, run_queued_jobs
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_a_viewer_makes_a_board_report_and_downloads_it(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    plan = PlanFactory.create(name="Town hall", index_rate_percent=Decimal("2"))
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.VIEWER)
    hall = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Town hall")
    ActionFactory.create(node=hall, planned_year=2028, estimated_cost=Decimal("1000.00"))
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto(f"/plans/{plan.number}/")
    page.get_by_role("link", name="Report", exact=True).click()
    page.get_by_label("Nominal prices (indexed, with markups)").check()
    page.get_by_role("button", name="Make the report").click()
    expect(page.get_by_text("The board report is being made")).to_be_visible()
    expect(page.locator("#report-status progress")).to_be_visible()
    assert PlanReport.objects.get(plan=plan).prices == "nominal"

    assert run_queued_jobs() >= 1  # the worker; the page sees it finish and reloads
    link = page.get_by_role("link", name="Download PDF")
    expect(link).to_be_visible(timeout=10_000)
    expect(page.locator("#report-status")).to_have_count(0)
    with page.expect_download() as download_info:
        link.click()
    download = download_info.value
    assert download.suggested_filename.startswith(f"plan-{plan.number}-board-report-")
    with open(download.path(), "rb") as pdf:
        assert pdf.read(5) == b"%PDF-"
    assert page.evaluate("document.documentElement.scrollWidth") <= width

"""Excel in and out in headless Chromium, as a person does it (issue 26 point 6): download the
plan as an Excel workbook from its Actions tab and upload it again with no name typed; upload a
CSV pair written with semicolons, labels and titled columns, as Excel writes CSV in many
countries. Each becomes the plan it says, at 1366 and 390 px."""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from planning.models import NodeKind, Plan, PlanRole
from planning.transfer.exports.plan_document import plan_document
from tests.conftest import browser_login, run_queued_jobs
from tests.factories import (
    ActionFactory,
    PlanFactory,
    PlanMembershipFactory,
    StructureNodeFactory,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NODES_SEMICOLON = "Ref;Parent ref;Name;Kind\nB;;Harbour depot;Building\nR;B;Roof;Component\n"
ACTIONS_SEMICOLON = (
    "Node ref;Title;Kind;Planned year;Estimated cost (EUR);Status\n"
    "R;Retile roof;Replacement;2031;48000.50;Planned\n"
)


def _import(page: Any, *files: tuple[str, str, bytes]) -> None:
    """Chooses the files in the plan list's import form, sends it, and lets a worker run it."""
    from playwright.sync_api import expect

    page.goto("/plans/")
    for field, name, content in files:
        page.set_input_files(
            f"input[name=import-{field}]", files=[{"name": name, "mimeType": "", "buffer": content}]
        )
    page.click("#import-plan button[type=submit]")
    expect(page.locator("progress#import-bar")).to_be_visible()
    assert run_queued_jobs() == 1


@pytest.mark.parametrize("width", [1366, 390])
def test_a_plan_goes_out_to_excel_and_comes_back(
    new_page: Any, user: Any, tmp_path: Path, width: int
) -> None:
    from playwright.sync_api import expect

    plan = PlanFactory.create(name="Quay estate")
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.OWNER)
    shed = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Shed 2")
    door = StructureNodeFactory.create(plan=plan, parent=shed, name="Door")
    ActionFactory.create(node=door, title="Oil hinges", interval_years=2)
    ActionFactory.create(node=shed, title="Paint the shed")
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    page.goto(f"/plans/{plan.number}/actions/")
    with page.expect_download() as download:
        page.get_by_role("link", name="Excel workbook").click()
    workbook = tmp_path / download.value.suggested_filename
    download.value.save_as(workbook)
    assert workbook.suffix == ".xlsx"
    _import(page, ("plan_file", workbook.name, workbook.read_bytes()))

    expect(page.locator("h1")).to_contain_text("Quay estate")
    copy = Plan.objects.exclude(pk=plan.pk).get()
    assert (copy.name, copy.number) == ("Quay estate", plan.number + 1)
    original, copied = plan_document(plan=plan), plan_document(plan=copy)
    # Nodes made on the pages have no ref: the workbook names them by id, and the copy keeps it.
    assert copied["actions"] == original["actions"] and copied["nodes"] == original["nodes"]


@pytest.mark.parametrize("width", [1366, 390])
def test_a_semicolon_csv_pair_with_labels_imports_without_a_name(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)

    _import(
        page,
        ("nodes_csv", "Harbour depot.csv", NODES_SEMICOLON.encode()),
        ("actions_csv", "actions.csv", ACTIONS_SEMICOLON.encode()),
    )

    expect(page.locator("h1")).to_contain_text("Harbour depot")
    plan = Plan.objects.get(name="Harbour depot")
    assert list(plan.actions.values_list("title", "kind", "estimated_cost")) == [
        ("Retile roof", "replacement", Decimal("48000.50"))
    ]

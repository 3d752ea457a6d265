"""A one-sheet workbook imported in headless Chromium as a person does it: upload it on the plan
list, check the guessed columns and the preview, change one column, import, and land on the
new plan (docs/subsystems/import-mapping.md), at 1366 and 390 px, with axe clean on the mapping
page."""

from __future__ import annotations

import io
from typing import Any

import pytest
from django.utils import timezone
from openpyxl import Workbook

from planning.models import Action, Plan
from tests.conftest import browser_login, run_queued_jobs

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

Y = timezone.now().year


def _sheet() -> bytes:
    workbook = Workbook()
    sheet = workbook.active
    assert sheet is not None
    sheet.append(["Liegenschaft", "Gebäude", "Bauteil", "Maßnahme", "Jahr", "Kosten", "Notiz"])
    sheet.append(["Hafen", "Halle 1", "Dach", "Dach erneuern", Y + 3, 48000, "Angebot 2024"])
    sheet.append(["Hafen", "Halle 1", "Heizung", "Kessel warten", Y + 1, 1200, "jährlich"])
    sheet.append(["Hafen", "Halle 2", "Tore", None, None, None, None])
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _axe_problems(page: Any) -> list[str]:
    """Serious and critical axe violations of the page (as tests/test_accessibility.py)."""
    from axe_playwright_python.sync_playwright import Axe

    return [
        f"{violation['id']} ({violation['impact']})"
        for violation in Axe().run(page).response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]


@pytest.mark.parametrize("width", [1366, 390])
def test_a_sheet_is_mapped_previewed_and_imported_to_its_plan(
    new_page: Any, user: Any, width: int
) -> None:
    from playwright.sync_api import expect

    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)
    page.goto("/plans/")
    expect(page.locator("#import-plan")).to_contain_text("one sheet as you keep it")
    page.set_input_files(
        "input[name=import-plan_file]",
        files=[{"name": "Hafen.xlsx", "mimeType": "", "buffer": _sheet()}],
    )
    page.click("#import-plan button[type=submit]")

    expect(page.locator("h1")).to_contain_text("Which column is which")
    expect(page.get_by_label("Gebäude")).to_have_value("building")
    expect(page.get_by_label("Bauteil")).to_have_value("component")
    expect(page.locator("#mapping-table")).to_contain_text('"Gebäude" is German for Building')
    expect(page.locator("#preview-currency")).to_contain_text("Amounts will be read as EUR")
    expect(page.locator("#preview-table")).to_contain_text("Hafen / Halle 1 / Dach")
    expect(page.locator("#preview-table")).to_contain_text("no action: a component only")
    assert _axe_problems(page) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width

    page.get_by_label("Amounts are in").select_option("SEK")
    page.get_by_role("button", name="Update the preview").click()
    expect(page.locator("#preview-currency")).to_contain_text("Amounts will be read as SEK")
    page.get_by_role("button", name="Import", exact=True).click()
    expect(page.locator("progress#import-bar")).to_be_visible()
    assert run_queued_jobs() == 1

    expect(page.locator("h1")).to_contain_text("Hafen")
    plan = Plan.objects.get(name="Hafen")
    assert plan.currency == "SEK"
    assert sorted(Action.objects.filter(plan=plan).values_list("node__name", "title")) == [
        ("Dach", "Dach erneuern"),
        ("Heizung", "Kessel warten"),
    ]
    assert plan.nodes.count() == 6  # Hafen, Halle 1, Dach, Heizung, Halle 2, Tore

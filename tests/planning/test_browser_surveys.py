"""A component's page in headless Chromium, as a surveyor at a desk or on a phone uses it: a
survey typed into the form appears in its grades over time, a photo chosen and uploaded appears
as a thumbnail that the browser loads, and the page passes axe with both."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from planning.models import Attachment, ConditionSurvey, NodeKind, PlanRole
from tests.conftest import browser_login
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory
from tests.planning.photos import GPS_IFD, jpeg_bytes

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize("width", [1366, 390])
def test_a_survey_and_a_photo_from_the_components_page(
    new_page: Any, user: Any, width: int, tmp_path: Path
) -> None:
    from axe_playwright_python.sync_playwright import Axe
    from playwright.sync_api import expect

    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Town hall")
    roof = StructureNodeFactory.create(plan=plan, parent=house, name="Roof")
    photo = tmp_path / "roof.jpg"
    photo.write_bytes(jpeg_bytes((1200, 900)))
    page = new_page(viewport={"width": width, "height": 900})
    browser_login(page, user.email)
    page.goto(f"/plans/{plan.number}/nodes/{roof.pk}/")

    survey = page.locator("#survey-form")
    survey.get_by_label("Condition grade").select_option(label="3: severe symptoms")
    survey.get_by_label("Consequence grade").select_option(label="2: medium")
    survey.get_by_label("Note").fill("Moss and two cracked tiles")
    survey.get_by_role("button", name="Save survey").click()
    expect(page.get_by_text("Survey of “Roof” saved.")).to_be_visible()
    expect(page.locator("#condition")).to_contain_text("consequence 2: medium · risk 6")
    expect(page.locator("#surveys tbody tr").first).to_contain_text("Moss and two cracked tiles")

    upload = page.locator("#attachment-upload")
    upload.get_by_label("Photo or document").set_input_files(str(photo))
    upload.get_by_role("button", name="Upload").click()
    expect(page.get_by_text("“roof.jpg” uploaded.")).to_be_visible()
    thumbnail = page.get_by_role("img", name="Photo roof.jpg")
    expect(thumbnail).to_be_visible()
    assert page.evaluate("img => img.naturalWidth", thumbnail.element_handle()) == 320

    results = Axe().run(page)
    serious = [
        (violation["id"], [node["target"] for node in violation["nodes"]])
        for violation in results.response["violations"]
        if violation["impact"] in ("serious", "critical")
    ]
    assert serious == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width
    assert ConditionSurvey.objects.get().note == "Moss and two cracked tiles"
    stored = Attachment.objects.get()
    from PIL import Image

    with stored.file.open("rb") as kept:
        assert not Image.open(kept).getexif().get_ifd(GPS_IFD)

"""Survey mode in headless Chromium at 390 px (and axe at 390 and 1366): two components graded
online, a third graded offline with a photo while a colleague grades it too; back online the
entry arrives exactly once, its photo with it, and the colleague's survey is kept beside it."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from PIL import Image

from planning.models import Attachment, ConditionSurvey, NodeKind, PlanRole
from planning.plans.services.surveys import survey_record
from tests.conftest import browser_login
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory, UserFactory
from tests.test_accessibility import _check

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _files_in_tmp(settings: Any, tmp_path: Any) -> None:
    settings.STORAGES = {
        **settings.STORAGES,
        "default": {
            "BACKEND": "django.core.files.storage.FileSystemStorage",
            "OPTIONS": {"location": str(tmp_path), "base_url": None},
        },
    }


def _photo() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (320, 240), (90, 120, 160)).save(buffer, "JPEG")
    return buffer.getvalue()


def _grade(page: Any, condition: str, consequence: str, note: str = "") -> None:
    page.get_by_role("group", name="Condition").get_by_text(condition).click()
    page.get_by_role("group", name="Consequence").get_by_text(consequence).click()
    if note:
        page.get_by_label("Note").fill(note)


def test_a_survey_offline_arrives_once_and_keeps_a_colleagues_grade(
    new_page: Any, user: Any
) -> None:
    from playwright.sync_api import expect

    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    hall = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Town hall")
    roof = StructureNodeFactory.create(plan=plan, parent=hall, kind=NodeKind.SYSTEM, name="Roof")
    walls = StructureNodeFactory.create(plan=plan, parent=hall, kind=NodeKind.SYSTEM, name="Walls")
    gutter = StructureNodeFactory.create(plan=plan, parent=roof, name="Gutter")
    tiles = StructureNodeFactory.create(plan=plan, parent=roof, name="Tiles")
    window = StructureNodeFactory.create(plan=plan, parent=walls, name="Window")
    StructureNodeFactory.create(plan=plan, parent=walls, name="Door")
    colleague = UserFactory.create()

    page = new_page(viewport={"width": 390, "height": 844})
    browser_login(page, user.email)
    page.goto(f"/plans/{plan.number}/")
    page.get_by_role("link", name="Survey mode").click()
    page.get_by_role("link", name="Town hall").click()

    expect(page.get_by_role("heading", name="Gutter")).to_be_visible()
    expect(page.locator("#survey-progress")).to_have_text("0 of 4 graded in this survey")
    _grade(page, "moderate", "small", note="Rust at the joints")
    expect(page.locator("#survey-risk")).to_have_text("2 of 9 (2 \u00d7 1)")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("heading", name="Tiles")).to_be_visible()
    _grade(page, "minor", "medium")
    page.get_by_role("button", name="Next").click()
    expect(page.get_by_role("heading", name="Door")).to_be_visible()
    expect(page.locator("#survey-status")).to_have_text("All saved")
    assert ConditionSurvey.objects.filter(node__in=[gutter, tiles]).count() == 2

    # Jump to the window through the list of the building's components, then lose the signal.
    page.get_by_text("All components of this building").click()
    page.get_by_role("button", name="Window").click()
    expect(page.get_by_role("heading", name="Window")).to_be_visible()
    page.context.set_offline(True)
    _grade(page, "severe", "large", note="Glass cracked")
    page.get_by_label("Photos").set_input_files(
        files=[{"name": "window.jpg", "mimeType": "image/jpeg", "buffer": _photo()}]
    )
    expect(page.locator("#survey-photos")).to_contain_text("window.jpg")
    page.get_by_role("button", name="Next").click()
    expect(page.locator("#survey-status")).to_have_text("Offline: waiting to send (2)")
    expect(page.locator("#survey-progress")).to_have_text("3 of 4 graded in this survey")
    assert not ConditionSurvey.objects.filter(node=window).exists()

    # Meanwhile a colleague grades the window at the desk.
    survey_record(
        node=window,
        grade=1,
        consequence=1,
        note="From the desk",
        assessed_on=datetime.date.today(),
        by=colleague,
    )

    page.context.set_offline(False)
    expect(page.locator("#survey-status")).to_have_text("All saved", timeout=10_000)
    surveys = list(ConditionSurvey.objects.filter(node=window).order_by("created_at"))
    assert [(s.grade, s.consequence, s.assessed_by_id) for s in surveys] == [
        (1, 1, colleague.pk),
        (3, 3, user.pk),
    ]
    assert surveys[1].idempotency_key
    photo = Attachment.objects.get(node=window)
    assert photo.survey_id == surveys[1].pk
    window.refresh_from_db()
    assert (window.condition_grade, window.condition_consequence) == (3, 3)  # the later

    # Reopened, the page says what this survey has done, and sends nothing again.
    page.reload()
    expect(page.locator("#survey-progress")).to_have_text("3 of 4 graded in this survey")
    expect(page.locator("#survey-status")).to_have_text("All saved")
    assert ConditionSurvey.objects.filter(idempotency_key__isnull=False).count() == 3
    assert Attachment.objects.count() == 1

    # Without a connection the page opens again from the service worker's copy.
    page.wait_for_function("navigator.serviceWorker.controller !== null")
    page.context.set_offline(True)
    assert page.reload().from_service_worker
    expect(page.get_by_role("heading", name="Town hall")).to_be_visible()
    expect(page.locator("#survey-progress")).to_have_text("3 of 4 graded in this survey")
    page.context.set_offline(False)


def test_survey_pages_pass_axe_at_both_widths(browser: Any, live_server: Any, user: Any) -> None:
    plan = PlanFactory.create()
    PlanMembershipFactory.create(plan=plan, user=user, role=PlanRole.EDITOR)
    hall = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="Town hall")
    StructureNodeFactory.create(plan=plan, parent=hall, name="Gutter")
    problems: list[str] = []
    for width in (390, 1366):
        context = browser.new_context(
            base_url=live_server.url, viewport={"width": width, "height": 900}
        )
        page = context.new_page()
        try:
            browser_login(page, user.email)
            problems += _check(page, f"/plans/{plan.number}/survey/", width)
            page.goto(f"/plans/{plan.number}/survey/{hall.pk}/")
            page.get_by_role("heading", name="Gutter").wait_for()
            problems += _check(page, f"/plans/{plan.number}/survey/{hall.pk}/", width)
        finally:
            context.close()
    assert not problems, "\n".join(problems)

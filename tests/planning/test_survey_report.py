"""A building's survey report: its components in tree order with grade, consequence, risk, the
latest note and their photos, as PDF (read back with pdftotext, its thumbnails as images with
pdfimages) and as a workbook (openpyxl); the board report's condition summary counts the same
current grades."""

from __future__ import annotations

import datetime
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from planning.models import NodeKind, Plan, PlanRole, StructureNode
from planning.plans.services.attachments import attachment_add
from planning.plans.services.surveys import survey_record
from planning.reports.condition import condition_summary
from planning.reports.content import report_content
from planning.reports.pdf import report_pdf
from planning.transfer.xlsx import CONTENT_TYPE as XLSX
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory, UserFactory
from tests.planning.photos import jpeg_bytes, photo_upload
from tests.planning.workbooks import exported_sheet

pytestmark = pytest.mark.django_db

# Surveys are dated up to tomorrow: the tests date theirs from the clock.
DAY = timezone.localdate() - datetime.timedelta(days=60)
DASH = "\N{EN DASH}"  # what the report prints for a value not given


@pytest.fixture
def house() -> StructureNode:
    plan = PlanFactory.create(name="Harbour Housing Co-op")
    house = StructureNodeFactory.create(
        plan=plan, kind=NodeKind.BUILDING, name="East house", address="Quay 4"
    )
    other = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="West house")
    envelope = StructureNodeFactory.create(
        plan=plan, parent=house, kind=NodeKind.SYSTEM, name="Envelope"
    )
    roof = StructureNodeFactory.create(plan=plan, parent=envelope, name="Roof")
    window = StructureNodeFactory.create(plan=plan, parent=envelope, name="Windows 10")
    StructureNodeFactory.create(plan=plan, parent=envelope, name="Windows 9")
    StructureNodeFactory.create(plan=plan, parent=other, name="Elsewhere boiler")
    inspector = UserFactory.create(email="inspector@example.com")
    survey_record(
        node=roof,
        grade=1,
        consequence=1,
        note="Was fine",
        assessed_on=DAY - datetime.timedelta(days=700),
        by=None,
    )
    survey_record(
        node=roof,
        grade=3,
        consequence=3,
        note="Leaks by the chimney",
        assessed_on=DAY,
        by=inspector,
    )
    survey_record(node=window, grade=1, consequence=None, note="", assessed_on=DAY, by=None)
    attachment_add(plan=plan, node=roof, upload=photo_upload("roof.jpg", jpeg_bytes()), by=None)
    return house


def _pdf_text(pdf: bytes, tmp_path: Path) -> str:
    if shutil.which("pdftotext") is None:
        pytest.fail("pdftotext (Debian poppler-utils) is needed: .ci/run installs it")
    path = tmp_path / "survey.pdf"
    path.write_bytes(pdf)
    return subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], check=True, capture_output=True, text=True
    ).stdout


def _client_of(plan: Plan, client: Any) -> Any:
    viewer = PlanMembershipFactory.create(plan=plan, role=PlanRole.VIEWER)
    client.force_login(viewer.user)
    return client


def test_the_pdf_lists_the_buildings_components_with_their_grades_notes_and_photos(
    house: StructureNode, client: Any, tmp_path: Path
) -> None:
    client = _client_of(house.plan, client)
    url = reverse("planning:building_survey_report", args=[house.plan.number, house.pk, "pdf"])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "application/pdf"
    text = _pdf_text(response.content, tmp_path)
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    assert "CONDITION SURVEY" in lines
    assert "East house" in lines
    assert "Address Quay 4" in lines
    assert "Components 3, of which 2 assessed" in lines
    assert "High risk 1 component with a risk of 6 or more" in lines
    assert f"Roof 3 3 9 {DAY:%Y-%m-%d} Leaks by the chimney" in lines
    assert "Envelope inspector@example.com" in lines
    assert f"Windows 9 {DASH} {DASH} {DASH} not assessed" in lines
    assert f"Windows 10 1 {DASH} {DASH} {DAY:%Y-%m-%d}" in lines
    assert "Was fine" not in text  # the latest survey's note only
    assert "Elsewhere boiler" not in text
    # Tree order with names in natural order: 9 before 10.
    assert text.index("Roof") < text.index("Windows 9") < text.index("Windows 10")
    images = tmp_path / "survey.pdf"
    listing = subprocess.run(
        ["pdfimages", "-list", str(images)], check=True, capture_output=True, text=True
    ).stdout
    assert len(listing.strip().splitlines()) == 3  # a header, a rule, the roof's thumbnail


def test_the_workbook_has_the_title_block_and_a_row_per_component(
    house: StructureNode, client: Any
) -> None:
    client = _client_of(house.plan, client)
    url = reverse("planning:building_survey_report", args=[house.plan.number, house.pk, "xlsx"])
    response = client.get(url)
    assert response["Content-Type"] == XLSX
    sheet = exported_sheet(b"".join(response.streaming_content))
    assert sheet.title == "Condition survey of East house"
    assert sheet.facts["Building"] == "East house"
    assert sheet.facts["Risk 6 or more"] == 1
    assert sheet.table[0] == [
        "Component",
        "Within",
        "Code",
        "Grade",
        "Consequence",
        "Risk",
        "Assessed on",
        "Assessed by",
        "Note",
        "Photos",
    ]
    roof = sheet.table[1]
    assert roof[:6] == ["Roof", "Envelope", None, 3, 3, 9]
    assert roof[6].date() == DAY
    # Its one photo is shown (test_survey_workbook.py): no more to count in the cell.
    assert roof[7:] == ["inspector@example.com", "Leaks by the chimney", None]
    assert len(sheet.sheet._images) == 1
    assert [row[0] for row in sheet.table[1:]] == ["Roof", "Windows 9", "Windows 10"]


def test_only_a_building_has_a_survey_report(house: StructureNode, client: Any) -> None:
    client = _client_of(house.plan, client)
    roof = StructureNode.objects.get(name="Roof")
    url = reverse("planning:building_survey_report", args=[house.plan.number, roof.pk, "pdf"])
    assert client.get(url).status_code == 404


def test_the_board_reports_condition_summary_counts_the_current_grades(
    house: StructureNode,
) -> None:
    rows, _poor_cost, poor = condition_summary(plan=house.plan, year_from=2026, year_to=2035)
    counts = {row.label: row.components for row in rows}
    assert counts["3: severe symptoms"] == 1  # the roof's latest survey, not its older one
    assert counts["1: minor symptoms"] == 1
    assert counts["not graded"] == 2
    assert poor == 1


def test_the_board_report_counts_the_components_at_a_high_risk(
    house: StructureNode, tmp_path: Path
) -> None:
    content = report_content(plan=house.plan)
    assert content.high_risk_components == 1  # the roof: 3 x 3; the window has no consequence
    text = " ".join(_pdf_text(report_pdf(plan=house.plan), tmp_path).split())
    assert "from the latest surveys): 1 component." in text


def test_the_pdf_shows_a_components_newest_three_photos(
    house: StructureNode, client: Any, tmp_path: Path
) -> None:
    roof = StructureNode.objects.get(name="Roof")
    for index in range(4):  # five in all; the workbook shows four
        upload = photo_upload(f"roof-{index}.jpg", jpeg_bytes())
        attachment_add(plan=house.plan, node=roof, upload=upload, by=None)
    client = _client_of(house.plan, client)
    url = reverse("planning:building_survey_report", args=[house.plan.number, house.pk, "pdf"])
    path = tmp_path / "survey.pdf"
    path.write_bytes(client.get(url).content)
    listing = subprocess.run(
        ["pdfimages", "-list", str(path)], check=True, capture_output=True, text=True
    ).stdout
    assert len(listing.strip().splitlines()) == 2 + 3  # a header, a rule, three thumbnails

"""The survey report's workbook shows the components' photos (docs/subsystems/surveys-and-files.md
"Survey report"): the newest four thumbnails anchored in the component's Photos cell, its row
tall enough to show them, the count of the rest in the cell; read back with openpyxl."""

from __future__ import annotations

import datetime
import io
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.urls import reverse
from openpyxl.drawing.spreadsheet_drawing import OneCellAnchor
from PIL import Image as PILImage

from planning.models import Attachment, NodeKind, PlanRole, StructureNode
from planning.plans.services.attachments import attachment_add
from planning.reports.survey_workbook import BOX, PHOTO_ROW_HEIGHT, PHOTOS_COLUMN
from tests.factories import PlanFactory, PlanMembershipFactory, StructureNodeFactory
from tests.planning.photos import photo_upload
from tests.planning.workbooks import SheetParts, exported_sheet

pytestmark = pytest.mark.django_db

COLOURS = [(200, 30, 30), (30, 200, 30), (30, 30, 200), (200, 200, 30), (30, 200, 200)]


def _photo(colour: tuple[int, int, int], size: tuple[int, int] = (640, 480)) -> bytes:
    out = io.BytesIO()
    PILImage.new("RGB", size, colour).save(out, "JPEG", quality=95)
    return out.getvalue()


@pytest.fixture
def house() -> StructureNode:
    plan = PlanFactory.create(name="Harbour Housing Co-op")
    house = StructureNodeFactory.create(plan=plan, kind=NodeKind.BUILDING, name="East house")
    envelope = StructureNodeFactory.create(
        plan=plan, parent=house, kind=NodeKind.SYSTEM, name="Envelope"
    )
    for name in ("Balconies", "Roof", "Windows"):
        StructureNodeFactory.create(plan=plan, parent=envelope, name=name)
    return house


def _add_photos(node: StructureNode, colours: list[tuple[int, int, int]]) -> None:
    """Photos of `node`, the last the newest (each a second after the one before)."""
    start = datetime.datetime(2026, 5, 1, 9, tzinfo=datetime.UTC)
    for index, colour in enumerate(colours):
        attachment = attachment_add(
            plan=node.plan, node=node, upload=photo_upload(f"{index}.jpg", _photo(colour)), by=None
        )
        Attachment.objects.filter(pk=attachment.pk).update(
            created_at=start + datetime.timedelta(seconds=index)
        )


def _workbook(house: StructureNode, client: Any) -> SheetParts:
    viewer = PlanMembershipFactory.create(plan=house.plan, role=PlanRole.VIEWER)
    client.force_login(viewer.user)
    url = reverse("planning:building_survey_report", args=[house.plan.number, house.pk, "xlsx"])
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Disposition"].endswith('.xlsx"')
    return exported_sheet(b"".join(response.streaming_content))


def _shown(sheet: SheetParts) -> dict[int, list[tuple[int, tuple[int, int, int]]]]:
    """Per sheet row (1-based): each anchored photo's column offset (px) and its colour."""
    shown: dict[int, list[tuple[int, tuple[int, int, int]]]] = {}
    for image in sheet.sheet._images:
        anchor = image.anchor
        assert isinstance(anchor, OneCellAnchor)
        assert anchor._from.col == PHOTOS_COLUMN - 1  # the Photos column
        pixels = PILImage.open(io.BytesIO(image._data())).convert("RGB")
        assert max(pixels.size) <= 320  # the stored thumbnail, not the photo
        centre = pixels.getpixel((pixels.width // 2, pixels.height // 2))
        assert isinstance(centre, tuple)
        shown.setdefault(anchor._from.row + 1, []).append(
            (anchor._from.colOff, (centre[0], centre[1], centre[2]))
        )
    return {row: sorted(images) for row, images in shown.items()}


def _near(colour: tuple[int, int, int], wanted: tuple[int, int, int]) -> bool:
    return all(abs(a - b) <= 12 for a, b in zip(colour, wanted, strict=True))


def test_each_components_newest_four_photos_are_anchored_in_its_row(
    house: StructureNode, client: Any
) -> None:
    roof = StructureNode.objects.get(name="Roof")
    windows = StructureNode.objects.get(name="Windows")
    _add_photos(roof, COLOURS)  # five: the newest four shown, one counted
    _add_photos(windows, COLOURS[:1])
    sheet = _workbook(house, client)
    header = sheet.table[0]
    assert header[PHOTOS_COLUMN - 1] == "Photos"
    rows = {row[0]: sheet.table_first_row + index for index, row in enumerate(sheet.table)}
    shown = _shown(sheet)
    assert set(shown) == {rows["Roof"], rows["Windows"]}  # not the balconies: no photo
    roof_colours = [colour for _offset, colour in shown[rows["Roof"]]]
    assert len(roof_colours) == 4
    # Newest first, left to right: the oldest (red) is the one left out.
    for colour, wanted in zip(roof_colours, reversed(COLOURS[1:]), strict=True):
        assert _near(colour, wanted), (colour, wanted)
    assert len({offset for offset, _colour in shown[rows["Roof"]]}) == 4  # side by side
    assert len(shown[rows["Windows"]]) == 1
    table = {row[0]: row for row in sheet.table[1:]}
    assert table["Roof"][PHOTOS_COLUMN - 1] == "1 more photo"
    assert table["Windows"][PHOTOS_COLUMN - 1] is None
    assert table["Balconies"][PHOTOS_COLUMN - 1] is None
    # The rows with photos are tall enough for them; the others keep their height.
    dimensions = sheet.sheet.row_dimensions
    assert dimensions[rows["Roof"]].height == PHOTO_ROW_HEIGHT
    assert dimensions[rows["Windows"]].height == PHOTO_ROW_HEIGHT
    assert dimensions[rows["Balconies"]].height is None
    assert PHOTO_ROW_HEIGHT * 96 / 72 > BOX
    for image in sheet.sheet._images:
        assert max(image.anchor.ext.width, image.anchor.ext.height) <= BOX * 9525  # EMU


def test_the_count_of_the_rest_says_how_many(house: StructureNode, client: Any) -> None:
    roof = StructureNode.objects.get(name="Roof")
    _add_photos(roof, COLOURS + COLOURS[:2])
    sheet = _workbook(house, client)
    table = {row[0]: row for row in sheet.table[1:]}
    assert table["Roof"][PHOTOS_COLUMN - 1] == "3 more photos"
    assert len(sheet.sheet._images) == 4


def test_a_workbook_without_photos_has_no_images_and_the_same_table(
    house: StructureNode, client: Any
) -> None:
    sheet = _workbook(house, client)
    assert sheet.sheet._images == []
    assert sheet.title == "Condition survey of East house"
    assert sheet.facts["Components"] == 3
    assert [row[0] for row in sheet.table[1:]] == ["Balconies", "Roof", "Windows"]
    assert [row[PHOTOS_COLUMN - 1] for row in sheet.table[1:]] == [None, None, None]
    assert all(sheet.sheet.row_dimensions[row].height is None for row in range(1, 20))
    assert sheet.sheet.freeze_panes == f"A{sheet.table_first_row + 1}"


def test_a_thumbnail_gone_from_the_storage_leaves_the_others(
    house: StructureNode, client: Any
) -> None:

    roof = StructureNode.objects.get(name="Roof")
    _add_photos(roof, COLOURS[:2])
    newest = Attachment.objects.filter(node=roof).order_by("-created_at").first()
    assert newest is not None
    assert newest.thumbnail.name
    default_storage.delete(newest.thumbnail.name)
    sheet = _workbook(house, client)
    assert len(sheet.sheet._images) == 1

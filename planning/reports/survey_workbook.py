"""The survey report's workbook with its photos (docs/subsystems/surveys-and-files.md "Survey
report"): the sheet of planning.reports.survey (the exports' title block and layout, written by
planning.transfer.xlsx), with each component's newest PHOTOS_IN_WORKBOOK thumbnails anchored in
its Photos cell, and the cell saying how many more it has.

The streaming writer has no drawings, so this one report is finished with openpyxl: the
streamed sheet is read back into a workbook (a building's components: thousands of rows, not a
plan's budget), the thumbnails are copied one at a time from the storage to a temporary folder
(never a URL) and anchored by their file names, and openpyxl reads them again one at a time as it
saves into `out`, a file. Memory holds the sheet's cells and no image's bytes
(`benchmarks/bench_survey_workbook.py` measures it)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import IO

from django.core.files.storage import default_storage
from openpyxl import load_workbook
from openpyxl.drawing.image import Image
from openpyxl.drawing.spreadsheet_drawing import AnchorMarker, OneCellAnchor
from openpyxl.drawing.xdr import XDRPositiveSize2D
from openpyxl.utils.cell import get_column_letter
from openpyxl.utils.units import pixels_to_EMU

from planning.reports.survey import PHOTOS_IN_WORKBOOK, SurveyReport, survey_report_sheet
from planning.transfer.xlsx import xlsx_sheets_stream

PHOTOS_COLUMN = 10  # the sheet's tenth column, "Photos" (1-based, as openpyxl counts)
BOX = 96  # px: a thumbnail's longer side in the sheet
GAP = 4  # px around each thumbnail
# A row with photos: the thumbnails, then a line for the count of the rest (bottom-aligned).
PHOTO_ROW_PIXELS = GAP + BOX + 20
PHOTO_ROW_HEIGHT = PHOTO_ROW_PIXELS * 72 / 96  # points
# Wide enough for PHOTOS_IN_WORKBOOK thumbnails (a character is about 7 px).
PHOTOS_COLUMN_WIDTH = (GAP + PHOTOS_IN_WORKBOOK * (BOX + GAP)) // 7 + 1


def survey_report_workbook(report: SurveyReport, out: IO[bytes]) -> None:
    """Write the report's workbook, its photos anchored, into `out` (a binary file)."""
    sheet = survey_report_sheet(report)
    with tempfile.TemporaryFile() as streamed, tempfile.TemporaryDirectory() as folder:
        for chunk in xlsx_sheets_stream([sheet]):
            streamed.write(chunk)
        streamed.seek(0)
        book = load_workbook(streamed)
        worksheet = book.worksheets[0]
        # The title block, an empty row, the header, then a row per component.
        first = len(sheet.title) + 3
        anchored = 0
        for offset, row in enumerate(report.rows):
            if not row.photos:
                continue
            number = first + offset
            worksheet.row_dimensions[number].height = PHOTO_ROW_HEIGHT
            for place, photo in enumerate(row.photos[:PHOTOS_IN_WORKBOOK]):
                path = Path(folder) / f"{anchored}.jpg"
                try:
                    with default_storage.open(report.thumbnails[photo], "rb") as stored:
                        path.write_bytes(stored.read())
                except FileNotFoundError:  # its file gone from the storage: the rest still show
                    continue
                anchored += 1
                worksheet.add_image(_anchored(Image(str(path)), row=number, place=place))
        if anchored:
            letter = get_column_letter(PHOTOS_COLUMN)
            worksheet.column_dimensions[letter].width = PHOTOS_COLUMN_WIDTH
        book.save(out)  # reads each thumbnail's file in turn


def _anchored(image: Image, *, row: int, place: int) -> Image:
    """`image` shrunk to fit BOX, at `place` (0-based) from the left of row `row`'s Photos
    cell."""
    scale = min(1.0, BOX / max(image.width, image.height, 1))
    image.width = max(1, round(image.width * scale))
    image.height = max(1, round(image.height * scale))
    image.anchor = OneCellAnchor(
        _from=AnchorMarker(
            col=PHOTOS_COLUMN - 1,
            colOff=pixels_to_EMU(GAP + place * (BOX + GAP)),
            row=row - 1,
            rowOff=pixels_to_EMU(GAP),
        ),
        ext=XDRPositiveSize2D(pixels_to_EMU(image.width), pixels_to_EMU(image.height)),
    )
    return image

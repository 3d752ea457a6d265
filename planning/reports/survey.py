"""The survey report of a building (docs/subsystems/surveys-and-files.md "Survey report"): its
components in tree order with their current grade, consequence, risk, the latest survey's note,
who and when, and their newest photos as thumbnails; as a PDF through the board report's printer
(planning.reports.pdf) and as a workbook with its title block (planning.transfer.xlsx).

The grades are the components' current ones (`StructureNode.condition_*`, the latest survey),
the same data the board report's condition summary (planning.reports.condition) counts. The
thumbnails are read from the storage by the printer's URL fetcher (`thumbnail:<id>`, only the
ids of this report): no URL of the app or the store reaches the PDF."""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.core.files.storage import default_storage
from django.db.models import OuterRef, Subquery
from django.template.loader import render_to_string

from core.text_order import natural_key
from planning.models import (
    Attachment,
    AttachmentKind,
    ConditionSurvey,
    NodeKind,
    Plan,
    StructureNode,
)
from planning.reports.condition import HIGH_RISK
from planning.reports.pdf import STYLESHEET, ReportFetchRefused, report_url_fetcher
from planning.transfer.exports.title import title_block
from planning.transfer.xlsx import Sheet

PHOTOS_PER_COMPONENT = 3  # in the PDF
PHOTOS_IN_WORKBOOK = 4  # in the workbook (planning.reports.survey_workbook)
_THUMBNAIL = "thumbnail:"
PATH_SEPARATOR = " \N{SINGLE RIGHT-POINTING ANGLE QUOTATION MARK} "


@dataclass(frozen=True)
class SurveyRow:
    component: str
    within: str  # the systems between the building and the component, by name
    code: str
    grade: int | None
    consequence: int | None
    assessed_on: datetime.date | None
    note: str
    assessed_by: str
    photos: tuple[str, ...] = ()  # the newest PHOTOS_IN_WORKBOOK with a thumbnail: their ids
    photo_count: int = 0  # all its photos with a thumbnail

    @property
    def risk(self) -> int | None:
        if self.grade is None or self.consequence is None:
            return None
        return self.grade * self.consequence


@dataclass(frozen=True)
class SurveyReport:
    plan: Plan
    building: StructureNode
    made_on: datetime.date
    rows: list[SurveyRow]
    thumbnails: dict[str, str] = field(default_factory=dict)  # attachment id -> storage name

    @property
    def assessed(self) -> int:
        return sum(1 for row in self.rows if row.grade is not None)

    @property
    def high_risk(self) -> int:
        return sum(1 for row in self.rows if (row.risk or 0) >= HIGH_RISK)


def survey_report(*, building: StructureNode, made_on: datetime.date) -> SurveyReport:
    """The report's content: one row per component of `building`, in tree order (names in
    natural order along the path)."""
    latest = ConditionSurvey.objects.filter(node=OuterRef("pk")).order_by(
        "-assessed_on", "-created_at"
    )
    components = list(
        StructureNode.objects.filter(building=building, kind=NodeKind.COMPONENT)
        .annotate(
            latest_note=Subquery(latest.values("note")[:1]),
            latest_by=Subquery(latest.values("assessed_by__email")[:1]),
        )
        .select_related("code")
        .only(
            "id",
            "name",
            "path",
            "code__code",
            "condition_grade",
            "condition_consequence",
            "condition_assessed_on",
        )
    )
    names = dict(
        StructureNode.objects.filter(building=building)
        .exclude(kind=NodeKind.COMPONENT)
        .values_list("id", "name")
    )
    names[building.pk] = building.name
    photos, counts, thumbnails = _photos(node_ids=[node.pk for node in components])

    by_hex = {key.hex: value for key, value in names.items()}

    def within_building(node: StructureNode) -> list[str]:
        """The names of the nodes between the building and the component."""
        ids = [part for part in node.path.split("/") if part]
        if building.pk.hex in ids:
            ids = ids[ids.index(building.pk.hex) + 1 :]
        return [by_hex[part] for part in ids if part in by_hex]

    placed = []
    for node in components:
        within = within_building(node)
        key = [natural_key(name) for name in (*within, node.name)]
        placed.append((key, node, within))
    placed.sort(key=lambda item: item[0])
    rows = [
        SurveyRow(
            component=node.name,
            within=PATH_SEPARATOR.join(within),
            code=node.code.code if node.code else "",
            grade=node.condition_grade,
            consequence=node.condition_consequence,
            assessed_on=node.condition_assessed_on,
            note=getattr(node, "latest_note", None) or "",
            assessed_by=getattr(node, "latest_by", None) or "",
            photos=tuple(photos.get(node.pk, ())),
            photo_count=counts.get(node.pk, 0),
        )
        for _key, node, within in placed
    ]
    return SurveyReport(building.plan, building, made_on, rows, thumbnails)


def _photos(*, node_ids: list[Any]) -> tuple[dict[Any, list[str]], dict[Any, int], dict[str, str]]:
    """The newest PHOTOS_IN_WORKBOOK photos of each node, how many it has, and the shown ones'
    thumbnails' storage names."""
    photos: dict[Any, list[str]] = {}
    counts: dict[Any, int] = {}
    thumbnails: dict[str, str] = {}
    images = (
        Attachment.objects.filter(node_id__in=node_ids, kind=AttachmentKind.IMAGE)
        .exclude(thumbnail="")
        .exclude(thumbnail__isnull=True)
        .order_by("node_id", "-created_at")
        .values_list("id", "node_id", "thumbnail")
    )
    for attachment_id, node_id, thumbnail in images.iterator(chunk_size=2000):
        counts[node_id] = counts.get(node_id, 0) + 1
        shown = photos.setdefault(node_id, [])
        if len(shown) < PHOTOS_IN_WORKBOOK:
            shown.append(str(attachment_id))
            thumbnails[str(attachment_id)] = str(thumbnail)
    return photos, counts, thumbnails


def survey_report_html(report: SurveyReport) -> str:
    return render_to_string(
        "planning/report/survey.html",
        {
            "report": report,
            "plan": report.plan,
            "thumbnail": _THUMBNAIL,
            "photos_shown": f":{PHOTOS_PER_COMPONENT}",
        },
    )


def survey_report_pdf(report: SurveyReport) -> bytes:
    """The report printed by WeasyPrint with the board report's stylesheet; the thumbnails are
    read from the storage, every other URL as the board report's printer allows."""
    import weasyprint  # loads Pango: only in a process that prints

    def fetch(url: str, *args: Any, **kwargs: Any) -> dict[str, Any]:
        if url.startswith(_THUMBNAIL):
            name = report.thumbnails.get(url.removeprefix(_THUMBNAIL))
            if name is None:
                raise ReportFetchRefused("Not a thumbnail of this report.")
            with default_storage.open(name, "rb") as stored:
                return {"string": stored.read(), "mime_type": "image/jpeg", "filename": "t.jpg"}
        return report_url_fetcher(url, *args, **kwargs)

    stylesheet = weasyprint.CSS(url=STYLESHEET.resolve().as_uri(), url_fetcher=fetch)
    document = weasyprint.HTML(string=survey_report_html(report), url_fetcher=fetch)
    pdf: bytes = document.write_pdf(stylesheets=[stylesheet])
    return pdf


def survey_report_sheet(report: SurveyReport) -> Sheet:
    """The workbook's one sheet: the title block, then a row per component; its Photos cell says
    how many photos are not shown (planning.reports.survey_workbook anchors the shown ones)."""
    building = report.building
    return Sheet(
        name="Survey",
        title=title_block(
            plan=report.plan,
            title=f"Condition survey of {building.name}",
            prices="no amounts in this report",
            made_on=report.made_on,
            more=[
                ("Building", building.name),
                ("Components", len(report.rows)),
                ("Assessed", report.assessed),
                (f"Risk {HIGH_RISK} or more", report.high_risk),
            ],
        ),
        table=_sheet_rows(report),
    )


def _sheet_rows(report: SurveyReport) -> Iterator[tuple[Any, ...]]:
    yield (
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
    )
    for row in report.rows:
        yield (
            row.component,
            row.within,
            row.code,
            row.grade,
            row.consequence,
            row.risk,
            row.assessed_on,
            row.assessed_by,
            row.note,
            _photos_not_shown(row),
        )


def _photos_not_shown(row: SurveyRow) -> str:
    rest = row.photo_count - len(row.photos)
    if rest <= 0:
        return ""
    return f"{rest} more photo" if rest == 1 else f"{rest} more photos"


def survey_report_filename(building: StructureNode, made_on: datetime.date, fmt: str) -> str:
    return f"plan-{building.plan.number}-survey-{building.pk.hex[:8]}-{made_on.isoformat()}.{fmt}"

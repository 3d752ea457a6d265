"""A building's survey report, as PDF or workbook (planning.reports.survey;
docs/subsystems/surveys-and-files.md "Survey report"). Anyone who may see the plan may download
it, as they may export it. Printed in the request: a building's components and their thumbnails
are a few pages, not a plan's whole budget; the workbook is written to a temporary file first
(its photos are anchored by openpyxl, planning.reports.survey_workbook) and sent from there."""

from __future__ import annotations

import tempfile
from typing import Any

from django.http import FileResponse, Http404, HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from planning.core.access import PlanAccess
from planning.models import NodeKind
from planning.plans import selectors
from planning.reports.survey import (
    survey_report,
    survey_report_filename,
    survey_report_pdf,
)
from planning.reports.survey_workbook import survey_report_workbook
from planning.transfer import xlsx
from planning.web.access import plan_member_required
from planning.web.downloads import as_download


@plan_member_required()
@require_http_methods(["GET"])
def building_survey_report(
    request: HttpRequest, access: PlanAccess, node_id: Any, fmt: str
) -> HttpResponseBase:
    building = selectors.node_get(plan=access.plan, node_id=node_id)
    if building.kind != NodeKind.BUILDING or fmt not in ("pdf", "xlsx"):
        raise Http404("No survey report of this node")
    made_on = timezone.localdate()
    report = survey_report(building=building, made_on=made_on)
    name = survey_report_filename(building, made_on, fmt)
    if fmt == "xlsx":
        # Not a `with`: the response closes the file once sent, which removes it.
        workbook = tempfile.TemporaryFile()  # noqa: SIM115
        try:
            survey_report_workbook(report, workbook)
        except BaseException:
            workbook.close()
            raise
        workbook.seek(0)
        response: HttpResponseBase = FileResponse(workbook, content_type=xlsx.CONTENT_TYPE)
    else:
        response = HttpResponse(survey_report_pdf(report), content_type="application/pdf")
    return as_download(response, name)

"""The import form of the plan list (a plan file, one sheet or a CSV pair) and the page of an
import. One sheet goes to its mapping page first (planning.web.views.import_mapping).

An upload is imported by a background job (planning.transfer.imports.jobs): the POST only keeps the
file and answers at once with a redirect to the import's page, which shows a progress bar
(static/js/job-progress.js polls the progress URL) and then the problems, or sends the user
on to the new plan.
"""

from __future__ import annotations

import json
import uuid

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_GET, require_http_methods

from organisations.current import current_membership
from planning.models import (
    MAX_YEAR,
    MIN_YEAR,
    ActionKind,
    ActionStatus,
    NodeKind,
    PlanImport,
    PlanImportFormat,
    PlanImportStatus,
    planned_year_first,
    planned_year_last,
)
from planning.plans.services.plans import NOT_A_PLANNER
from planning.tasks import plan_import_enqueue, plan_imports_resume
from planning.transfer import xlsx
from planning.transfer.exports.plan_document import plan_workbook_sheets
from planning.transfer.imports.jobs import ImportsQueueFull, plan_import_state, plan_import_submit
from planning.transfer.imports.sheet.source import is_one_sheet
from planning.transfer.xlsx import xlsx_sheets_stream
from planning.tree.paths import DEPTH_MAX
from planning.web.access import request_user
from planning.web.forms.plans import PlanImportForm
from planning.web.pages import plan_list_render


@login_required
@require_http_methods(["GET", "POST"])
def plan_import_upload(request: HttpRequest) -> HttpResponse:
    """The upload form of the plan list: the file is kept and imported by a job."""
    if request.method != "POST":
        return redirect("planning:plan_list")
    current = current_membership(request)
    form = PlanImportForm(
        request.POST,
        request.FILES,
        prefix="import",
        organisation=current.organisation if current is not None else None,
    )
    if not form.is_valid():
        return plan_list_render(request, import_form=form)
    data = form.cleaned_data
    plan_content = b""
    status = PlanImportStatus.QUEUED
    if data["plan_file"]:
        upload = data["plan_file"]
        file_format, filename = PlanImportFormat.DOCUMENT, upload.name
        content, actions_content = upload.read(), b""
        if is_one_sheet(content):  # its columns are asked for first
            file_format, status = PlanImportFormat.SHEET, PlanImportStatus.MAPPING
    else:
        # Without a name in the form or plan.csv, the job names the plan after nodes.csv.
        file_format, filename = PlanImportFormat.CSV_PAIR, data["nodes_csv"].name
        content, actions_content = data["nodes_csv"].read(), data["actions_csv"].read()
        plan_content = data["plan_csv"].read() if data["plan_csv"] else b""
    try:
        if current is None or not current.can_edit:
            form.add_error(None, NOT_A_PLANNER)
            return plan_list_render(request, import_form=form, status=403)
        upload_import, created = plan_import_submit(
            owner=request_user(request),
            organisation=current.organisation,
            idempotency_key=data["idempotency_key"] or uuid.uuid4().hex,
            file_format=file_format,
            filename=filename,
            name=data["name"] or "",
            content=content,
            actions_content=actions_content,
            plan_content=plan_content,
            currency=data["currency"],
            status=status,
        )
    except ImportsQueueFull as full:
        form.add_error(None, str(full))
        return plan_list_render(request, import_form=form, status=429)
    if upload_import.status == PlanImportStatus.MAPPING:
        return redirect("planning:plan_import_mapping", import_id=upload_import.pk)
    if created:
        plan_import_enqueue(import_id=upload_import.pk)
    return redirect("planning:plan_import_detail", import_id=upload_import.pk)


def _own_import(request: HttpRequest, import_id: uuid.UUID) -> PlanImport:
    """The user's import; another user's is a 404, as if it did not exist."""
    return get_object_or_404(
        PlanImport.objects.select_related("plan").defer(
            "content", "actions_content", "plan_content"
        ),
        pk=import_id,
        owner=request_user(request),
    )


@login_required
@require_GET
def plan_import_detail(request: HttpRequest, import_id: uuid.UUID) -> HttpResponse:
    """The import's page: progress while the job runs, then the plan or the problems."""
    upload = _own_import(request, import_id)
    if upload.status == PlanImportStatus.MAPPING:
        return redirect("planning:plan_import_mapping", import_id=upload.pk)
    if upload.status == PlanImportStatus.DONE and upload.plan is not None:
        messages.success(request, f"Imported plan #{upload.plan.number} “{upload.plan.name}”.")
        return redirect("planning:plan_detail", number=upload.plan.number)
    return render(
        request,
        "planning/plan_import.html",
        {
            "upload": upload,
            "state": plan_import_state(upload),
            "import_form": PlanImportForm(prefix="import", organisation=upload.organisation),
        },
    )


@login_required
@require_GET
def plan_import_progress(request: HttpRequest, import_id: uuid.UUID) -> JsonResponse:
    """How far the import is, for the page's progress bar. A watched import whose worker died
    is run again from here (planning.transfer.imports.jobs)."""
    upload = _own_import(request, import_id)
    if not upload.finished and plan_imports_resume(pk=str(upload.pk)):
        upload.refresh_from_db()
    state = plan_import_state(upload)
    return JsonResponse({**state.as_json(), "finished": upload.finished})


# The example files of docs/examples, offered as templates to start a file from.
IMPORT_TEMPLATES = {
    "plan.json": "application/json",
    "nodes.csv": "text/csv",
    "actions.csv": "text/csv",
    "plan.xlsx": xlsx.CONTENT_TYPE,
}


@require_GET
def plan_import_format(request: HttpRequest) -> HttpResponse:
    """The import format, described for a person, with the templates to download."""
    return render(
        request,
        "planning/import_format.html",
        {
            "templates": list(IMPORT_TEMPLATES),
            "node_kinds": NodeKind.values,
            "action_kinds": ActionKind.values,
            "action_statuses": ActionStatus.values,
            "min_year": MIN_YEAR,
            "max_year": MAX_YEAR,
            "planned_year_first": planned_year_first(),
            "planned_year_last": planned_year_last(),
            "max_bytes_mib": settings.IMPORT_MAX_BYTES // (1024 * 1024),
            "max_nodes": settings.PLAN_MAX_NODES,
            "max_actions": settings.PLAN_MAX_ACTIONS,
            "max_levels": DEPTH_MAX + 1,
        },
    )


@require_GET
def plan_import_template(request: HttpRequest, filename: str) -> HttpResponseBase:
    if filename not in IMPORT_TEMPLATES:
        raise Http404("No such template.")
    path = settings.BASE_DIR / "docs" / "examples" / filename
    if filename == "plan.xlsx":
        # The example plan as a workbook, written from its JSON as a plan's export is.
        document = json.loads((path.parent / "plan.json").read_bytes())
        response = StreamingHttpResponse(
            xlsx_sheets_stream(plan_workbook_sheets(document)), content_type=xlsx.CONTENT_TYPE
        )
        response["Content-Disposition"] = 'attachment; filename="maintplan-plan.xlsx"'
        return response
    return FileResponse(
        path.open("rb"),
        as_attachment=True,
        filename=f"maintplan-{filename}",
        content_type=IMPORT_TEMPLATES[filename],
    )

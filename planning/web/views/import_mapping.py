"""The mapping step of a one-sheet import (docs/subsystems/import-mapping.md "The mapping page"):
the upload kept the file as an import waiting for its columns; this page asks which column is
which (guessed, or as the organisation confirmed for the same headers before), shows the first
rows as the plan will get them, and on "Import" queues the import's job, whose page shows its
progress and then the plan."""

from __future__ import annotations

import uuid

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.views.decorators.http import require_GET, require_http_methods

from planning.catalog.currency import catalog_currency
from planning.models import PlanImport, PlanImportStatus
from planning.tasks import plan_import_enqueue
from planning.transfer import xlsx
from planning.transfer.imports.problems import ImportRejected
from planning.transfer.imports.sheet.fields import FIELDS_BY_KEY, sheet_template_rows
from planning.transfer.imports.sheet.guess import columns_guessed
from planning.transfer.imports.sheet.mappings import (
    import_mapping_saved,
    plan_import_mapped,
    plan_import_unreadable,
)
from planning.transfer.imports.sheet.preview import sheet_preview, sheet_sample
from planning.web.access import request_user
from planning.web.forms.imports import SheetMappingForm


@login_required
@require_http_methods(["GET", "POST"])
def plan_import_mapping(request: HttpRequest, import_id: uuid.UUID) -> HttpResponse:
    upload = get_object_or_404(PlanImport, pk=import_id, owner=request_user(request))
    if upload.status != PlanImportStatus.MAPPING:
        return redirect("planning:plan_import_detail", import_id=upload.pk)
    try:
        sample = sheet_sample(bytes(upload.content), upload.filename)
    except ImportRejected as rejected:
        plan_import_unreadable(upload=upload, rejected=rejected)
        return redirect("planning:plan_import_detail", import_id=upload.pk)
    saved = import_mapping_saved(organisation=upload.organisation, headers=sample.headers)
    guesses = columns_guessed(
        sample.headers,
        [cells for _number, cells in sample.rows],
        decimal_comma=sample.decimal_comma,
    )
    currency = upload.currency or catalog_currency(organisation_id=upload.organisation_id)
    form = SheetMappingForm(
        request.POST if request.method == "POST" else None,
        headers=sample.headers,
        columns=saved.columns if saved is not None else [guess.field for guess in guesses],
        currency=currency,
        initial={"name": upload.name},
    )
    columns = list(form.fields[f"column_{i}"].initial for i in range(len(sample.headers)))
    if form.is_bound and form.is_valid():
        columns, currency = form.columns(), form.cleaned_data["currency"]
    preview = sheet_preview(sample, columns, currency_chosen=currency)
    if form.is_bound and form.is_valid() and "confirm" in request.POST:
        if not preview.mapping_problems:
            if plan_import_mapped(
                upload=upload,
                user=request_user(request),
                headers=sample.headers,
                columns=columns,
                currency=currency,
                name=form.cleaned_data["name"],
            ):
                plan_import_enqueue(import_id=upload.pk)
            return redirect("planning:plan_import_detail", import_id=upload.pk)
        form.add_error(None, "The mapping needs a change before the import: see below.")
    return render(
        request,
        "planning/plan_import_mapping.html",
        {
            "upload": upload,
            "form": form,
            "columns": [
                {
                    "field": bound,
                    "reason": "as confirmed before for these headers"
                    if saved is not None
                    else guess.reason,
                    "values": [cells[index] for _n, cells in sample.rows[:3] if index < len(cells)],
                }
                for index, (bound, guess) in enumerate(
                    zip(form.column_fields(), guesses, strict=True)
                )
            ],
            "saved": saved,
            "preview": preview,
            "sample": sample,
            "labels": {key: field.label for key, field in FIELDS_BY_KEY.items()},
        },
    )


@require_GET
def plan_import_sheet_template(request: HttpRequest) -> StreamingHttpResponse:
    """The one-sheet template: the English headers and two example rows."""
    rows = sheet_template_rows(year=timezone.localdate().year)
    response = StreamingHttpResponse(
        xlsx.xlsx_stream(rows, title="Plan"), content_type=xlsx.CONTENT_TYPE
    )
    response["Content-Disposition"] = 'attachment; filename="maintplan-sheet.xlsx"'
    return response

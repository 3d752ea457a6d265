"""The import form of the plan list: a plan file or a CSV pair."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from planning.access import request_user
from planning.forms import PlanImportForm
from planning.importers import ImportRejected, plan_import, plan_import_csv
from planning.tasks import plan_sync_soon
from planning.views._pages import plan_list_render


@login_required
@require_http_methods(["GET", "POST"])
def plan_import_upload(request: HttpRequest) -> HttpResponse:
    """The upload form of the plan list: all or nothing, every problem listed."""
    if request.method != "POST":
        return redirect("planning:plan_list")
    form = PlanImportForm(request.POST, request.FILES, prefix="import")
    problems: list[Any] = []
    if form.is_valid():
        name = form.cleaned_data["name"] or None
        try:
            if form.cleaned_data["plan_file"]:
                upload = form.cleaned_data["plan_file"]
                plan = plan_import(
                    owner=request_user(request),
                    content=upload.read(),
                    filename=upload.name,
                    name=name,
                )
            else:
                plan = plan_import_csv(
                    owner=request_user(request),
                    nodes_csv=form.cleaned_data["nodes_csv"].read(),
                    actions_csv=form.cleaned_data["actions_csv"].read(),
                    name=form.cleaned_data["name"],  # the form requires it for a CSV pair
                )
        except ImportRejected as rejected:
            problems = list(rejected.problems)
            form.add_error(
                None, f"The file was not imported: {len(problems)} problem(s), listed below."
            )
        else:
            messages.success(request, f"Imported plan #{plan.number} “{plan.name}”.")
            plan_sync_soon(plan=plan)  # its first sync, in the worker, before anyone lists
            return redirect("planning:plan_detail", number=plan.number)
    return plan_list_render(request, import_form=form, import_problems=problems)

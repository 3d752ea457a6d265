"""Downloads of a plan: its actions (with the Actions tab's filters) and its budget, as CSV or
XLSX (planning.exports)."""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.utils import timezone
from django.views.decorators.http import require_http_methods

from planning import exports
from planning.access import plan_member_required
from planning.access_rules import PlanAccess
from planning.forms import ActionFilterForm

_CONTENT_TYPES = {
    "csv": "text/csv; charset=utf-8",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def _download(rows: Any, *, fmt: str, name: str, sheet: str) -> HttpResponse:
    if fmt not in _CONTENT_TYPES:
        raise Http404("No such export format")
    content = exports.as_csv(rows) if fmt == "csv" else exports.as_xlsx(rows, title=sheet)
    response = HttpResponse(content, content_type=_CONTENT_TYPES[fmt])
    response["Content-Disposition"] = f'attachment; filename="{name}.{fmt}"'
    response["Cache-Control"] = "private, no-store"
    return response


def _stem(access: PlanAccess, what: str) -> str:
    return f"plan-{access.plan.number}-{what}-{timezone.now():%Y%m%d}"


@plan_member_required()
@require_http_methods(["GET"])
def export_actions(request: HttpRequest, access: PlanAccess, fmt: str) -> HttpResponse:
    if fmt not in _CONTENT_TYPES:
        raise Http404("No such export format")
    filters = ActionFilterForm(request.GET or None, plan=access.plan).filters()
    rows = exports.action_rows(plan=access.plan, filters=filters)
    return _download(rows, fmt=fmt, name=_stem(access, "actions"), sheet="Actions")


@plan_member_required()
@require_http_methods(["GET"])
def export_budget(request: HttpRequest, access: PlanAccess, fmt: str) -> HttpResponse:
    if fmt not in _CONTENT_TYPES:
        raise Http404("No such export format")
    rows = exports.budget_rows(plan=access.plan)
    return _download(rows, fmt=fmt, name=_stem(access, "budget"), sheet="Budget")

"""Survey mode's pages (docs/subsystems/survey-mode.md): the buildings to survey, searched and
paged; one building's survey page, a shell its script fills from the component list (compact
JSON pages, the first one small); and the service worker that keeps those pages and their
assets on the device. The entries and photos arrive at planning.web.views.survey_entries."""

from __future__ import annotations

import hashlib
import json
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.views.decorators.gzip import gzip_page
from django.views.decorators.http import require_GET

from planning.core.access import PlanAccess
from planning.models import ConditionConsequence, ConditionGrade, NodeKind, Plan, StructureNode
from planning.tree.selectors import building_labels
from planning.tree.walk import WalkStep, building_search, building_walk
from planning.web.access import json_error, plan_member_required, plan_member_required_json
from planning.web.forms.survey_mode import BuildingSearchForm, ComponentPageForm

# The words on the big buttons: the grade's and the consequence's, after their number.
GRADE_WORDS = {0: "none", 1: "minor", 2: "moderate", 3: "severe"}
CONSEQUENCE_WORDS = {0: "none", 1: "small", 2: "medium", 3: "large"}
# The columns of a row of the component list, in order (static/js/survey.js reads them by name).
COMPONENT_FIELDS = ["id", "name", "place", "code", "grade", "consequence", "assessed_on"]
FIRST_PAGE = 30
# What the service worker keeps for survey mode to open without a connection. A change of any of
# their URLs (whitenoise's hashed names in production) changes the worker, so browsers update it.
WORKER_ASSETS = (
    "css/app.css",
    "css/survey.css",
    "js/menu.js",
    "js/survey-queue.js",
    "js/survey.js",
)
WORKER_REVISION = "1"


def _building_get(*, plan: Plan, building_id: Any) -> StructureNode:
    building = StructureNode.objects.filter(
        plan=plan, pk=building_id, kind=NodeKind.BUILDING
    ).first()
    if building is None:
        raise Http404("No such building")
    return building


@plan_member_required()
@require_GET
def survey_buildings(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """The plan's buildings to pick one from: a search by name or code and pages of 25."""
    form = BuildingSearchForm(request.GET)
    form.is_valid()
    query = form.cleaned_data.get("q", "")
    page = building_search(plan=access.plan, query=query, page=form.cleaned_data.get("page"))
    labels = building_labels(plan=access.plan, building_ids=[row[0] for row in page])
    return render(
        request,
        "planning/survey/buildings.html",
        {
            "plan": access.plan,
            "access": access,
            "can_edit": access.can_edit,
            "query": query,
            "page": page,
            "buildings": [(pk, labels.get(pk, name)) for pk, name in page],
            "query_string": urlencode({"q": query}) if query else "",
        },
    )


@plan_member_required()
@require_GET
def survey_building(request: HttpRequest, access: PlanAccess, building_id: Any) -> HttpResponse:
    plan = access.plan
    building = _building_get(plan=plan, building_id=building_id)
    label = building_labels(plan=plan, building_ids=[building.pk]).get(building.pk, building.name)
    urls = {
        "components": reverse("planning:survey_components", args=[plan.number, building.pk]),
        "entry": reverse("planning:survey_entry", args=[plan.number]),
        "photo": reverse("planning:survey_photo", args=[plan.number]),
        "worker": reverse("planning:survey_worker"),
        "scope": reverse("planning:plan_list"),
    }
    return render(
        request,
        "planning/survey/survey.html",
        {
            "plan": plan,
            "access": access,
            "can_edit": access.can_edit,
            "building": building,
            "label": label,
            "urls": urls,
            "csrf": get_token(request),
            # The first page of the list rides in the page itself (a JSON data block, which the
            # Content-Security-Policy allows): the first component shows without one more
            # round trip, the one a slow mobile connection feels most.
            "first_page": _component_page(
                building_walk(plan=plan, building=building), offset=0, limit=FIRST_PAGE
            ),
            "grades": [(grade, GRADE_WORDS[grade]) for grade in ConditionGrade.values],
            "consequences": [
                (value, CONSEQUENCE_WORDS[value]) for value in ConditionConsequence.values
            ],
        },
    )


def _component_page(steps: list[WalkStep], *, offset: int, limit: int) -> dict[str, Any]:
    """One page of a building's walk as the page's script reads it: `{"total", "offset",
    "next", "fields", "rows"}`, rows of COMPONENT_FIELDS; `next` is the next page's offset,
    null after the last."""
    rows = [
        [
            str(step.id),
            step.name,
            step.place,
            step.code,
            step.grade,
            step.consequence,
            step.assessed_on.isoformat() if step.assessed_on else None,
        ]
        for step in steps[offset : offset + limit]
    ]
    end = offset + limit
    return {
        "total": len(steps),
        "offset": offset,
        "next": end if end < len(steps) else None,
        "fields": COMPONENT_FIELDS,
        "rows": rows,
    }


@plan_member_required_json()
@require_GET
@gzip_page  # 500 rows: 45 kB as JSON, 13 kB compressed; no secret in it to guess at
def survey_components(request: HttpRequest, access: PlanAccess, building_id: Any) -> JsonResponse:
    """One page of the building's components in tree order (`_component_page`)."""
    try:
        building = _building_get(plan=access.plan, building_id=building_id)
    except Http404:
        return json_error("No such building in this plan.", status=404)
    form = ComponentPageForm(request.GET)
    if not form.is_valid():
        return json_error(
            "Ask for a page with offset 0 or more and limit 1 to 500.",
            status=400,
            errors=form.errors.get_json_data(),
        )
    offset = form.cleaned_data["offset"] or 0
    limit = form.cleaned_data["limit"] or FIRST_PAGE
    steps = building_walk(plan=access.plan, building=building)
    return JsonResponse(_component_page(steps, offset=offset, limit=limit))


@require_GET
def survey_worker(request: HttpRequest) -> HttpResponse:
    """The service worker, served from /plans/ so its scope covers every survey page (a script
    under /static/ could only control /static/). It names no one and holds nothing private, so
    it answers without a login: a browser checks it for updates whoever is signed in."""
    assets = [static(name) for name in WORKER_ASSETS]
    version = hashlib.sha256("\n".join([WORKER_REVISION, *assets]).encode()).hexdigest()[:12]
    response = render(
        request,
        "planning/survey/worker.js",
        {
            "assets_json": json.dumps(assets),
            "version_json": json.dumps(version),
            "scope_json": json.dumps(reverse("planning:plan_list")),
        },
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response

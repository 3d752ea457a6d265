"""The Projects tab (name, year, number of actions, total) and a page per project: rename it,
change its year, add actions found by a search, remove actions, delete it (its actions stay)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from planning.core.access import PlanAccess
from planning.models import Action, Project
from planning.plans import selectors
from planning.plans.action_filters import ActionFilters, actions_filtered
from planning.plans.services import projects as services
from planning.web.access import plan_member_required
from planning.web.forms.fields import form_submit
from planning.web.forms.projects import ProjectActionsAddForm, ProjectForm
from planning.web.pages import plan_tab_context

PROJECTS_PER_PAGE = 50
PROJECT_ACTIONS_PER_PAGE = 50
CANDIDATES_MAX = 20


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def project_list(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """The plan's projects, and (for editors) a New project form that leads to the new
    project's page, where actions are added."""
    form = ProjectForm(request.POST or None, prefix="new")
    if request.method == "POST":
        project = form_submit(form, lambda data: services.project_create(plan=access.plan, **data))
        if project:
            messages.success(request, f"Project “{project.name}” created: add its actions here.")
            return redirect(_project_url(project))
    page = Paginator(selectors.project_list(plan=access.plan), PROJECTS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = plan_tab_context(access, "projects")
    context["projects_page"] = page
    context["new_form"] = form
    return render(
        request,
        "planning/project_list.html",
        context,
        status=400 if request.method == "POST" else 200,
    )


def _project_url(project: Project) -> str:
    return reverse("planning:project_detail", args=[project.plan.number, project.pk])


def _candidates(access: PlanAccess, project: Project, query: str) -> list[Action]:
    if not query:
        return []
    found = actions_filtered(plan=access.plan, filters=ActionFilters(q=query))
    return list(found.exclude(project=project)[:CANDIDATES_MAX])


def _render_project(
    request: HttpRequest, access: PlanAccess, project: Project, **forms: Any
) -> HttpResponse:
    plan = access.plan
    actions = (
        Action.objects.filter(project=project)
        .select_related("node")
        .order_by("planned_year", "title", "id")
    )
    page = Paginator(actions, PROJECT_ACTIONS_PER_PAGE).get_page(request.GET.get("page"))
    query = request.GET.get("q", "").strip()[:200]
    candidates = _candidates(access, project, query)
    context = plan_tab_context(access, "projects")
    context.update(
        {
            "project": project,
            "summary": selectors.project_list(plan=plan).get(pk=project.pk),
            "actions_page": page,
            "query": query,
            "candidates": candidates,
            "project_form": forms.get("project_form")
            or ProjectForm(prefix="project", initial={"name": project.name, "year": project.year}),
        }
    )
    return render(request, "planning/project_detail.html", context)


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def project_detail(request: HttpRequest, access: PlanAccess, project_id: Any) -> HttpResponse:
    project = selectors.project_get(plan=access.plan, project_id=project_id)
    if request.method != "POST":
        return _render_project(request, access, project)
    form = ProjectForm(request.POST, prefix="project")
    if form_submit(form, lambda data: services.project_update(project=project, **data)):
        messages.success(request, f"Project “{project.name}” saved.")
        return redirect(_project_url(project))
    project.refresh_from_db()
    return _render_project(request, access, project, project_form=form)


@plan_member_required(edit=True)
@require_POST
def project_actions_add(request: HttpRequest, access: PlanAccess, project_id: Any) -> HttpResponse:
    project = selectors.project_get(plan=access.plan, project_id=project_id)
    choices = [(value, value) for value in request.POST.getlist("action")]
    form = ProjectActionsAddForm(request.POST, choices=choices)
    if not form.is_valid():
        messages.error(request, "Tick the actions to add.")
        return redirect(_project_url(project))
    added = services.project_actions_add(project=project, action_ids=form.cleaned_data["action"])
    messages.success(request, f"{added} action{'s' if added != 1 else ''} added.")
    return redirect(_project_url(project))


@plan_member_required(edit=True)
@require_POST
def project_action_remove(
    request: HttpRequest, access: PlanAccess, project_id: Any, action_id: Any
) -> HttpResponse:
    project = selectors.project_get(plan=access.plan, project_id=project_id)
    action = selectors.action_get(plan=access.plan, action_id=action_id)
    if action.project_id == project.pk:
        services.project_action_remove(project=project, action=action)
        messages.success(request, f"“{action.title}” removed from the project.")
    return redirect(_project_url(project))


@plan_member_required(edit=True)
@require_POST
def project_delete(request: HttpRequest, access: PlanAccess, project_id: Any) -> HttpResponse:
    project = selectors.project_get(plan=access.plan, project_id=project_id)
    kept = services.project_delete(project=project)
    messages.success(
        request, f"Project “{project.name}” deleted; its {kept} action(s) are kept without one."
    )
    return redirect("planning:project_list", number=access.plan.number)

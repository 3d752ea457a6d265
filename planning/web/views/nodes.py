"""Node pages: a node's details, a building's data and key figures, a component's condition, its
place in the tree, its catalog code; adding a top-level node from the plan page."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from planning.catalog.currency import reference_elsewhere, usable_unit_cost
from planning.core.access import PlanAccess
from planning.core.money import money_format
from planning.figures.condition_index import building_condition
from planning.figures.key_figures import building_key_figures
from planning.models import NodeKind, Plan, StructureNode
from planning.plans import selectors
from planning.plans.services import nodes as services
from planning.plans.services.surveys import survey_record
from planning.records.history import entity_history
from planning.suggestions.selectors import suggestions_open_queryset
from planning.tree.selectors import node_ancestors, node_search, node_subtree_ids, tree_children
from planning.web.access import actions_url, plan_member_required, plan_url, request_user
from planning.web.forms.catalog import CodeSearchForm
from planning.web.forms.fields import form_submit
from planning.web.forms.nodes import (
    CodeAssignForm,
    NodeBuildingForm,
    NodeConditionForm,
    NodeCreateForm,
    NodeDetailsForm,
    NodeMoveForm,
    NodeRenameForm,
)
from planning.web.forms.surveys import AttachmentUploadForm, SurveyForm
from planning.web.pages import plan_detail_render

# The node page lists the node's own actions and open suggestions up to these counts; the
# Actions tab and the planning view (filtered to the node) have the rest.
NODE_ACTIONS_SHOWN = 20
NODE_SUGGESTIONS_SHOWN = 10
# A component's latest surveys shown on its page (its grades over time).
NODE_SURVEYS_SHOWN = 20


def _node_url(node: StructureNode) -> str:
    return reverse("planning:node_detail", args=[node.plan.number, node.pk])


@plan_member_required()
@require_http_methods(["GET"])
def node_children(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    """The children of a node as a fragment of the plan page's tree (static/js/tree.js puts it
    under the node when the user expands it)."""
    level = tree_children(plan=access.plan, node_id=node_id)
    if level is None:
        raise Http404("No such node")
    entries, more = level
    return render(
        request,
        "planning/_tree_level.html",
        {"plan": access.plan, "entries": entries, "more": more},
    )


@plan_member_required()
@require_http_methods(["GET"])
def node_lookup(request: HttpRequest, access: PlanAccess) -> JsonResponse:
    """Nodes matching `q` (name or code), for the node pickers (static/js/node-picker.js):
    `{"results": [{"id", "name", "kind", "path"}], "more": bool}`. `kind` narrows them."""
    query = request.GET.get("q", "").strip()[:200]
    kind = request.GET.get("kind", "")
    if not query or kind not in ("", *NodeKind.values):
        return JsonResponse({"results": [], "more": False})
    matches, more = node_search(plan=access.plan, query=query, kind=kind or None, limit=20)
    return JsonResponse(
        {
            "results": [
                {
                    "id": str(match.node.pk),
                    "name": match.node.name,
                    "kind": match.node.kind,
                    "code": match.node.code.code if match.node.code else "",
                    "path": match.path_text,
                }
                for match in matches
            ],
            "more": more,
        }
    )


@plan_member_required(edit=True)
@require_POST
def node_root_create(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    form = NodeCreateForm(request.POST, prefix="root")
    node = form_submit(
        form, lambda data: services.node_create(plan=access.plan, parent=None, **data)
    )
    if node:
        messages.success(request, f"Added “{node.name}”.")
        return redirect(plan_url(access.plan))
    return plan_detail_render(request, access, root_form=form)


def _code_reference(plan: Plan, node: StructureNode) -> str:
    """The node's reference cost, said on its page: its code's unit cost (and times the
    quantity) when it is in the plan's currency, else that it is in another one."""
    if node.code_id is None:
        return ""
    code = selectors.code_effective(organisation_id=plan.organisation_id, code_id=node.code_id)
    elsewhere = reference_elsewhere(code, currency=plan.currency)
    if elsewhere:
        return f"{elsewhere} Its costs are not checked against it, nor set to it."
    unit_cost = usable_unit_cost(code, currency=plan.currency)
    if code is None or unit_cost is None:
        return ""
    said = f"Reference cost: {money_format(unit_cost, plan.currency)} per {code.unit or 'unit'}"
    if node.quantity:
        total = money_format(unit_cost * node.quantity, plan.currency)
        said += f", {total} for {node.quantity.normalize():f} {node.unit}".rstrip()
    return f"{said}."


def _render_node_detail(
    request: HttpRequest, access: PlanAccess, node: StructureNode, **forms: Any
) -> HttpResponse:
    plan = access.plan
    attachments, attachment_count = selectors.attachments_shown(node=node)
    search_form = CodeSearchForm(request.GET or None)
    query = search_form.cleaned_data["q"] if search_form.is_bound and search_form.is_valid() else ""
    return render(
        request,
        "planning/node_detail.html",
        {
            "access": access,
            "plan": plan,
            "node": node,
            "can_edit": access.can_edit,
            "ancestors": node_ancestors(plan=plan, nodes=[node]).get(node.pk, []),
            "code_reference": _code_reference(plan, node),
            # As in the tree: the first 200 in natural order of their names.
            "children": (tree_children(plan=plan, node_id=node.pk) or ([], 0))[0],
            "rename_form": forms.get("rename_form")
            or NodeRenameForm(prefix="rename", initial={"name": node.name}),
            "details_form": forms.get("details_form")
            or NodeDetailsForm(
                prefix="details",
                initial={
                    "kind": node.kind,
                    "quantity": node.quantity,
                    "unit": node.unit,
                    "install_year": node.install_year,
                },
            ),
            "building_form": forms.get("building_form")
            or NodeBuildingForm(prefix="building", instance=node),
            "condition_form": forms.get("condition_form")
            or NodeConditionForm(prefix="condition", instance=node),
            "key_figures": building_key_figures(node=node, year=timezone.localdate().year)
            if node.kind == NodeKind.BUILDING
            else None,
            "condition": building_condition(node=node, year=timezone.localdate().year),
            "move_form": forms.get("move_form") or NodeMoveForm(prefix="move", node=node),
            "child_form": forms.get("child_form")
            or NodeCreateForm(prefix="child", initial={"kind": _child_kind(node)}),
            "code_form": forms.get("code_form") or CodeAssignForm(prefix="code"),
            "search_form": search_form,
            "query": query,
            # The catalog is searched on request, not listed on every visit.
            "search_results": list(
                selectors.code_search(organisation_id=plan.organisation_id, query=query)
            )
            if query
            else [],
            "history": entity_history(plan=plan, entity_id=node.pk),
            "own_actions": list(
                node.actions.select_related("project").order_by("planned_year", "title", "id")[
                    :NODE_ACTIONS_SHOWN
                ]
            ),
            "own_action_count": node.actions.count(),
            "suggestions": list(
                suggestions_open_queryset(plan=plan).filter(structure_node=node)[
                    :NODE_SUGGESTIONS_SHOWN
                ]
            ),
            "actions_url": actions_url(access.plan, node=node.pk),
            "surveys": selectors.node_surveys(node=node, limit=NODE_SURVEYS_SHOWN)
            if node.kind == NodeKind.COMPONENT
            else [],
            "survey_form": forms.get("survey_form") or SurveyForm(prefix="survey"),
            "attachments": attachments,
            "attachment_count": attachment_count,
            "upload_form": AttachmentUploadForm(),
            "upload_url": reverse("planning:node_attachment_upload", args=[plan.number, node.pk]),
        },
    )


def _child_kind(node: StructureNode) -> str:
    order = ["site", "building", "system", "component"]
    return order[min(order.index(node.kind) + 1, len(order) - 1)] if node.kind in order else ""


@plan_member_required()
@require_http_methods(["GET"])
def node_detail(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    return _render_node_detail(request, access, node)


@plan_member_required(edit=True)
@require_POST
def node_rename(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    form = NodeRenameForm(request.POST, prefix="rename")
    if form_submit(form, lambda data: services.node_rename(node=node, **data)):
        messages.success(request, f"Renamed to “{node.name}”.")
        return redirect(_node_url(node))
    node.refresh_from_db()
    return _render_node_detail(request, access, node, rename_form=form)


@plan_member_required(edit=True)
@require_POST
def node_details(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    form = NodeDetailsForm(request.POST, prefix="details")
    if form_submit(form, lambda data: services.node_details_update(node=node, **data)):
        messages.success(request, f"Details of “{node.name}” saved.")
        return redirect(_node_url(node))
    node.refresh_from_db()
    return _render_node_detail(request, access, node, details_form=form)


@plan_member_required(edit=True)
@require_POST
def node_building(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    form = NodeBuildingForm(request.POST, prefix="building")
    if form_submit(form, lambda data: services.node_building_update(node=node, **data)):
        messages.success(request, f"Building data of “{node.name}” saved.")
        return redirect(_node_url(node))
    node.refresh_from_db()
    return _render_node_detail(request, access, node, building_form=form)


@plan_member_required(edit=True)
@require_POST
def node_condition(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    form = NodeConditionForm(request.POST, prefix="condition")
    if form_submit(form, lambda data: services.node_condition_update(node=node, **data)):
        messages.success(request, f"Condition of “{node.name}” saved.")
        return redirect(_node_url(node))
    node.refresh_from_db()
    return _render_node_detail(request, access, node, condition_form=form)


@plan_member_required(edit=True)
@require_POST
def node_survey(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    """Records a survey of the component (kept in its grades over time; the latest is current)."""
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    form = SurveyForm(request.POST, prefix="survey")
    by = request_user(request)
    recorded = form_submit(form, lambda data: survey_record(node=node, by=by, **data))
    if recorded:
        survey = recorded[0]
        current = node.condition_grade == survey.grade and (
            node.condition_assessed_on == survey.assessed_on
        )
        said = "" if current else " It is older than the current grade, which stays."
        messages.success(request, f"Survey of “{node.name}” saved.{said}")
        return redirect(_node_url(node))
    node.refresh_from_db()
    return _render_node_detail(request, access, node, survey_form=form)


@plan_member_required(edit=True)
@require_POST
def node_move(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    plan = access.plan
    node = selectors.node_get(plan=plan, node_id=node_id)
    form = NodeMoveForm(request.POST, prefix="move", node=node)
    if form_submit(form, lambda data: services.node_move(node=node, parent=data["parent"])):
        where = f"under “{node.parent.name}”" if node.parent else "to the top level"
        messages.success(request, f"Moved “{node.name}” {where}.")
        return redirect(_node_url(node))
    return _render_node_detail(request, access, node, move_form=form)


@plan_member_required(edit=True)
@require_POST
def node_child_create(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    parent = selectors.node_get(plan=access.plan, node_id=node_id)
    form = NodeCreateForm(request.POST, prefix="child")
    child = form_submit(
        form, lambda data: services.node_create(plan=access.plan, parent=parent, **data)
    )
    if child:
        messages.success(request, f"Added “{child.name}” under “{parent.name}”.")
        return redirect(_node_url(parent))
    return _render_node_detail(request, access, parent, child_form=form)


@plan_member_required(edit=True)
@require_POST
def node_code_assign(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    form = CodeAssignForm(request.POST, prefix="code")
    if form.is_valid():
        code = selectors.code_get_by_code(
            organisation_id=access.plan.organisation_id, code=form.cleaned_data["code"]
        )
        if code is None:
            form.add_error("code", "No catalog code matches. Search the catalog below.")
        else:
            services.node_code_assign(node=node, code=code)
            messages.success(request, f"Code {code.code} “{code.name}” assigned.")
            return redirect(_node_url(node))
    return _render_node_detail(request, access, node, code_form=form)


@plan_member_required(edit=True)
@require_POST
def node_code_clear(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=access.plan, node_id=node_id)
    services.node_code_clear(node=node)
    messages.success(request, "Code removed.")
    return redirect(_node_url(node))


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def node_delete(request: HttpRequest, access: PlanAccess, node_id: Any) -> HttpResponse:
    """GET asks for confirmation (viewers see it too, without the button); POST deletes."""
    plan = access.plan
    node = selectors.node_get(plan=plan, node_id=node_id)
    if request.method == "POST":
        parent = node.parent
        deleted = services.node_delete(node=node)
        messages.success(request, f"Deleted “{node.name}” and {deleted - 1} node(s) below it.")
        return redirect(_node_url(parent) if parent else plan_url(access.plan))
    subtree = node_subtree_ids(plan=plan, node_id=node.pk)
    return render(
        request,
        "planning/node_delete.html",
        {
            "plan": plan,
            "node": node,
            "can_edit": access.can_edit,
            "descendant_count": len(subtree) - 1,
            "action_count": selectors.action_list(plan=plan, node_id=node.pk).count(),
        },
    )

"""Plan pages: the plan list (create, import), the plan page (structure tree, actions table),
node pages, action editing and members.

Access: every page under /plans/<number>/ starts with `plan_membership_get`, so a plan the user
is not a member of answers 404 exactly like a missing one, for GET and POST alike. A member who
may see but not change the plan (a viewer; an editor on the members page) gets 403 on a POST:
the plan's existence is no secret to them, and 403 says plainly that the change was refused.
Successful POSTs redirect (Post/Redirect/Get); a form with errors is shown again, status 200.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from accounts.models import User
from planning import selectors, services
from planning.forms import (
    ActionFilterForm,
    ActionForm,
    CodeAssignForm,
    CodeSearchForm,
    MemberAddForm,
    MemberRoleForm,
    NodeCreateForm,
    NodeDetailsForm,
    NodeMoveForm,
    NodeRenameForm,
    PlanCreateForm,
    PlanImportForm,
    form_errors_apply,
)
from planning.importers import ImportRejected, plan_import, plan_import_csv
from planning.models import Plan, PlanMembership, PlanRole, StructureNode

PlanView = Callable[..., HttpResponse]

# The actions table is paged: a plan can hold thousands of actions (generate_plan).
ACTIONS_PER_PAGE = 100


def plan_member_required(
    *, edit: bool = False, owner: bool = False
) -> Callable[[PlanView], PlanView]:
    """Resolves `number` to the user's membership (404 for non-members) and refuses a POST by a
    member without the needed rights with 403. The view receives `membership`."""

    def decorate(view: PlanView) -> PlanView:
        @login_required
        @wraps(view)
        def wrapped(request: HttpRequest, number: int, **kwargs: Any) -> HttpResponse:
            membership = selectors.plan_membership_get(user=request.user, number=number)
            if request.method == "POST":
                if owner and membership.role != PlanRole.OWNER:
                    raise PermissionDenied("Only an owner of this plan can change its members.")
                if edit and not membership.can_edit:
                    raise PermissionDenied("You can view this plan but not change it.")
            return view(request, membership, **kwargs)

        return wrapped

    return decorate


def _user(request: HttpRequest) -> User:
    """The logged-in user (every view here is behind login_required)."""
    assert isinstance(request.user, User)
    return request.user


def plan_url(plan: Plan, **params: Any) -> str:
    """The plan page, with the actions table filtered by `params` (empty ones left out)."""
    url = reverse("planning:plan_detail", args=[plan.number])
    query = {key: value for key, value in params.items() if value not in (None, "")}
    return f"{url}?{urlencode(query)}" if query else url


def _node_url(node: StructureNode) -> str:
    return reverse("planning:node_detail", args=[node.plan.number, node.pk])


# --- plan list ------------------------------------------------------------------------------


def _render_plan_list(
    request: HttpRequest,
    *,
    create_form: PlanCreateForm | None = None,
    import_form: PlanImportForm | None = None,
    import_problems: list[Any] | None = None,
) -> HttpResponse:
    return render(
        request,
        "planning/plan_list.html",
        {
            "memberships": selectors.plan_memberships_for_user(user=request.user),
            "create_form": create_form or PlanCreateForm(prefix="create"),
            "import_form": import_form or PlanImportForm(prefix="import"),
            "import_problems": import_problems or [],
        },
    )


@login_required
@require_http_methods(["GET", "POST"])
def plan_list(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _render_plan_list(request)
    form = PlanCreateForm(request.POST, prefix="create")
    if form.is_valid():
        try:
            plan = services.plan_create(
                owner=_user(request),
                name=form.cleaned_data["name"],
                description=form.cleaned_data["description"],
            )
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            messages.success(request, f"Plan #{plan.number} “{plan.name}” created.")
            return redirect("planning:plan_detail", number=plan.number)
    return _render_plan_list(request, create_form=form)


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
                    owner=_user(request), content=upload.read(), filename=upload.name, name=name
                )
            else:
                plan = plan_import_csv(
                    owner=_user(request),
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
            return redirect("planning:plan_detail", number=plan.number)
    return _render_plan_list(request, import_form=form, import_problems=problems)


# --- plan page ------------------------------------------------------------------------------


def _render_plan_detail(
    request: HttpRequest,
    membership: PlanMembership,
    *,
    root_form: NodeCreateForm | None = None,
    action_form: ActionForm | None = None,
) -> HttpResponse:
    plan = membership.plan
    flat_tree = selectors.structure_flat(plan=plan)
    filter_form = ActionFilterForm(request.GET or None, flat_tree=flat_tree)
    node_id = year = None
    if filter_form.is_bound and filter_form.is_valid():
        node_id = filter_form.cleaned_data["node"] or None
        year = filter_form.cleaned_data["year"]
    actions = selectors.action_list(plan=plan, node_id=node_id, year=year)
    actions_page = Paginator(actions, ACTIONS_PER_PAGE).get_page(request.GET.get("page"))
    filters = {key: request.GET[key] for key in ("node", "year") if request.GET.get(key)}
    return render(
        request,
        "planning/plan_detail.html",
        {
            "membership": membership,
            "plan": plan,
            "can_edit": membership.can_edit,
            "is_owner": membership.role == PlanRole.OWNER,
            "tree": flat_tree,
            "node_base_url": reverse("planning:plan_detail", args=[plan.number]) + "nodes/",
            "action_base_url": reverse("planning:plan_detail", args=[plan.number]) + "actions/",
            "node_count": len(flat_tree),
            "filter_form": filter_form,
            "filtered": bool(filters),
            "actions_page": actions_page,
            "actions_total": selectors.action_cost_total(actions=actions),
            "page_query": urlencode(filters),
            "root_form": root_form or NodeCreateForm(prefix="root"),
            "action_form": action_form
            or ActionForm(prefix="action", plan=plan, flat_tree=flat_tree),
        },
    )


@plan_member_required()
@require_http_methods(["GET"])
def plan_detail(request: HttpRequest, membership: PlanMembership) -> HttpResponse:
    return _render_plan_detail(request, membership)


@plan_member_required(edit=True)
@require_POST
def node_root_create(request: HttpRequest, membership: PlanMembership) -> HttpResponse:
    form = NodeCreateForm(request.POST, prefix="root")
    if form.is_valid():
        try:
            node = services.node_create(plan=membership.plan, parent=None, **form.cleaned_data)
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            messages.success(request, f"Added “{node.name}”.")
            return redirect(plan_url(membership.plan))
    return _render_plan_detail(request, membership, root_form=form)


# --- node page ------------------------------------------------------------------------------


def _render_node_detail(
    request: HttpRequest, membership: PlanMembership, node: StructureNode, **forms: Any
) -> HttpResponse:
    plan = membership.plan
    flat_tree = selectors.structure_flat(plan=plan)
    search_form = CodeSearchForm(request.GET or None)
    query = search_form.cleaned_data["q"] if search_form.is_bound and search_form.is_valid() else ""
    return render(
        request,
        "planning/node_detail.html",
        {
            "membership": membership,
            "plan": plan,
            "node": node,
            "can_edit": membership.can_edit,
            "ancestors": selectors.tree_ancestors(flat_tree=flat_tree, node=node),
            "children": [item.node for item in flat_tree if item.node.parent_id == node.pk],
            "subtree_size": selectors.tree_subtree_size(flat_tree=flat_tree, node=node),
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
            "move_form": forms.get("move_form")
            or NodeMoveForm(prefix="move", flat_tree=flat_tree, node=node),
            "child_form": forms.get("child_form")
            or NodeCreateForm(prefix="child", initial={"kind": _child_kind(node)}),
            "code_form": forms.get("code_form") or CodeAssignForm(prefix="code"),
            "search_form": search_form,
            "query": query,
            "search_results": list(selectors.code_search(query=query)),
            "code_options": selectors.code_catalog_options() if membership.can_edit else [],
            "actions_url": plan_url(membership.plan, node=node.pk),
        },
    )


def _child_kind(node: StructureNode) -> str:
    order = ["site", "building", "system", "component"]
    return order[min(order.index(node.kind) + 1, len(order) - 1)] if node.kind in order else ""


@plan_member_required()
@require_http_methods(["GET"])
def node_detail(request: HttpRequest, membership: PlanMembership, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=membership.plan, node_id=node_id)
    return _render_node_detail(request, membership, node)


@plan_member_required(edit=True)
@require_POST
def node_rename(request: HttpRequest, membership: PlanMembership, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=membership.plan, node_id=node_id)
    form = NodeRenameForm(request.POST, prefix="rename")
    if form.is_valid():
        try:
            services.node_rename(node=node, name=form.cleaned_data["name"])
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            messages.success(request, f"Renamed to “{node.name}”.")
            return redirect(_node_url(node))
    node.refresh_from_db()
    return _render_node_detail(request, membership, node, rename_form=form)


@plan_member_required(edit=True)
@require_POST
def node_details(request: HttpRequest, membership: PlanMembership, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=membership.plan, node_id=node_id)
    form = NodeDetailsForm(request.POST, prefix="details")
    if form.is_valid():
        try:
            services.node_details_update(node=node, **form.cleaned_data)
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            messages.success(request, f"Details of “{node.name}” saved.")
            return redirect(_node_url(node))
    node.refresh_from_db()
    return _render_node_detail(request, membership, node, details_form=form)


@plan_member_required(edit=True)
@require_POST
def node_move(request: HttpRequest, membership: PlanMembership, node_id: Any) -> HttpResponse:
    plan = membership.plan
    node = selectors.node_get(plan=plan, node_id=node_id)
    form = NodeMoveForm(
        request.POST, prefix="move", flat_tree=selectors.structure_flat(plan=plan), node=node
    )
    if form.is_valid():
        parent_id = form.cleaned_data["parent"]
        parent = selectors.node_get(plan=plan, node_id=parent_id) if parent_id else None
        try:
            services.node_move(node=node, parent=parent)
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            where = f"under “{parent.name}”" if parent else "to the top level"
            messages.success(request, f"Moved “{node.name}” {where}.")
            return redirect(_node_url(node))
    return _render_node_detail(request, membership, node, move_form=form)


@plan_member_required(edit=True)
@require_POST
def node_child_create(
    request: HttpRequest, membership: PlanMembership, node_id: Any
) -> HttpResponse:
    parent = selectors.node_get(plan=membership.plan, node_id=node_id)
    form = NodeCreateForm(request.POST, prefix="child")
    if form.is_valid():
        try:
            child = services.node_create(plan=membership.plan, parent=parent, **form.cleaned_data)
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            messages.success(request, f"Added “{child.name}” under “{parent.name}”.")
            return redirect(_node_url(parent))
    return _render_node_detail(request, membership, parent, child_form=form)


@plan_member_required(edit=True)
@require_POST
def node_code_assign(
    request: HttpRequest, membership: PlanMembership, node_id: Any
) -> HttpResponse:
    node = selectors.node_get(plan=membership.plan, node_id=node_id)
    form = CodeAssignForm(request.POST, prefix="code")
    if form.is_valid():
        code = selectors.code_get_by_code(code=form.cleaned_data["code"])
        if code is None:
            form.add_error("code", "No catalog code matches. Search the catalog below.")
        else:
            services.node_code_assign(node=node, code=code)
            messages.success(request, f"Code {code.code} “{code.name}” assigned.")
            return redirect(_node_url(node))
    return _render_node_detail(request, membership, node, code_form=form)


@plan_member_required(edit=True)
@require_POST
def node_code_clear(request: HttpRequest, membership: PlanMembership, node_id: Any) -> HttpResponse:
    node = selectors.node_get(plan=membership.plan, node_id=node_id)
    services.node_code_clear(node=node)
    messages.success(request, "Code removed.")
    return redirect(_node_url(node))


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def node_delete(request: HttpRequest, membership: PlanMembership, node_id: Any) -> HttpResponse:
    """GET asks for confirmation (viewers see it too, without the button); POST deletes."""
    plan = membership.plan
    node = selectors.node_get(plan=plan, node_id=node_id)
    if request.method == "POST":
        parent = node.parent
        deleted = services.node_delete(node=node)
        messages.success(request, f"Deleted “{node.name}” and {deleted - 1} node(s) below it.")
        return redirect(_node_url(parent) if parent else plan_url(membership.plan))
    subtree = selectors.node_subtree_ids(plan=plan, node_id=node.pk)
    return render(
        request,
        "planning/node_delete.html",
        {
            "plan": plan,
            "node": node,
            "can_edit": membership.can_edit,
            "descendant_count": len(subtree) - 1,
            "action_count": selectors.action_list(plan=plan, node_id=node.pk).count(),
        },
    )


# --- actions --------------------------------------------------------------------------------


def _action_values(form: ActionForm) -> dict[str, Any]:
    return {
        name: form.cleaned_data[name]
        for name in ("node", "title", "kind", "planned_year", "estimated_cost", "project")
    }


@plan_member_required(edit=True)
@require_POST
def action_create(request: HttpRequest, membership: PlanMembership) -> HttpResponse:
    plan = membership.plan
    form = ActionForm(
        request.POST, prefix="action", plan=plan, flat_tree=selectors.structure_flat(plan=plan)
    )
    if form.is_valid():
        try:
            action = services.action_create(plan=plan, **_action_values(form))
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            messages.success(request, f"Action “{action.title}” added for {action.planned_year}.")
            return redirect(plan_url(membership.plan) + "#actions")
    return _render_plan_detail(request, membership, action_form=form)


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def action_edit(request: HttpRequest, membership: PlanMembership, action_id: Any) -> HttpResponse:
    plan = membership.plan
    action = selectors.action_get(plan=plan, action_id=action_id)
    flat_tree = selectors.structure_flat(plan=plan)
    if request.method == "POST":
        form = ActionForm(request.POST, prefix="action", plan=plan, flat_tree=flat_tree)
        if form.is_valid():
            try:
                services.action_update(action=action, **_action_values(form))
            except ValidationError as error:
                form_errors_apply(form, error)
            else:
                messages.success(request, f"Action “{action.title}” saved.")
                return redirect(plan_url(membership.plan) + "#actions")
    else:
        form = ActionForm(
            prefix="action",
            plan=plan,
            flat_tree=flat_tree,
            initial={
                "node": str(action.node_id),
                "title": action.title,
                "kind": action.kind,
                "planned_year": action.planned_year,
                "estimated_cost": action.estimated_cost,
                "project": str(action.project_id) if action.project_id else "",
            },
        )
    return render(
        request,
        "planning/action_edit.html",
        {"plan": plan, "action": action, "form": form, "can_edit": membership.can_edit},
    )


@plan_member_required(edit=True)
@require_POST
def action_cancel(request: HttpRequest, membership: PlanMembership, action_id: Any) -> HttpResponse:
    action = selectors.action_get(plan=membership.plan, action_id=action_id)
    services.action_cancel(action=action)
    messages.success(request, f"Action “{action.title}” cancelled.")
    return redirect(plan_url(membership.plan) + "#actions")


@plan_member_required(edit=True)
@require_POST
def action_done(request: HttpRequest, membership: PlanMembership, action_id: Any) -> HttpResponse:
    action = selectors.action_get(plan=membership.plan, action_id=action_id)
    services.action_mark_done(action=action)
    messages.success(request, f"Action “{action.title}” marked done.")
    return redirect(plan_url(membership.plan) + "#actions")


# --- members --------------------------------------------------------------------------------


def _render_members(
    request: HttpRequest,
    membership: PlanMembership,
    *,
    add_form: MemberAddForm | None = None,
    role_errors: dict[int, list[str]] | None = None,
) -> HttpResponse:
    members = list(selectors.plan_members(plan=membership.plan))
    return render(
        request,
        "planning/members.html",
        {
            "plan": membership.plan,
            "membership": membership,
            "is_owner": membership.role == PlanRole.OWNER,
            "rows": [
                (member, MemberRoleForm(prefix=f"m{member.pk}", initial={"role": member.role}))
                for member in members
            ],
            "role_errors": role_errors or {},
            "add_form": add_form or MemberAddForm(prefix="add"),
        },
    )


@plan_member_required(owner=True)
@require_http_methods(["GET", "POST"])
def members(request: HttpRequest, membership: PlanMembership) -> HttpResponse:
    if request.method != "POST":
        return _render_members(request, membership)
    form = MemberAddForm(request.POST, prefix="add")
    if form.is_valid():
        try:
            added = services.membership_add(plan=membership.plan, **form.cleaned_data)
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            messages.success(request, f"{added.user.email} added as {added.get_role_display()}.")
            return redirect("planning:members", number=membership.plan.number)
    return _render_members(request, membership, add_form=form)


@plan_member_required(owner=True)
@require_POST
def member_role_set(
    request: HttpRequest, membership: PlanMembership, membership_id: int
) -> HttpResponse:
    target = selectors.plan_membership_by_id(plan=membership.plan, membership_id=membership_id)
    form = MemberRoleForm(request.POST, prefix=f"m{target.pk}")
    if form.is_valid():
        try:
            services.membership_role_set(membership=target, role=form.cleaned_data["role"])
        except ValidationError as error:
            form_errors_apply(form, error)
        else:
            messages.success(request, f"{target.user.email} is now {target.get_role_display()}.")
            return redirect("planning:members", number=membership.plan.number)
    errors = [str(message) for messages_ in form.errors.values() for message in messages_]
    return _render_members(request, membership, role_errors={target.pk: errors})


@plan_member_required(owner=True)
@require_POST
def member_remove(
    request: HttpRequest, membership: PlanMembership, membership_id: int
) -> HttpResponse:
    target = selectors.plan_membership_by_id(plan=membership.plan, membership_id=membership_id)
    try:
        services.membership_remove(membership=target)
    except ValidationError as error:
        return _render_members(request, membership, role_errors={target.pk: error.messages})
    messages.success(request, f"{target.user.email} removed from the plan.")
    if target.pk == membership.pk:  # an owner who left no longer sees the plan
        return redirect("planning:plan_list")
    return redirect("planning:members", number=membership.plan.number)

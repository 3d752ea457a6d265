"""The plan list and the plan page, rendered by more than one view module: their own GET views
and the POST views of the forms they hold, which show them again when a form has errors."""

from __future__ import annotations

from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from planning import selectors
from planning.forms import (
    ActionFilterForm,
    ActionForm,
    NodeCreateForm,
    PlanCreateForm,
    PlanImportForm,
)
from planning.models import PlanMembership, PlanRole

# The actions table is paged: a plan can hold thousands of actions (generate_plan).
ACTIONS_PER_PAGE = 100


def plan_list_render(
    request: HttpRequest,
    *,
    create_form: PlanCreateForm | None = None,
    import_form: PlanImportForm | None = None,
) -> HttpResponse:
    return render(
        request,
        "planning/plan_list.html",
        {
            "memberships": selectors.plan_memberships_for_user(user=request.user),
            "create_form": create_form or PlanCreateForm(prefix="create"),
            "import_form": import_form or PlanImportForm(prefix="import"),
        },
    )


def plan_detail_render(
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

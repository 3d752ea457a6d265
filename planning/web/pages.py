"""The plan list and the plan's tab pages, rendered by more than one view module of
planning.web.views: their own GET views and the POST views of the forms they hold, which show
them again when a form has errors. Not a view module: views import it."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone

from organisations.current import current_membership
from planning.core.access import PlanAccess, plan_access_from
from planning.figures.prices import plan_markups, year_span
from planning.figures.totals import chosen_years, planned_total
from planning.models import (
    CONDITION_FILTERS,
    EARLIEST_DATE,
    planned_year_first,
    planned_year_last,
    today,
)
from planning.plans import selectors
from planning.plans.action_filters import action_rows, actions_filtered
from planning.tree.selectors import node_search, tree_overview
from planning.web.access import request_user
from planning.web.bulk import BULK_MAX
from planning.web.forms.actions import (
    CONDITION_CHOICES,
    ActionFilterForm,
    ActionForm,
    bulk_project_choices,
)
from planning.web.forms.nodes import NodeCreateForm
from planning.web.forms.plans import (
    PlanCreateForm,
    PlanDeleteForm,
    PlanImportForm,
    PlanMoneyForm,
    PlanSettingsForm,
)

# The actions list is paged: a plan can hold 100,000 actions.
ACTIONS_PER_PAGE = 50


PLANS_PER_PAGE = 50


def plan_list_render(
    request: HttpRequest,
    *,
    create_form: PlanCreateForm | None = None,
    import_form: PlanImportForm | None = None,
    status: int = 200,
) -> HttpResponse:
    """The plans of the organisation in view (organisations.current), in natural order, paged,
    and below them the plans of other organisations shared with the user as a guest."""
    current = current_membership(request)
    year = timezone.now().year
    visible = selectors.plans_visible(user=request.user)
    own_ids = (
        selectors.plan_ids_in_natural_order(visible.filter(organisation=current.organisation))
        if current is not None
        else []
    )
    page = Paginator(own_ids, PLANS_PER_PAGE).get_page(request.GET.get("page"))
    shared = visible.filter(memberships__user=request_user(request))
    if current is not None:
        shared = shared.exclude(organisation=current.organisation)
    shared_ids = selectors.plan_ids_in_natural_order(shared)[:PLANS_PER_PAGE]

    def rows(plan_ids: list[Any]) -> list[tuple[Any, PlanAccess | None]]:
        plans = selectors.plan_list_rows(user=request.user, plan_ids=plan_ids, year=year)
        return [
            (plan, plan_access_from(plan, plan.organisation_role, plan.grant_role))  # type: ignore[attr-defined]
            for plan in plans
        ]

    return render(
        request,
        "planning/plan_list.html",
        {
            "current": current,
            "plans_page": page,
            "rows": rows(list(page.object_list)),
            "shared_rows": rows(shared_ids),
            "year": year,
            "page_query": f"org={current.organisation.slug}" if current is not None else "",
            "create_form": create_form or PlanCreateForm(prefix="create"),
            "import_form": import_form
            or PlanImportForm(
                prefix="import",
                organisation=current.organisation if current is not None else None,
            ),
        },
        status=status,
    )


def plan_tab_context(access: PlanAccess, tab: str) -> dict[str, Any]:
    """What every tab of a plan shows around its content (planning/_plan_header.html)."""
    return {
        "access": access,
        "plan": access.plan,
        "can_edit": access.can_edit,
        "is_owner": access.can_manage,
        "tab": tab,
    }


def plan_detail_render(
    request: HttpRequest, access: PlanAccess, *, root_form: NodeCreateForm | None = None
) -> HttpResponse:
    """The Structure tab: the tree opened down to the buildings, or the matches of a search by
    name or code and condition (an unknown condition is left out)."""
    plan = access.plan
    query = request.GET.get("q", "").strip()[:200]
    condition = request.GET.get("condition", "")
    condition = condition if condition in CONDITION_FILTERS else ""
    context = plan_tab_context(access, "structure")
    context.update({"conditions": CONDITION_CHOICES, "condition": condition})
    if query or condition:
        matches, more = node_search(plan=plan, query=query, condition=condition)
        context.update({"query": query, "matches": matches, "more_matches": more})
    else:
        context["overview"] = tree_overview(plan=plan)
    context["root_form"] = root_form or NodeCreateForm(prefix="root")
    return render(request, "planning/plan_detail.html", context)


def _sort_links(filters: dict[str, str], current: str) -> dict[str, dict[str, str]]:
    """Per column: the query that sorts by it (ascending, or descending when it already sorts
    ascending) and the aria-sort value of its header."""
    links: dict[str, dict[str, str]] = {}
    active, descending = current.lstrip("-"), current.startswith("-")
    for column in ("year", "title", "node", "kind", "cost", "status", "project"):
        flip = column == active and not descending
        query = urlencode({**filters, "sort": f"-{column}" if flip else column})
        state = "none"
        if column == active:
            state = "descending" if descending else "ascending"
        links[column] = {"query": query, "aria": state}
    return links


def plan_actions_render(
    request: HttpRequest, access: PlanAccess, *, action_form: ActionForm | None = None
) -> HttpResponse:
    """The Actions tab: search, filters, sortable columns, pages, and the add form."""
    plan = access.plan
    filter_form = ActionFilterForm(request.GET or None, plan=plan)
    filters = filter_form.filters()
    actions = actions_filtered(plan=plan, filters=filters)
    page = Paginator(actions, ACTIONS_PER_PAGE).get_page(request.GET.get("page"))
    kept = {
        key: request.GET[key]
        for key in filter_form.fields
        if key != "sort" and request.GET.get(key) and key not in filter_form.errors
    }
    sort = request.GET.get("sort", "") if "sort" not in filter_form.errors else ""
    total_years = chosen_years(
        year_from=filters.year_from, year_to=filters.year_to, year=timezone.localdate().year
    )
    context = plan_tab_context(access, "actions")
    context.update(
        {
            "filter_form": filter_form,
            "filtered": bool(kept),
            "actions_page": page,
            "rows": action_rows(plan=plan, actions=list(page.object_list)),
            "actions_total": planned_total(
                actions=actions, year_from=total_years[0], year_to=total_years[1]
            ),
            "actions_total_years": year_span(*total_years),
            "page_query": urlencode({**kept, **({"sort": sort} if sort else {})}),
            "sort_links": _sort_links(kept, sort or "year"),
            "action_form": action_form or ActionForm(prefix="action", plan=plan),
            "next_url": request.get_full_path(),
            # Mark done's date input: the Completion's bounds (planning.models.fields).
            "today": today(),
            "earliest_date": EARLIEST_DATE,
            # A change of every match sends the list's filters along (planning.web.bulk).
            "bulk_filters": list(kept.items()),
            "bulk_max": BULK_MAX,
            "bulk_projects": bulk_project_choices(plan) if access.can_edit else [],
            "planned_years": (planned_year_first(), planned_year_last()),
        }
    )
    return render(request, "planning/plan_actions.html", context)


def plan_settings_render(
    request: HttpRequest,
    access: PlanAccess,
    *,
    settings_form: PlanSettingsForm | None = None,
    money_form: PlanMoneyForm | None = None,
    delete_form: PlanDeleteForm | None = None,
) -> HttpResponse:
    plan = access.plan
    context = plan_tab_context(access, "settings")
    context.update(
        {
            "settings_form": settings_form
            or PlanSettingsForm(
                prefix="plan",
                initial={
                    "name": plan.name,
                    "description": plan.description,
                    "currency": plan.currency,
                },
            ),
            "money_form": money_form or PlanMoneyForm(prefix="money", instance=plan),
            "markups": plan_markups(plan),
            "delete_form": delete_form or PlanDeleteForm(prefix="delete", plan=plan),
        }
    )
    return render(request, "planning/plan_settings.html", context)

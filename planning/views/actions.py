"""Actions: adding one from the plan page, editing, cancelling and marking one done."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from planning import selectors, services
from planning.access import plan_member_required, plan_url
from planning.forms import ActionForm, form_submit
from planning.models import PlanMembership
from planning.views._pages import plan_detail_render


@plan_member_required(edit=True)
@require_POST
def action_create(request: HttpRequest, membership: PlanMembership) -> HttpResponse:
    plan = membership.plan
    form = ActionForm(
        request.POST, prefix="action", plan=plan, flat_tree=selectors.structure_flat(plan=plan)
    )
    action = form_submit(form, lambda data: services.action_create(plan=plan, **data))
    if action:
        messages.success(request, f"Action “{action.title}” added for {action.planned_year}.")
        return redirect(plan_url(membership.plan) + "#actions")
    return plan_detail_render(request, membership, action_form=form)


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def action_edit(request: HttpRequest, membership: PlanMembership, action_id: Any) -> HttpResponse:
    plan = membership.plan
    action = selectors.action_get(plan=plan, action_id=action_id)
    flat_tree = selectors.structure_flat(plan=plan)
    if request.method == "POST":
        form = ActionForm(request.POST, prefix="action", plan=plan, flat_tree=flat_tree)
        if form_submit(form, lambda data: services.action_update(action=action, **data)):
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

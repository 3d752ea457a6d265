"""The plan list (with the create form) and the plan page."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods

from planning import services
from planning.access import plan_member_required, request_user
from planning.forms import PlanCreateForm, form_submit
from planning.models import PlanMembership
from planning.views._pages import plan_detail_render, plan_list_render


@login_required
@require_http_methods(["GET", "POST"])
def plan_list(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return plan_list_render(request)
    form = PlanCreateForm(request.POST, prefix="create")
    plan = form_submit(form, lambda data: services.plan_create(owner=request_user(request), **data))
    if plan:
        messages.success(request, f"Plan #{plan.number} “{plan.name}” created.")
        return redirect("planning:plan_detail", number=plan.number)
    return plan_list_render(request, create_form=form)


@plan_member_required()
@require_http_methods(["GET"])
def plan_detail(request: HttpRequest, membership: PlanMembership) -> HttpResponse:
    return plan_detail_render(request, membership)

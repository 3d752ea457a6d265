"""The plan list (with the create form), the plan page (its Structure tab) and the plan's
settings: name, description, currency, its prices (index, markups, annual budget), and deleting
it (owners only, confirmed by typing the plan's name)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_http_methods, require_POST

from organisations.current import current_membership
from planning.core.access import PlanAccess
from planning.plans.services import plans as services
from planning.web.access import plan_member_required, request_user
from planning.web.forms.fields import form_submit
from planning.web.forms.plans import PlanCreateForm, PlanDeleteForm, PlanMoneyForm, PlanSettingsForm
from planning.web.pages import plan_detail_render, plan_list_render, plan_settings_render


@login_required
@require_http_methods(["GET", "POST"])
def plan_list(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return plan_list_render(request)
    form = PlanCreateForm(request.POST, prefix="create")
    current = current_membership(request)
    plan = form_submit(
        form,
        lambda data: services.plan_create(
            owner=request_user(request),
            organisation=current.organisation if current is not None else None,
            **data,
        ),
    )
    if plan:
        messages.success(request, f"Plan #{plan.number} “{plan.name}” created.")
        return redirect("planning:plan_detail", number=plan.number)
    return plan_list_render(request, create_form=form)


@plan_member_required()
@require_http_methods(["GET"])
def plan_detail(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    return plan_detail_render(request, access)


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def plan_settings(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """Viewers see the settings read-only; editors and owners change them."""
    if request.method != "POST":
        return plan_settings_render(request, access)
    form = PlanSettingsForm(request.POST, prefix="plan")
    if form_submit(form, lambda data: services.plan_update(plan=access.plan, **data)):
        messages.success(request, "Plan settings saved.")
        return redirect("planning:plan_settings", number=access.plan.number)
    access.plan.refresh_from_db()
    return plan_settings_render(request, access, settings_form=form)


@plan_member_required(edit=True)
@require_POST
def plan_money(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """The plan's prices: price base year, index rate, overhead, VAT, annual budget."""
    form = PlanMoneyForm(request.POST, prefix="money")
    if form_submit(form, lambda data: services.plan_money_update(plan=access.plan, **data)):
        messages.success(request, "Prices and budget saved.")
        return redirect("planning:plan_settings", number=access.plan.number)
    access.plan.refresh_from_db()
    return plan_settings_render(request, access, money_form=form)


@plan_member_required(owner=True)
@require_POST
def plan_delete(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    plan = access.plan
    form = PlanDeleteForm(request.POST, prefix="delete", plan=plan)
    if not form.is_valid():
        return plan_settings_render(request, access, delete_form=form)
    number, name = plan.number, plan.name
    services.plan_delete(plan=plan)
    messages.success(request, f"Plan #{number} “{name}” deleted.")
    return redirect("planning:plan_list")

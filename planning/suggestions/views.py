"""The action-planning view (/plans/<number>/planning/) and its Apply and Dismiss actions.

The page runs the same sync as the integrator endpoint, so what it lists is what the API
lists. Viewers see everything but get no buttons, and a POST from them is refused with 403
(`plan_member_required(edit=True)`), like every other change of a plan.
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from planning.access import plan_member_required, plan_url
from planning.models import Code, Plan, PlanMembership, Suggestion, SuggestionType
from planning.suggestions.forms import ApplyCodeForm, DismissForm
from planning.suggestions.selectors import (
    SuggestionPayload,
    codes_by_id,
    planning_grid,
    suggestion_get,
    suggestion_payload,
    suggestions_open_queryset,
)
from planning.suggestions.services import (
    suggestion_apply_code,
    suggestion_apply_project,
    suggestion_dismiss,
)
from planning.suggestions.sync import suggestion_sync

SUGGESTIONS_PER_PAGE = 50


def _planning_url(plan: Plan) -> str:
    return reverse("planning:action_planning", args=[plan.number])


def review_url(plan: Plan, recommended: dict[str, Any]) -> str:
    """The plan page's actions table filtered to the node and year of a deviation."""
    hint = recommended.get("filter", {})
    return plan_url(plan, node=hint.get("structure_node_id"), year=hint.get("year"))


def _prefill_codes(recommended: dict[str, Any], codes: dict[str, Code]) -> list[Code]:
    return [codes[i] for i in recommended.get("prefill_code_ids", []) if i in codes]


def _card(
    suggestion: SuggestionPayload, *, plan: Plan, codes: dict[str, Code], nodes: dict[str, Any]
) -> dict[str, Any]:
    suggestion_id = suggestion["id"]
    suggestion_type = suggestion["suggestion_type"]
    auto_id = f"id_%s_{suggestion_id.replace('-', '')}"
    recommended = suggestion["recommended_action_json"]
    card: dict[str, Any] = {
        "suggestion": suggestion,
        "type_label": SuggestionType(suggestion_type).label,
        "node": nodes.get(suggestion["structure_node_id"]),
        "apply_url": reverse("planning:suggestion_apply", args=[plan.number, suggestion_id]),
        "dismiss_url": reverse("planning:suggestion_dismiss", args=[plan.number, suggestion_id]),
        "dismiss_form": DismissForm(auto_id=auto_id),
    }
    if suggestion_type == SuggestionType.MISSING_CODE:
        prefill = _prefill_codes(recommended, codes)
        card["apply_form"] = ApplyCodeForm(codes=prefill, auto_id=auto_id) if prefill else None
    elif suggestion_type == SuggestionType.DEVIATION:
        card["review_url"] = review_url(plan, recommended)
    return card


@plan_member_required()
@require_http_methods(["GET"])
def action_planning(request: HttpRequest, membership: PlanMembership) -> HttpResponse:
    plan = membership.plan
    suggestion_sync(plan=plan)
    grid = planning_grid(plan=plan)
    # A big plan has thousands of open suggestions: the page shows them a page at a time, in
    # the API's order.
    page = Paginator(suggestions_open_queryset(plan=plan), SUGGESTIONS_PER_PAGE).get_page(
        request.GET.get("page")
    )
    shown = [suggestion_payload(s) for s in page]
    code_ids = {
        code_id
        for s in shown
        for code_id in s["recommended_action_json"].get("prefill_code_ids", [])
    }
    codes = codes_by_id(code_ids=code_ids)
    cards = [_card(s, plan=plan, codes=codes, nodes=grid.nodes_by_id) for s in shown]
    return render(
        request,
        "planning/action_planning.html",
        {
            "plan": plan,
            "membership": membership,
            "can_edit": membership.can_edit,
            "grid": grid,
            "cards": cards,
            "page": page,
            "open_count": page.paginator.count,
        },
    )


@plan_member_required(edit=True)
@require_POST
def suggestion_apply(
    request: HttpRequest, membership: PlanMembership, suggestion_id: UUID
) -> HttpResponse:
    plan = membership.plan
    suggestion: Suggestion = suggestion_get(plan=plan, suggestion_id=suggestion_id)
    try:
        if suggestion.suggestion_type == SuggestionType.MISSING_CODE:
            recommended = suggestion.recommended_action_json
            codes = codes_by_id(code_ids=set(recommended.get("prefill_code_ids", [])))
            form = ApplyCodeForm(request.POST, codes=_prefill_codes(recommended, codes))
            if not form.is_valid():
                raise ValidationError("Choose one of the proposed codes.")
            suggestion_apply_code(suggestion=suggestion, code_id=form.cleaned_data["code"])
            messages.success(request, f"Code assigned: {suggestion.title}.")
        elif suggestion.suggestion_type == SuggestionType.PROJECT_GROUPING:
            _, project = suggestion_apply_project(suggestion=suggestion)
            messages.success(request, f"Project “{project.name}” created.")
        else:
            # A deviation is applied by reviewing the action: open the filtered actions.
            return redirect(review_url(plan, suggestion.recommended_action_json))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(_planning_url(plan))


@plan_member_required(edit=True)
@require_POST
def suggestion_dismiss_view(
    request: HttpRequest, membership: PlanMembership, suggestion_id: UUID
) -> HttpResponse:
    plan = membership.plan
    suggestion = suggestion_get(plan=plan, suggestion_id=suggestion_id)
    form = DismissForm(request.POST)
    if not form.is_valid():
        errors = "; ".join(f"{name}: {' '.join(map(str, e))}" for name, e in form.errors.items())
        messages.error(request, f"Not dismissed. {errors}")
        return redirect(_planning_url(plan))
    try:
        suggestion_dismiss(
            suggestion=suggestion,
            user=request.user,
            reason=form.cleaned_data["reason"],
            comment=form.cleaned_data["comment"],
        )
        messages.success(request, f"Dismissed: {suggestion.title}.")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(_planning_url(plan))

"""The suggestions' actions of the action-planning page: Apply (and its Undo), Dismiss one or
many (the ticked ones or every match, with its Undo), Restore, and the Dismissed list
(docs/subsystems/web-app.md). Each POST returns to the card's `next` (the page's address,
checked by planning.web.access.next_url) with its confirmation above the card that took the
suggestion's place (planning.web.confirmation); a POST from a viewer is 403. The page itself is
planning.web.views.action_planning.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from planning.core.access import PlanAccess
from planning.core.money import money_format
from planning.models import Suggestion, SuggestionStatus, SuggestionType
from planning.suggestions.selectors import (
    actions_named,
    codes_by_id,
    suggestion_get,
    suggestions_open_queryset,
)
from planning.suggestions.services.apply import (
    deviation_fix,
    moved_text,
    suggestion_apply_code,
    suggestion_apply_cost,
    suggestion_apply_due_year,
    suggestion_apply_move,
    suggestion_apply_project,
    suggestion_apply_repair,
)
from planning.suggestions.services.dismissal import (
    suggestion_restore,
    suggestions_dismiss,
    suggestions_dismissal_undo,
)
from planning.suggestions.services.undo import suggestion_apply_undo
from planning.web.access import plan_member_required
from planning.web.bulk import form_problems, matching_ids
from planning.web.confirmation import confirmation_redirect
from planning.web.forms.suggestions import (
    ApplyCodeForm,
    BulkDismissForm,
    DismissForm,
    PlanningViewForm,
)
from planning.web.pages import plan_tab_context
from planning.web.suggestion_cards import prefill_codes

DISMISSED_PER_PAGE = 50


def _due_said(suggestion: Suggestion) -> str:
    """Why a timing fix moves to its year: the year it is due, or the earliest year left."""
    due = suggestion.recommended_action_json.get("reference", {}).get("due_year")
    fix = deviation_fix(suggestion)
    if fix is None or fix[1] == due:
        return "the year it is due"
    return f"the earliest year left (it was due in {due})"


def _apply(request: HttpRequest, suggestion: Suggestion) -> tuple[str, Any]:
    """Applies the suggestion as the card's button asks; the message to show and what its Undo
    needs (the value a fix replaced, the code assigned, the project created)."""
    if suggestion.suggestion_type == SuggestionType.MISSING_CODE:
        recommended = suggestion.recommended_action_json
        codes = codes_by_id(code_ids=set(recommended.get("prefill_code_ids", [])))
        form = ApplyCodeForm(request.POST, codes=prefill_codes(recommended, codes))
        if not form.is_valid():
            raise ValidationError("Choose one of the proposed codes.")
        code_id = form.cleaned_data["code"]
        suggestion_apply_code(suggestion=suggestion, code_id=code_id)
        return f"Code assigned: {suggestion.title}.", str(code_id)
    plan = suggestion.plan
    if suggestion.suggestion_type == SuggestionType.PROJECT_GROUPING:
        _, project = suggestion_apply_project(suggestion=suggestion)
        named = actions_named(plan=plan, actions=project.actions.select_related("node"))
        return f"Project “{project.name}” created with {named}.", str(project.pk)
    if suggestion.suggestion_type == SuggestionType.CONDITION:
        _, action = suggestion_apply_repair(suggestion=suggestion)
        cost = money_format(action.estimated_cost, plan.currency)
        named = actions_named(plan=plan, actions=[action])
        return f"{named} planned for {action.planned_year} ({cost}).", str(action.pk)
    if suggestion.suggestion_type == SuggestionType.BUDGET_PEAK:
        _, moved = suggestion_apply_move(suggestion=suggestion)
        recommended = suggestion.recommended_action_json
        year, target = recommended["year"], recommended["target_year"]
        return (
            f"{moved_text(plan=plan, actions=moved, year=target)}.",
            {
                "year": year,
                "target_year": target,
                "action_ids": [str(action.pk) for action in moved],
            },
        )
    fix = request.POST.get("fix")
    if fix == "cost":
        _, action, cost_before = suggestion_apply_cost(suggestion=suggestion)
        cost = money_format(action.estimated_cost, plan.currency)
        named = actions_named(plan=plan, actions=[action])
        return f"{named} now costs {cost}, the reference.", str(cost_before)
    if fix == "year":
        _, action, year_before = suggestion_apply_due_year(suggestion=suggestion)
        named = actions_named(plan=plan, actions=[action])
        return f"{named} moved to {action.planned_year}, {_due_said(suggestion)}.", year_before
    raise ValidationError("Choose a fix: set the cost to the reference, or move to the due year.")


@plan_member_required(edit=True)
@require_POST
def suggestion_apply(request: HttpRequest, access: PlanAccess, suggestion_id: UUID) -> HttpResponse:
    plan = access.plan
    suggestion = suggestion_get(plan=plan, suggestion_id=suggestion_id)
    try:
        text, before = _apply(request, suggestion)
    except ValidationError as error:
        return confirmation_redirect(request, plan, " ".join(error.messages), error=True)
    undo = reverse("planning:suggestion_fix_undo", args=[plan.number, suggestion.pk])
    return confirmation_redirect(request, plan, text, undo=undo, undo_before=before)


@plan_member_required(edit=True)
@require_POST
def suggestion_fix_undo_view(
    request: HttpRequest, access: PlanAccess, suggestion_id: UUID
) -> HttpResponse:
    """The Undo of an apply (a fix, a code, a project): what the apply changed (kept in the
    session by it, for this suggestion only) goes back, and the suggestion is open again."""
    plan = access.plan
    suggestion = suggestion_get(plan=plan, suggestion_id=suggestion_id)
    kept = request.session.get("undo") or {}
    if kept.get("url") != request.path or kept.get("before") is None:
        return confirmation_redirect(request, plan, "There is nothing to undo.", error=True)
    try:
        _, text = suggestion_apply_undo(suggestion=suggestion, before=kept["before"])
    except ValidationError as error:
        return confirmation_redirect(request, plan, " ".join(error.messages), error=True)
    del request.session["undo"]
    return confirmation_redirect(request, plan, text, near=f"suggestion-{suggestion.pk}")


@plan_member_required(edit=True)
@require_POST
def suggestion_dismiss_view(
    request: HttpRequest, access: PlanAccess, suggestion_id: UUID
) -> HttpResponse:
    plan = access.plan
    suggestion = suggestion_get(plan=plan, suggestion_id=suggestion_id)
    form = DismissForm(request.POST)
    if not form.is_valid():
        return confirmation_redirect(
            request, plan, f"Not dismissed. {form_problems(form)}", error=True
        )
    dismissed = suggestions_dismiss(
        plan=plan,
        suggestion_ids=[suggestion.pk],
        user=request.user,
        reason=form.cleaned_data["reason"],
        comment=form.cleaned_data["comment"],
    )
    if not dismissed:
        return confirmation_redirect(
            request, plan, "This suggestion is no longer open.", error=True
        )
    # Its Undo is the Dismissed list's Restore, back to this page.
    undo = reverse("planning:suggestion_restore", args=[plan.number, suggestion.pk])
    return confirmation_redirect(request, plan, f"Dismissed: {suggestion.title}.", undo=undo)


@plan_member_required(edit=True)
@require_POST
def suggestions_dismiss_view(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """Dismisses the ticked suggestions, or every open one that matches the list's filters
    (planning.web.bulk), with one reason and comment, in one transaction with one Undo."""
    plan = access.plan
    form = BulkDismissForm(request.POST)
    if not form.is_valid():
        return confirmation_redirect(
            request, plan, f"Nothing dismissed. {form_problems(form)}", error=True
        )
    suggestion_ids = form.ticked()
    if form.every_match:
        filters = PlanningViewForm(request.POST, plan=plan).suggestion_filters()
        try:
            suggestion_ids = matching_ids(
                suggestions_open_queryset(plan=plan, filters=filters),
                shown=form.cleaned_data["match_count"],
                noun="open suggestions",
            )
        except ValidationError as error:
            return confirmation_redirect(request, plan, " ".join(error.messages), error=True)
    dismissed = suggestions_dismiss(
        plan=plan,
        suggestion_ids=suggestion_ids,
        user=request.user,
        reason=form.cleaned_data["reason"],
        comment=form.cleaned_data["comment"],
    )
    count = len(dismissed)
    text = f"Dismissed {count:,} suggestion{'s' if count != 1 else ''}."
    if not dismissed:
        return confirmation_redirect(request, plan, text)
    # Its Undo opens them all again: they share the moment and the person of the dismissal.
    undo = reverse("planning:suggestions_dismiss_undo", args=[plan.number])
    moment_dismissed = dismissed[0].dismissed_at
    assert moment_dismissed is not None  # just dismissed
    moment = {"dismissed_at": moment_dismissed.isoformat()}
    return confirmation_redirect(request, plan, text, undo=undo, undo_before=moment)


@plan_member_required(edit=True)
@require_POST
def suggestions_dismiss_undo_view(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """The Undo of a dismiss of several: every suggestion it dismissed that is still dismissed
    is open again, back on the same page."""
    plan = access.plan
    kept = request.session.get("undo") or {}
    before = kept.get("before")
    if kept.get("url") != request.path or not isinstance(before, dict):
        return confirmation_redirect(request, plan, "There is nothing to undo.", error=True)
    restored = suggestions_dismissal_undo(
        plan=plan,
        dismissed_at=datetime.fromisoformat(before["dismissed_at"]),
        user=request.user,
    )
    del request.session["undo"]
    return confirmation_redirect(
        request,
        plan,
        f"Restored {restored:,} suggestion{'s' if restored != 1 else ''}: open again.",
        near="suggestions",
    )


@plan_member_required()
@require_http_methods(["GET"])
def dismissed_list(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    plan = access.plan
    dismissed = (
        Suggestion.objects.filter(plan=plan, status=SuggestionStatus.DISMISSED)
        .select_related("dismissed_by", "structure_node")
        .order_by("-dismissed_at", "id")
    )
    page = Paginator(dismissed, DISMISSED_PER_PAGE).get_page(request.GET.get("page"))
    context = plan_tab_context(access, "planning")
    context.update({"page": page, "here": request.get_full_path()})
    return render(request, "planning/suggestions/dismissed.html", context)


@plan_member_required(edit=True)
@require_POST
def suggestion_restore_view(
    request: HttpRequest, access: PlanAccess, suggestion_id: UUID
) -> HttpResponse:
    plan = access.plan
    suggestion = suggestion_get(plan=plan, suggestion_id=suggestion_id)
    # On the planning page (a dismissal's Undo) it is back in the list, and the message above it.
    dismissed_list_url = reverse("planning:suggestions_dismissed", args=[plan.number])
    near = f"suggestion-{suggestion.pk}"
    try:
        suggestion_restore(suggestion=suggestion)
        text, error = f"Restored: {suggestion.title}. It is open again.", False
    except ValidationError as problem:
        text, error = " ".join(problem.messages), True
    return confirmation_redirect(
        request, plan, text, error=error, default=dismissed_list_url, near=near
    )

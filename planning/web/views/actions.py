"""Actions: the plan's Actions tab, adding an action there, editing, cancelling and marking one
done, and changing several at once (each returns to the list with the filters and page the user
was on; Mark done of a recurring action moves it to its next occurrence)."""

from __future__ import annotations

import uuid
from typing import Any

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST

from planning.catalog.currency import reference_elsewhere
from planning.core.access import PlanAccess
from planning.core.money import money_format
from planning.models import Action, Project, Suggestion
from planning.plans import selectors
from planning.plans.action_filters import actions_filtered
from planning.plans.services import actions as services
from planning.records.history import entity_history
from planning.suggestions.services.apply import deviation_fix
from planning.web.access import actions_url, next_url, plan_member_required, request_user
from planning.web.bulk import form_problems, matching_ids
from planning.web.forms.actions import (
    YEAR,
    ActionBulkForm,
    ActionDoneForm,
    ActionFilterForm,
    ActionForm,
)
from planning.web.forms.fields import form_submit
from planning.web.forms.surveys import AttachmentUploadForm
from planning.web.pages import plan_actions_render


@plan_member_required()
@require_http_methods(["GET"])
def action_list(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    return plan_actions_render(request, access)


@plan_member_required(edit=True)
@require_POST
def action_create(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    plan = access.plan
    form = ActionForm(request.POST, prefix="action", plan=plan)
    action = form_submit(form, lambda data: services.action_create(plan=plan, **data))
    if action:
        messages.success(request, f"Action “{action.title}” added for {action.planned_year}.")
        return redirect(actions_url(plan))
    return plan_actions_render(request, access, action_form=form)


@plan_member_required(edit=True)
@require_http_methods(["GET", "POST"])
def action_edit(request: HttpRequest, access: PlanAccess, action_id: Any) -> HttpResponse:
    plan = access.plan
    action = selectors.action_get(plan=plan, action_id=action_id)
    if request.method == "POST":
        form = ActionForm(request.POST, prefix="action", plan=plan)
        if form_submit(form, lambda data: services.action_update(action=action, **data)):
            messages.success(request, f"Action “{action.title}” saved.")
            return redirect(next_url(request, plan, actions_url(plan)))
    else:
        form = ActionForm(
            prefix="action",
            plan=plan,
            initial={
                "node": str(action.node_id),
                "title": action.title,
                "kind": action.kind,
                "planned_year": action.planned_year,
                "estimated_cost": action.estimated_cost,
                "interval_years": action.interval_years,
                "project": str(action.project_id) if action.project_id else "",
            },
        )
    _reference_beside(form, request, action)
    attachments, attachment_count = selectors.attachments_shown(action=action)
    return render(
        request,
        "planning/action_edit.html",
        {
            "plan": plan,
            "action": action,
            "form": form,
            "can_edit": access.can_edit,
            "next": request.POST.get("next") or request.GET.get("next", ""),
            "history": entity_history(plan=plan, entity_id=action.pk),
            "attachments": attachments,
            "attachment_count": attachment_count,
            "upload_form": AttachmentUploadForm(),
            "upload_url": reverse(
                "planning:action_attachment_upload", args=[plan.number, action.pk]
            ),
        },
    )


def _reference_beside(form: ActionForm, request: HttpRequest, action: Action) -> None:
    """Opened from a deviation's "Edit the action": its reference figure beside the field."""
    suggestion_id = request.GET.get("suggestion") or request.POST.get("suggestion")
    if not suggestion_id:
        return
    suggestion = (
        Suggestion.objects.filter(plan=action.plan, pk__in=_uuids(suggestion_id))
        .only("fingerprint", "suggestion_type", "recommended_action_json")
        .first()
    )
    fix = deviation_fix(suggestion) if suggestion is not None else None
    if suggestion is None or fix is None:
        return
    if fix[0] == "cost":
        plan, code_id = action.plan, action.node.code_id
        code = (
            selectors.code_effective(organisation_id=plan.organisation_id, code_id=code_id)
            if code_id
            else None
        )
        form.fields["estimated_cost"].help_text = reference_elsewhere(
            code, currency=plan.currency
        ) or (
            f"Reference: {money_format(fix[1], plan.currency)} "
            "(the unit cost of the code times the quantity of the node)."
        )
    else:
        due = suggestion.recommended_action_json["reference"]["due_year"]
        form.fields["planned_year"].help_text = (
            f"Due in {due} (install year + the code's service life)."
            if fix[1] == due
            else f"Due in {due} (install year + the code's service life); {fix[1]} is the "
            "earliest year left."
        )


def _uuids(value: str) -> list[uuid.UUID]:
    try:
        return [uuid.UUID(value)]
    except ValueError:
        return []


def _undoable(
    request: HttpRequest, access: PlanAccess, action: Action, text: str, *, undo: str
) -> str:
    """Says what happened with an Undo button (a POST to the action's `undo` address: reopen,
    or done/undo) and returns where to go: the message's `undo` tag and the session's `undo`
    entry are read by base.html."""
    back = next_url(request, access.plan, actions_url(access.plan))
    plan_root = reverse("planning:plan_detail", args=[access.plan.number])
    request.session["undo"] = {"url": f"{plan_root}actions/{action.pk}/{undo}/", "next": back}
    messages.success(request, text, extra_tags="undo")
    return back


@plan_member_required(edit=True)
@require_POST
def action_cancel(request: HttpRequest, access: PlanAccess, action_id: Any) -> HttpResponse:
    action = selectors.action_get(plan=access.plan, action_id=action_id)
    services.action_cancel(action=action)
    text = f"Action “{action.title}” cancelled."
    return redirect(_undoable(request, access, action, text, undo="reopen"))


@plan_member_required(edit=True)
@require_POST
def action_done(request: HttpRequest, access: PlanAccess, action_id: Any) -> HttpResponse:
    action = selectors.action_get(plan=access.plan, action_id=action_id)
    form = ActionDoneForm(request.POST)
    back = next_url(request, access.plan, actions_url(access.plan))
    if not form.is_valid():
        problems = [
            f"{form[name].label}: {' '.join(str(e) for e in errors)}"
            for name, errors in form.errors.items()
        ]
        messages.error(request, f"“{action.title}” was not marked done. " + " ".join(problems))
        return redirect(back)
    try:
        services.action_mark_done(
            action=action,
            by=request_user(request),
            completed_on=form.cleaned_data["completed_on"],
            actual_cost=form.cleaned_data["actual_cost"],
        )
    except ValidationError as error:
        messages.error(
            request, f"“{action.title}” was not marked done. " + " ".join(error.messages)
        )
        return redirect(back)
    if action.interval_years is None:
        text = f"Action “{action.title}” marked done."
    else:
        text = f"Action “{action.title}” marked done; it comes again in {action.planned_year}."
    return redirect(_undoable(request, access, action, text, undo="done/undo"))


@plan_member_required(edit=True)
@require_POST
def action_done_undo(request: HttpRequest, access: PlanAccess, action_id: Any) -> HttpResponse:
    """The Undo of Mark done: the completion goes and the action has its year back."""
    action = selectors.action_get(plan=access.plan, action_id=action_id)
    services.action_done_undo(action=action)
    messages.success(
        request, f"Action “{action.title}” is planned for {action.planned_year} again."
    )
    return redirect(next_url(request, access.plan, actions_url(access.plan)))


@plan_member_required(edit=True)
@require_POST
def action_reopen(request: HttpRequest, access: PlanAccess, action_id: Any) -> HttpResponse:
    """Reopen (of a done or cancelled action) and Undo (of Mark done or Cancel)."""
    action = selectors.action_get(plan=access.plan, action_id=action_id)
    services.action_reopen(action=action)
    messages.success(request, f"Action “{action.title}” is planned again.")
    return redirect(next_url(request, access.plan, actions_url(access.plan)))


@plan_member_required(edit=True)
@require_POST
def actions_bulk(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """Changes several actions at once (planning.web.bulk): the ticked ones, or every one that
    matches the list's filters; moves the planned ones to a year, or puts them in a project
    (or out of theirs). One transaction, one Undo; back to the list as it was."""
    plan = access.plan
    back = next_url(request, plan, actions_url(plan))
    form = ActionBulkForm(request.POST, plan=plan)
    if not form.is_valid():
        messages.error(request, f"Nothing changed. {form_problems(form)}")
        return redirect(back)
    action_ids = form.ticked()
    try:
        if form.every_match:
            action_ids = matching_ids(
                actions_filtered(
                    plan=plan, filters=ActionFilterForm(request.POST, plan=plan).filters()
                ),
                shown=form.cleaned_data["match_count"],
                noun="actions",
            )
        if form.cleaned_data["change"] == YEAR:
            year = form.cleaned_data["to_year"]
            before = services.actions_year_set(plan=plan, action_ids=action_ids, year=year)
            value: Any = year
            text = _moved_text(before, chosen=len(action_ids), year=year)
        else:
            project = form.project()
            before = services.actions_project_set(plan=plan, action_ids=action_ids, project=project)
            value = project.pk.hex if project is not None else ""
            text = _project_text(before, chosen=len(action_ids), project=project)
    except ValidationError as error:
        messages.error(request, f"Nothing changed. {' '.join(error.messages)}")
        return redirect(back)
    if not before:
        messages.success(request, text)
        return redirect(back)
    undo = reverse("planning:actions_bulk_undo", args=[plan.number])
    request.session["undo"] = {
        "url": undo,
        "next": back,
        "before": {"change": form.cleaned_data["change"], "value": value, "ids": before},
    }
    messages.success(request, text, extra_tags="undo")
    return redirect(back)


def _changed(before: dict[str, list[str]]) -> int:
    return sum(len(ids) for ids in before.values())


def _actions(count: int) -> str:
    return f"{count:,} action{'s' if count != 1 else ''}"


def _moved_text(before: dict[str, list[str]], *, chosen: int, year: int) -> str:
    moved = _changed(before)
    text = f"Moved {_actions(moved)} to {year}."
    if chosen > moved:
        text += (
            f" {_actions(chosen - moved)} of the {chosen:,} stay as they were: done, cancelled "
            f"or planned for {year} already."
        )
    return text


def _project_text(before: dict[str, list[str]], *, chosen: int, project: Project | None) -> str:
    changed = _changed(before)
    text = (
        f"Put {_actions(changed)} in the project “{project.name}”."
        if project is not None
        else f"Took {_actions(changed)} out of their projects."
    )
    if chosen > changed:
        where = f"in “{project.name}”" if project is not None else "in no project"
        text += f" {_actions(chosen - changed)} of the {chosen:,} were {where} already."
    return text


@plan_member_required(edit=True)
@require_POST
def actions_bulk_undo(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """The Undo of a change of several actions: each goes back to the year or project it had,
    unless it was changed again since (that change wins)."""
    plan = access.plan
    kept = request.session.get("undo") or {}
    before = kept.get("before")
    back = next_url(request, plan, actions_url(plan))
    if kept.get("url") != request.path or not isinstance(before, dict):
        messages.error(request, "There is nothing to undo.")
        return redirect(back)
    try:
        restored = services.actions_bulk_undo(
            plan=plan, change=before["change"], value=before["value"], before=before["ids"]
        )
    except (ValidationError, KeyError, ValueError):
        messages.error(request, "There is nothing to undo.")
        return redirect(back)
    del request.session["undo"]
    messages.success(request, f"Undone: {_actions(restored)} back as they were.")
    return redirect(back)

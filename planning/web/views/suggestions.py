"""The action-planning view (/plans/<number>/planning/), its Apply, Dismiss and Restore actions,
and the Dismissed list (docs/design.md "Web app").

The page runs the same sync as the integrator endpoint, so what it lists is what the API lists.
Every form of a card carries `next`, the page's address with the anchor of the card that takes
its place, so after Apply, Dismiss or Restore the user is back on the same filters, page and
place (planning.web.access.next_url checks it). Viewers get no buttons, and a POST from them is 403.

The confirmation is shown where the user lands, not at the top of the page: the POST keeps the
anchor's card in the session (`CONFIRMATION_NEAR`) and sends the browser to `#confirmation`,
which the page renders right above that card (or above the list when the card is gone). A fix
and a dismissal carry an Undo, as Mark done does (base.html reads the session's `undo`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import urlencode
from uuid import UUID

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from planning.catalog.currency import usable_unit_cost
from planning.core.access import PlanAccess
from planning.core.money import GridUnit, money_format
from planning.figures.budget import BUILDINGS_PER_PAGE, Budget, building_budget_rows
from planning.figures.cache import (
    budget_figure,
    key_figures_figure,
    plan_figure,
    plan_key_figures_figure,
)
from planning.figures.chart import cost_chart
from planning.figures.follow_up import plan_follow_up
from planning.figures.prices import NOMINAL, TODAY, PriceIndex
from planning.models import (
    Action,
    Code,
    DismissReason,
    NodeKind,
    Plan,
    Severity,
    StructureNode,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.selectors import catalog_codes
from planning.suggestions.rules.texts import money_for_people
from planning.suggestions.selectors import (
    SuggestionFilters,
    SuggestionPayload,
    actions_named,
    codes_by_id,
    plan_data_version,
    suggestion_get,
    suggestion_payload,
    suggestions_open_queryset,
)
from planning.suggestions.services.apply import (
    deviation_fix,
    moved_text,
    repair_proposal,
    suggestion_apply_code,
    suggestion_apply_cost,
    suggestion_apply_due_year,
    suggestion_apply_move,
    suggestion_apply_project,
    suggestion_apply_repair,
)
from planning.suggestions.services.dismissal import (
    DISMISS_COMMENT_MAX,
    suggestion_restore,
    suggestions_dismiss,
)
from planning.suggestions.services.undo import suggestion_apply_undo
from planning.suggestions.sync.due import synced_data_version
from planning.web.access import actions_url, next_url, plan_member_required
from planning.web.forms.suggestions import (
    ApplyCodeForm,
    BulkDismissForm,
    DismissForm,
    PlanningViewForm,
)
from planning.web.pages import plan_tab_context

T = TypeVar("T")
CONFIRMATION_NEAR = "planning_confirmation_near"
GROUPED_LISTED = 5  # actions a grouping card lists before "and N more"
SUGGESTIONS_PER_PAGE = 24  # whole rows of 2, 3 or 4 cards
DISMISSED_PER_PAGE = 50


def _planning_url(plan: Plan) -> str:
    return reverse("planning:action_planning", args=[plan.number])


def review_url(plan: Plan, recommended: dict[str, Any]) -> str:
    """The Actions tab filtered to the node and year of a deviation or an overdue action."""
    hint = recommended.get("filter", {})
    year = hint.get("year")
    return actions_url(plan, node=hint.get("structure_node_id"), year_from=year, year_to=year)


def _prefill_codes(recommended: dict[str, Any], codes: dict[str, Code]) -> list[Code]:
    return [codes[i] for i in recommended.get("prefill_code_ids", []) if i in codes]


def _card(
    suggestion: Suggestion,
    *,
    plan: Plan,
    codes: dict[str, Code],
    nodes: dict[Any, StructureNode],
    unit_costs: dict[Any, Any],
    grouped: dict[str, Action],
    back: str,
) -> dict[str, Any]:
    payload: SuggestionPayload = suggestion_payload(suggestion)
    suggestion_id = payload["id"]
    suggestion_type = payload["suggestion_type"]
    recommended = payload["recommended_action_json"]
    card: dict[str, Any] = {
        "suggestion": payload,
        "type_label": SuggestionType(suggestion_type).label,
        "node": nodes.get(suggestion.structure_node_id),
        "apply_url": reverse("planning:suggestion_apply", args=[plan.number, suggestion_id]),
        "dismiss_url": reverse("planning:suggestion_dismiss", args=[plan.number, suggestion_id]),
        "key": suggestion_id.replace("-", ""),  # element ids of the card's fields
        "next": back,
    }
    card["anchor"] = f"suggestion-{suggestion_id}"
    card["title"], card["body"] = (
        money_for_people(text, recommended=recommended, currency=plan.currency)
        for text in (payload["title"], payload["body"])
    )
    if suggestion_type == SuggestionType.MISSING_CODE:
        # Rendered by hand in the card: Django's form rendering, 25 cards a page, was a third of
        # the page's time. ApplyCodeForm checks the choice when it comes back.
        card["code_choices"] = [
            (str(code.pk), f"{code.code} {code.name}")
            for code in _prefill_codes(recommended, codes)
        ]
    elif suggestion_type == SuggestionType.PROJECT_GROUPING:
        item_ids = recommended.get("group_item_ids", [])
        listed = [grouped[i] for i in item_ids[:GROUPED_LISTED] if i in grouped]
        card["grouped"] = [
            {
                "title": action.title,
                "year": action.planned_year,
                "cost": money_format(action.estimated_cost, plan.currency),
            }
            for action in sorted(listed, key=lambda action: action.title)
        ]
        card["grouped_more"] = max(len(item_ids) - GROUPED_LISTED, 0)
    elif suggestion_type == SuggestionType.CONDITION:
        node = nodes.get(suggestion.structure_node_id)
        if node is not None:
            year, cost = repair_proposal(
                recommended, quantity=node.quantity, unit_cost=unit_costs.get(node.code_id)
            )
            card["repair_label"] = (
                f"Apply: plan a repair in {year} ({money_format(cost, plan.currency)})"
            )
        card["node_url"] = reverse(
            "planning:node_detail", args=[plan.number, suggestion.structure_node_id]
        )
        card["actions_url"] = actions_url(plan, node=str(suggestion.structure_node_id))
    elif suggestion_type == SuggestionType.BUDGET_PEAK:
        year, target = recommended.get("year"), recommended.get("target_year")
        count = len(recommended.get("candidate_action_ids", []))
        if count and isinstance(target, int):
            card["move_label"] = (
                f"Apply: move {count} action{'s' if count != 1 else ''} to {target}"
            )
        card["review_url"] = actions_url(plan, year_from=year, year_to=year)
    elif suggestion_type in (SuggestionType.DEVIATION, SuggestionType.OVERDUE):
        card["review_url"] = review_url(plan, recommended)
        fix = deviation_fix(suggestion) if suggestion_type == SuggestionType.DEVIATION else None
        action_ids = recommended.get("action_ids", [])
        node = nodes.get(suggestion.structure_node_id)
        referenced = node is not None and unit_costs.get(node.code_id) is not None
        if fix is not None and fix[0] == "cost" and not referenced:
            fix = None  # no reference in the plan's currency (any more): nothing to set
        if fix is not None:
            card["fix"] = fix[0]
            due = recommended.get("reference", {}).get("due_year")
            card["fix_label"] = (
                f"Set cost to reference ({money_format(fix[1], plan.currency)})"
                if fix[0] == "cost"
                else f"Move to the due year ({fix[1]})"
                if fix[1] == due
                else f"Move to {fix[1]} (due in {due})"
            )
        if action_ids:
            card["edit_url"] = (
                reverse("planning:action_edit", args=[plan.number, action_ids[0]])
                + "?"
                + urlencode({"suggestion": suggestion_id, "next": back})
            )
    return card


def _grouped_actions(plan: Plan, shown: list[Suggestion]) -> dict[str, Action]:
    """The first GROUPED_LISTED actions of each grouping card shown, by id (one query)."""
    ids = [
        item_id
        for suggestion in shown
        if suggestion.suggestion_type == SuggestionType.PROJECT_GROUPING
        for item_id in suggestion.recommended_action_json.get("group_item_ids", [])[:GROUPED_LISTED]
    ]
    if not ids:
        return {}
    actions = Action.objects.filter(plan=plan, pk__in=ids).only(
        "id", "title", "planned_year", "estimated_cost"
    )
    return {str(action.pk): action for action in actions}


def _open_counts(plan: Plan, building: Any) -> dict[tuple[str, str], int]:
    """Open suggestions per (type, severity) in the building (or the whole plan): one grouped
    query, from which the total and both filters' counts are read."""
    return {
        (suggestion_type, severity): count
        for suggestion_type, severity, count in suggestions_open_queryset(
            plan=plan, filters=SuggestionFilters(structure_node_id=building)
        )
        .order_by()
        .values_list("suggestion_type", "severity")
        .annotate(n=Count("id"))
        .values_list("suggestion_type", "severity", "n")
    }


def _facets(
    counts: dict[tuple[str, str], int], *, types: list[str], severities: list[str]
) -> tuple[int, list[dict[str, Any]], list[dict[str, Any]]]:
    """(suggestions matching every filter, per type under the chosen severities, per severity
    under the chosen types); an empty choice means any."""

    def counted(type_wanted: list[str], severity_wanted: list[str]) -> int:
        return sum(
            n
            for (t, v), n in counts.items()
            if (not type_wanted or t in type_wanted)
            and (not severity_wanted or v in severity_wanted)
        )

    per_type = [
        {"value": value, "label": label, "count": counted([value], severities)}
        for value, label in SuggestionType.choices
    ]
    per_severity = [
        {"value": value, "label": label, "count": counted(types, [value])}
        for value, label in Severity.choices
    ]
    return counted(types, severities), per_type, per_severity


@plan_member_required()
@require_http_methods(["GET"])
def action_planning(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    plan = access.plan
    version = synced_data_version(plan=plan)

    def figure(name: str, parts: tuple[Any, ...], compute: Callable[[], T]) -> T:
        return plan_figure(
            plan_id=plan.pk, version=version, name=name, parts=parts, compute=compute
        )

    form = PlanningViewForm(request.GET or None, plan=plan)
    this_year = timezone.now().year
    year_from, year_to = form.years(this_year=this_year)
    prices = form.chosen_prices()

    def budget_in(prices: str) -> Budget:
        return budget_figure(
            plan=plan, version=version, year_from=year_from, year_to=year_to, prices=prices
        )

    budget = budget_in(prices)
    # The annual budget is in today's prices: the years above it are read there, whichever
    # prices the page shows.
    over_budget: list[int] = []
    if plan.annual_budget is not None:
        today = budget_in(TODAY)
        over_budget = [
            year
            for year, total in zip(today.years, today.year_totals, strict=True)
            if total > plan.annual_budget
        ]
    buildings_page = Paginator(budget.rows, BUILDINGS_PER_PAGE).get_page(request.GET.get("bpage"))
    key_figures = plan_key_figures_figure(plan=plan, version=version, year=this_year)
    # Planned and actual side by side for this year (planning.figures.follow_up), cached too.
    this_year_follow_up = figure(
        "follow_up",
        (this_year,),
        lambda: plan_follow_up(plan=plan, year_from=this_year, year_to=this_year).years[0],
    )

    types = form.valid("suggestion_type") or []
    severities = form.valid("severity") or []
    building = form.valid("building")
    filters = SuggestionFilters(
        severities=severities, suggestion_types=types, structure_node_id=building
    )
    page = Paginator(suggestions_open_queryset(plan=plan, filters=filters), SUGGESTIONS_PER_PAGE)
    counts = figure("open_counts", (str(building or ""),), lambda: _open_counts(plan, building))
    open_count, type_counts, severity_counts = _facets(counts, types=types, severities=severities)
    # Paginator.count is a cached property: the figure stands in for its COUNT query.
    page.count = open_count  # type: ignore[misc]
    suggestions_page = page.get_page(request.GET.get("page"))
    shown: list[Suggestion] = list(suggestions_page.object_list)
    code_ids = {
        code_id for s in shown for code_id in s.recommended_action_json.get("prefill_code_ids", [])
    }
    codes = codes_by_id(code_ids=code_ids)
    nodes = StructureNode.objects.in_bulk([s.structure_node_id for s in shown])
    # The unit costs in the plan's currency only (planning.catalog.currency)
    unit_costs = {
        code.pk: usable_unit_cost(code, currency=plan.currency)
        for code in catalog_codes(organisation_id=plan.organisation_id).filter(
            pk__in={node.code_id for node in nodes.values() if node.code_id}
        )
    }
    grouped = _grouped_actions(plan, shown)
    here = request.get_full_path()
    near = request.session.pop(CONFIRMATION_NEAR, "")
    cards = []
    for index, suggestion in enumerate(shown):
        # The card that takes this one's place once it is gone: the next, else the previous.
        neighbour = (
            shown[index + 1] if index + 1 < len(shown) else shown[index - 1] if index else None
        )
        back = f"{here}#suggestion-{neighbour.pk}" if neighbour else f"{here}#suggestions"
        cards.append(
            _card(
                suggestion,
                plan=plan,
                codes=codes,
                nodes=nodes,
                unit_costs=unit_costs,
                grouped=grouped,
                back=back,
            )
        )

    if near and near not in {card["anchor"] for card in cards}:
        near = "suggestions"  # its card is gone or on another page: above the list

    # The budget line is drawn where the bars are in its prices (today's); the years above it
    # are named in both.
    chart_budget: dict[str, Any] = {
        "currency": plan.currency,
        "annual_budget": plan.annual_budget if prices == TODAY else None,
        "over_budget": frozenset(over_budget),
    }
    query = request.GET.copy()
    query.pop("page", None)
    building_query = request.GET.copy()
    building_query.pop("bpage", None)

    context = plan_tab_context(access, "planning")
    context.update(
        {
            "form": form,
            "year_from": year_from,
            "year_to": year_to,
            "prices": prices,
            "prices_links": _prices_links(request, prices),
            "price_index": PriceIndex.of(plan).describe(),
            "over_budget": over_budget,
            "budget": budget,
            "year_totals": list(zip(budget.years, budget.year_totals, strict=True)),
            "grid_unit": GridUnit.of(largest=budget.total, currency=plan.currency),
            "buildings_page": buildings_page,
            "chart_by_building": cost_chart(
                years=budget.years, series=budget.by_building(), **chart_budget
            ),
            "chart_by_kind": cost_chart(years=budget.years, series=budget.by_kind, **chart_budget),
            "cards": cards,
            "page": suggestions_page,
            "open_count": page.count,
            "type_counts": type_counts,
            "severity_counts": severity_counts,
            "chosen_types": types,
            "chosen_severities": severities,
            "page_query": query.urlencode(),
            "building_query": building_query.urlencode(),
            "key_figures": key_figures,
            "follow_up": this_year_follow_up,
            "bulk_form": BulkDismissForm(auto_id="id_bulk_%s"),
            "dismiss_reasons": DismissReason.choices,
            "comment_max": DISMISS_COMMENT_MAX,
            "here": here,
            "confirmation_near": near,
            "dismissed_count": figure(
                "dismissed_count",
                (),
                lambda: Suggestion.objects.filter(
                    plan=plan, status=SuggestionStatus.DISMISSED
                ).count(),
            ),
        }
    )
    return render(request, "planning/action_planning.html", context)


def _prices_links(request: HttpRequest, chosen: str) -> list[dict[str, Any]]:
    """The today's / nominal switch: the page's own address with the other prices."""
    links = []
    for value, label in ((TODAY, "Today's prices"), (NOMINAL, "Nominal")):
        query = request.GET.copy()
        query["prices"] = value
        links.append({"label": label, "query": query.urlencode(), "current": value == chosen})
    return links


KEY_FIGURES_PER_PAGE = 50


@plan_member_required()
@require_http_methods(["GET"])
def key_figures_list(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """Every building's key figures (docs/design.md "Money"), by name, 50 a page."""
    plan = access.plan
    this_year = timezone.now().year
    figures = key_figures_figure(plan=plan, version=synced_data_version(plan=plan), year=this_year)
    page = Paginator(figures.buildings, KEY_FIGURES_PER_PAGE).get_page(request.GET.get("page"))
    context = plan_tab_context(access, "planning")
    context.update({"key_figures": figures, "page": page})
    return render(request, "planning/suggestions/key_figures.html", context)


@plan_member_required()
@require_http_methods(["GET"])
def building_rows(request: HttpRequest, access: PlanAccess, node_id: UUID) -> HttpResponse:
    """The rows of one building of the budget grid (a fragment static/js/planning-grid.js puts
    under the building's row), for the page's year range."""
    plan = access.plan
    if not StructureNode.objects.filter(plan=plan, pk=node_id, kind=NodeKind.BUILDING).exists():
        raise Http404("No such building")
    form = PlanningViewForm(request.GET or None, plan=plan)
    year_from, year_to = form.years(this_year=timezone.now().year)
    prices = form.chosen_prices()
    rows, more = building_budget_rows(
        plan=plan, building_id=node_id, year_from=year_from, year_to=year_to, prices=prices
    )
    # The grid's unit comes from the page's grand total: the same cached budget the page read.
    budget = budget_figure(
        plan=plan,
        version=plan_data_version(plan=plan),
        year_from=year_from,
        year_to=year_to,
        prices=prices,
    )
    grid_unit = GridUnit.of(largest=budget.total, currency=plan.currency)
    return render(
        request,
        "planning/suggestions/_building_rows.html",
        {"plan": plan, "rows": rows, "more": more, "building_id": node_id, "grid_unit": grid_unit},
    )


def _confirm(
    request: HttpRequest,
    plan: Plan,
    text: str,
    *,
    error: bool = False,
    default: str | None = None,
    near: str | None = None,
    undo: str | None = None,
    undo_before: Any = None,
) -> HttpResponse:
    """Redirects to `next` (else `default`, else the planning page) with `text` shown where the
    user lands: on the planning page above the card of `next`'s anchor (or `near`, a card's
    anchor), reached as `#confirmation`; on any other page at the top. `undo`: the address of
    the Undo button the message carries, which returns to the same page; `undo_before` is kept
    for it (a fix's replaced value)."""
    target = next_url(request, plan, default or _planning_url(plan))
    page, _, anchor = target.partition("#")
    if page.split("?")[0] == _planning_url(plan) and (near or anchor):
        request.session[CONFIRMATION_NEAR] = near or anchor
        target = f"{page}#confirmation"
    if undo is not None:
        request.session["undo"] = {"url": undo, "next": page, "before": undo_before}
    if error:
        messages.error(request, text)
    else:
        messages.success(request, text, extra_tags="undo" if undo else "")
    return redirect(target)


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
        form = ApplyCodeForm(request.POST, codes=_prefill_codes(recommended, codes))
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
        return _confirm(request, plan, " ".join(error.messages), error=True)
    undo = reverse("planning:suggestion_fix_undo", args=[plan.number, suggestion.pk])
    return _confirm(request, plan, text, undo=undo, undo_before=before)


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
        return _confirm(request, plan, "There is nothing to undo.", error=True)
    try:
        _, text = suggestion_apply_undo(suggestion=suggestion, before=kept["before"])
    except ValidationError as error:
        return _confirm(request, plan, " ".join(error.messages), error=True)
    del request.session["undo"]
    return _confirm(request, plan, text, near=f"suggestion-{suggestion.pk}")


def _form_problems(form: Any) -> str:
    return "; ".join(
        " ".join(map(str, e)) if name == "__all__" else f"{name}: {' '.join(map(str, e))}"
        for name, e in form.errors.items()
    )


@plan_member_required(edit=True)
@require_POST
def suggestion_dismiss_view(
    request: HttpRequest, access: PlanAccess, suggestion_id: UUID
) -> HttpResponse:
    plan = access.plan
    suggestion = suggestion_get(plan=plan, suggestion_id=suggestion_id)
    form = DismissForm(request.POST)
    if not form.is_valid():
        return _confirm(request, plan, f"Not dismissed. {_form_problems(form)}", error=True)
    dismissed = suggestions_dismiss(
        plan=plan,
        suggestion_ids=[suggestion.pk],
        user=request.user,
        reason=form.cleaned_data["reason"],
        comment=form.cleaned_data["comment"],
    )
    if not dismissed:
        return _confirm(request, plan, "This suggestion is no longer open.", error=True)
    # Its Undo is the Dismissed list's Restore, back to this page.
    undo = reverse("planning:suggestion_restore", args=[plan.number, suggestion.pk])
    return _confirm(request, plan, f"Dismissed: {suggestion.title}.", undo=undo)


@plan_member_required(edit=True)
@require_POST
def suggestions_dismiss_view(request: HttpRequest, access: PlanAccess) -> HttpResponse:
    """Dismisses every ticked suggestion with one reason and comment."""
    plan = access.plan
    form = BulkDismissForm(request.POST)
    if not form.is_valid():
        return _confirm(request, plan, f"Nothing dismissed. {_form_problems(form)}", error=True)
    dismissed = suggestions_dismiss(
        plan=plan,
        suggestion_ids=form.cleaned_data["suggestion"],
        user=request.user,
        reason=form.cleaned_data["reason"],
        comment=form.cleaned_data["comment"],
    )
    count = len(dismissed)
    return _confirm(request, plan, f"Dismissed {count} suggestion{'s' if count != 1 else ''}.")


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
    return _confirm(request, plan, text, error=error, default=dismissed_list_url, near=near)

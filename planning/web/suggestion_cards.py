"""The suggestion cards of the action-planning page (planning.web.views.action_planning), and
what its Apply reads back from a card (planning.web.views.suggestions): each card's title and
body with amounts in the plan's currency, and the buttons and links its type offers (the codes
to choose from, the actions a grouping lists, the repair, the move, the fix). Every form of a
card carries `next`, the page's address with the anchor of the card that takes its place."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.urls import reverse

from planning.core.money import money_format
from planning.models import Action, Code, Plan, StructureNode, Suggestion, SuggestionType
from planning.suggestions.rules.texts import money_for_people
from planning.suggestions.selectors import SuggestionPayload, suggestion_payload
from planning.suggestions.services.apply import deviation_fix, repair_proposal
from planning.web.access import actions_url

GROUPED_LISTED = 5  # actions a grouping card lists before "and N more"


def review_url(plan: Plan, recommended: dict[str, Any]) -> str:
    """The Actions tab filtered to the node and year of a deviation or an overdue action."""
    hint = recommended.get("filter", {})
    year = hint.get("year")
    return actions_url(plan, node=hint.get("structure_node_id"), year_from=year, year_to=year)


def prefill_codes(recommended: dict[str, Any], codes: dict[str, Code]) -> list[Code]:
    return [codes[i] for i in recommended.get("prefill_code_ids", []) if i in codes]


def suggestion_card(
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
            (str(code.pk), f"{code.code} {code.name}") for code in prefill_codes(recommended, codes)
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


def grouped_actions(plan: Plan, shown: list[Suggestion]) -> dict[str, Action]:
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

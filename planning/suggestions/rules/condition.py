"""Rule 4, condition: a component in poor condition (grade 3 or 2) with no repair or
replacement planned soon enough. Pure: no database."""

from __future__ import annotations

from planning.models import ActionKind, ActionStatus, NodeKind, Severity, SuggestionType
from planning.suggestions.rules.records import PlanData, WantedSuggestion
from planning.suggestions.rules.texts import node_named

# Grade: (severity, how many years after Y a repair or replacement must be planned at the latest).
CONDITION_HORIZONS = {3: (Severity.CRITICAL, 2), 2: (Severity.WARNING, 5)}
GRADE_WORDS = {3: "severe", 2: "moderate"}


def condition_suggestions(data: PlanData, year: int) -> dict[str, WantedSuggestion]:
    """Rule 4: a component in condition 3 (or 2) with no live repair or replacement planned by
    Y + 2 (or Y + 5). `data.actions` must hold every action of the nodes in `data.nodes`."""
    planned, fixes = ActionStatus.PLANNED.value, {ActionKind.REPAIR, ActionKind.REPLACEMENT}
    earliest: dict[str, int] = {}  # node -> the earliest year a live repair/replacement is planned
    for action in data.actions:
        if action.status == planned and action.kind in fixes:
            known = earliest.get(action.node_id)
            if known is None or action.planned_year < known:
                earliest[action.node_id] = action.planned_year
    wanted: dict[str, WantedSuggestion] = {}
    for node in data.nodes.values():
        if node.kind != NodeKind.COMPONENT or node.condition_grade not in CONDITION_HORIZONS:
            continue
        severity, horizon = CONDITION_HORIZONS[node.condition_grade]
        latest = year + horizon
        first = earliest.get(node.id)
        if first is not None and first <= latest:
            continue
        words = GRADE_WORDS[node.condition_grade]
        named = node_named(node, data)
        fingerprint = f"condition:{node.id}"
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.CONDITION,
            severity=severity,
            title=f"Plan a repair of {named} by {latest}: its condition is {words}",
            body=(
                f"The component {named} was graded {node.condition_grade} ({words} "
                f"symptoms) and has no repair or replacement planned by {latest}"
                + (f"; the first one is in {first}." if first is not None else ".")
                + " Plan one, or dismiss this if the component is to be left as it is."
            ),
            structure_node_id=node.id,
            recommended_action_json={
                "action": "plan_action",
                "node_id": node.id,
                "condition_grade": node.condition_grade,
                "latest_year": latest,
            },
        )
    return wanted

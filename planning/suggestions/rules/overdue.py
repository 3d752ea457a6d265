"""Rule 5, overdue: a planned action whose year has passed. Pure: no database."""

from __future__ import annotations

from planning.models import ActionKind, ActionStatus, Severity, SuggestionType
from planning.suggestions.rules.records import PlanData, WantedSuggestion
from planning.suggestions.rules.texts import node_named

OVERDUE_CRITICAL_YEARS = 2  # planned before Y - 2: critical
_KIND_WORDS = {kind.value: kind.label.lower() for kind in ActionKind}


def overdue_suggestions(data: PlanData, year: int) -> dict[str, WantedSuggestion]:
    """Rule 5: a live action planned before Y (warning), or before Y - 2 (critical)."""
    planned = ActionStatus.PLANNED.value
    wanted: dict[str, WantedSuggestion] = {}
    for action in data.actions:
        if action.status != planned or action.planned_year >= year:
            continue
        late = year - action.planned_year
        node = data.nodes.get(action.node_id)
        what = f"{_KIND_WORDS.get(action.kind, 'action')}"
        on = f" of {node_named(node, data)}" if node is not None else ""
        fingerprint = f"overdue:{action.id}"
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.OVERDUE,
            severity=Severity.CRITICAL if late > OVERDUE_CRITICAL_YEARS else Severity.WARNING,
            title=f"Overdue since {action.planned_year}: the {what}{on}",
            body=(
                f"The {what}{on} was planned for {action.planned_year} and is still open in "
                f"{year} ({late} year{'s' if late != 1 else ''} late). Mark it done if the work "
                "was done, or move it to the year it will be done."
            ),
            structure_node_id=action.node_id,
            recommended_action_json={
                "action": "review_action",
                "action_ids": [action.id],
                "filter": {"structure_node_id": action.node_id, "year": action.planned_year},
                "reference": {
                    "due_year": action.planned_year,
                    "actual": year,
                    "deviation": late,
                },
            },
        )
    return wanted

"""Rule 3, project_grouping: two or more planned actions without a project at the same anchor
(a building, else a root) in the same year. Pure: no database."""

from __future__ import annotations

from collections import defaultdict
from decimal import Decimal

from planning.models import ActionStatus, Severity, SuggestionType
from planning.suggestions.rules.records import ActionRecord, NodeRecord, PlanData, WantedSuggestion
from planning.suggestions.rules.texts import money, place_of


def anchor_node_id(node: NodeRecord) -> str:
    """The node itself if a building, else its nearest building ancestor, else its root."""
    return node.building_id or node.root_id


def project_grouping_suggestions(data: PlanData) -> dict[str, WantedSuggestion]:
    groups: dict[tuple[str, int], list[ActionRecord]] = defaultdict(list)
    planned, nodes = ActionStatus.PLANNED.value, data.nodes
    for action in data.actions:
        if action.status != planned or action.project_id is not None:
            continue
        node = nodes.get(action.node_id)
        if node is not None:
            # anchor_node_id(node), inlined: this loop runs once per action of the plan
            groups[(node.building_id or node.root_id, action.planned_year)].append(action)
    wanted: dict[str, WantedSuggestion] = {}
    for (anchor_id, year), actions in groups.items():
        if len(actions) < 2:
            continue
        place = place_of(data.nodes[anchor_id], data)
        total = sum((a.estimated_cost for a in actions), Decimal(0))
        name = f"{place} {year}"
        fingerprint = f"project_grouping:{anchor_id}:{year}"
        wanted[fingerprint] = WantedSuggestion(
            fingerprint=fingerprint,
            suggestion_type=SuggestionType.PROJECT_GROUPING,
            severity=Severity.INFO,
            title=f"Group {len(actions)} actions in {place} in {year} into a project",
            body=(
                f"{len(actions)} planned actions in {place} in {year} belong to no "
                f"project (total {money(total)}). Grouping them lets you tender and schedule "
                "them together."
            ),
            structure_node_id=anchor_id,
            recommended_action_json={
                "action": "create_project",
                "group_item_ids": sorted(a.id for a in actions),
                "proposed_project_name": name,
                "year": year,
                "total_cost": money(total),
            },
        )
    return wanted

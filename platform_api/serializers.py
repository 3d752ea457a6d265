"""Response shapes that more than one endpoint renders: a suggestion (the list, the acts, the
events' bodies) and a suggestion with its status."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from planning.models import Severity, SuggestionType


class AssignCodeActionSerializer(serializers.Serializer):
    """missing_code: assign one of the prefilled catalog codes to the node."""

    action = serializers.ChoiceField(choices=["assign_code"])
    prefill_code_ids = serializers.ListField(
        child=serializers.UUIDField(), help_text="Up to 3 catalog code ids, best match first."
    )


class ReviewFilterSerializer(serializers.Serializer):
    structure_node_id = serializers.UUIDField()
    year = serializers.IntegerField()


@extend_schema_field(
    {
        "oneOf": [
            {
                "title": "CostReference",
                "type": "object",
                "properties": {
                    "expected_cost": {"type": "string", "format": "decimal", "example": "1200.00"},
                    "actual": {"type": "string", "format": "decimal", "example": "2000.00"},
                    "deviation": {
                        "type": "string",
                        "format": "decimal",
                        "description": "|actual - expected| / expected",
                        "example": "0.6667",
                    },
                },
                "required": ["expected_cost", "actual", "deviation"],
            },
            {
                "title": "TimingReference",
                "type": "object",
                "properties": {
                    "due_year": {"type": "integer", "example": 2031},
                    "actual": {"type": "integer", "example": 2038},
                    "deviation": {"type": "integer", "description": "Years", "example": 7},
                },
                "required": ["due_year", "actual", "deviation"],
            },
        ]
    }
)
class DeviationReferenceField(serializers.JSONField):
    pass


class ReviewActionSerializer(serializers.Serializer):
    """deviation and overdue: review the action in the filtered actions view."""

    action = serializers.ChoiceField(choices=["review_action"])
    action_ids = serializers.ListField(child=serializers.UUIDField())
    filter = ReviewFilterSerializer()
    reference = DeviationReferenceField()


class CreateProjectActionSerializer(serializers.Serializer):
    """project_grouping: create one project from the grouped actions."""

    action = serializers.ChoiceField(choices=["create_project"])
    group_item_ids = serializers.ListField(
        child=serializers.UUIDField(), help_text="Ids of the actions to group, sorted."
    )
    proposed_project_name = serializers.CharField()
    year = serializers.IntegerField()
    total_cost = serializers.DecimalField(max_digits=16, decimal_places=2, coerce_to_string=True)


class PlanActionSerializer(serializers.Serializer):
    """condition: plan a repair or replacement of the component by `latest_year`."""

    action = serializers.ChoiceField(choices=["plan_action"])
    node_id = serializers.UUIDField(help_text="The component (the suggestion's node).")
    condition_grade = serializers.IntegerField(
        min_value=0, max_value=3, help_text="Its condition: 2 moderate, 3 severe symptoms."
    )
    latest_year = serializers.IntegerField(
        help_text="The year by which a repair or replacement should be planned at the latest."
    )


class MoveActionsSerializer(serializers.Serializer):
    """budget_peak: move the candidate actions out of a year whose planned costs exceed the
    plan's annual budget."""

    action = serializers.ChoiceField(choices=["move_actions"])
    year = serializers.IntegerField(help_text="The year over the budget.")
    budget = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True, help_text="The annual budget."
    )
    total = serializers.DecimalField(
        max_digits=16,
        decimal_places=2,
        coerce_to_string=True,
        help_text="The planned costs of `year` in today's prices, every occurrence counted.",
    )
    excess = serializers.DecimalField(
        max_digits=16, decimal_places=2, coerce_to_string=True, help_text="`total` - `budget`."
    )
    candidate_action_ids = serializers.ListField(
        child=serializers.UUIDField(),
        help_text=(
            "The one-off repairs and replacements of `year` to move: the costliest first until "
            "their costs reach the excess (all of them if they never do); sorted."
        ),
    )
    target_year = serializers.IntegerField(
        allow_null=True,
        help_text=(
            "The first of the next five years that stays within the budget with the "
            "candidates moved in; null when none does."
        ),
    )


class SuggestionSerializer(serializers.Serializer):
    """One open suggestion: what the platform proposes for a node of the plan."""

    id = serializers.UUIDField()
    suggestion_type = serializers.ChoiceField(choices=SuggestionType.choices)
    severity = serializers.ChoiceField(choices=Severity.choices)
    title = serializers.CharField()
    body = serializers.CharField()
    structure_node_id = serializers.UUIDField()
    recommended_action_json = PolymorphicProxySerializer(
        component_name="RecommendedAction",
        serializers={
            "assign_code": AssignCodeActionSerializer,
            "review_action": ReviewActionSerializer,
            "create_project": CreateProjectActionSerializer,
            "plan_action": PlanActionSerializer,
            "move_actions": MoveActionsSerializer,
        },
        resource_type_field_name="action",
        help_text=(
            "What applying the suggestion does, by `action`. Ids are strings, id lists are "
            "sorted, money is a decimal string."
        ),
    )
    created_at = serializers.DateTimeField(help_text="ISO 8601, UTC (Z)")


class SuggestionWithStatusSerializer(SuggestionSerializer):
    status = serializers.CharField(help_text="open, dismissed or resolved (more may come).")


def money_text(value: Any) -> str | None:
    """An amount as the records show it: a decimal string with two places, or None."""
    return f"{value:.2f}" if value is not None else None

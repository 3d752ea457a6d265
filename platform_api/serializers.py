"""The platform API's response fields, and the shapes that more than one endpoint renders: a
suggestion (the list, the acts, the events' bodies) and a suggestion with its status.

Every answer's `data` is rendered by the serializer that describes it in the schema
(`Serializer(instance).data`), so one class is both. A serializer's docstring and help texts are
the schema's descriptions: change them only with the schema (tests/contract/openapi.yaml)."""

from __future__ import annotations

from datetime import UTC
from typing import Any

from drf_spectacular.utils import PolymorphicProxySerializer, extend_schema_field
from rest_framework import serializers

from planning.core.money import amount_of, cents_of
from planning.figures.prices import PriceIndex
from planning.models import Severity, SuggestionType


class DecimalTextField(serializers.DecimalField):
    """An amount or a percentage: a decimal string with `decimal_places` places, as Python's
    format writes it. DRF's own rendering rounds under a context of `max_digits` digits and
    fails on a longer value; this one never fails and never rounds a stored value (which has
    the places already)."""

    def to_representation(self, value: Any) -> str:
        return f"{value:.{self.decimal_places}f}"


class UtcDateTimeField(serializers.DateTimeField):
    """ISO 8601 in UTC with a `Z`, whatever TIME_ZONE says."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(default_timezone=UTC, **kwargs)


class OrganisationSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    slug = serializers.CharField()
    name = serializers.CharField()


class _AsRendered(serializers.ListSerializer):  # type: ignore[type-arg]
    """A list of suggestions as it comes: planning's payloads, or the whole list already
    rendered to JSON (an orjson.Fragment of platform_api.list_cache)."""

    def to_representation(self, data: Any) -> Any:
        return data


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

    # A suggestion's JSON has one builder, planning.suggestions.selectors (the payload the
    # lists, the acts and the webhooks' events all carry; the events store it): this class
    # describes it and renders it as it comes. tests/platform_api/test_serializers.py fails when
    # the fields above and the payloads disagree.
    class Meta:
        list_serializer_class = _AsRendered

    def to_representation(self, instance: Any) -> Any:
        return instance


class SuggestionWithStatusSerializer(SuggestionSerializer):
    status = serializers.CharField(help_text="open, dismissed or resolved (more may come).")


class _NominalCostField(DecimalTextField):
    """An action's cost in its planned year, by the plan's PriceIndex (the serializer's
    context's `price_index`)."""

    def get_attribute(self, instance: Any) -> Any:
        index: PriceIndex = self.context["price_index"]
        return amount_of(
            index.nominal_cents(cents_of(instance.estimated_cost), instance.planned_year)
        )


class ActionSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    node_id = serializers.UUIDField()
    title = serializers.CharField()
    kind = serializers.CharField(help_text="The action's kind (more may come).")
    planned_year = serializers.IntegerField()
    interval_years = serializers.IntegerField(allow_null=True, help_text="Null: a one-off.")
    estimated_cost = DecimalTextField(
        max_digits=14, decimal_places=2, coerce_to_string=True, help_text="Today's prices."
    )
    nominal_cost = _NominalCostField(
        source="*",
        max_digits=16,
        decimal_places=2,
        coerce_to_string=True,
        help_text="Of its planned year, indexed and with the plan's markups.",
    )
    status = serializers.CharField(help_text="planned, done or cancelled (more may come).")
    project_id = serializers.UUIDField(allow_null=True)

"""The platform API's serializers (platform_api.serializers): a suggestion's JSON, which planning
builds and the serializers describe, is what the serializers' fields render of it, for every
rule; and the amount and time fields render as the API always wrote them."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from io import StringIO
from typing import Any

import pytest
from django.core.management import call_command
from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from planning.models import Plan, SuggestionType
from planning.suggestions.selectors import suggestion_payloads_with_status, suggestions_open
from planning.suggestions.sync.run import suggestion_sync
from platform_api.management.commands.seed_demo import DEMO_PLAN_NAME
from platform_api.serializers import (
    DecimalTextField,
    SuggestionSerializer,
    SuggestionWithStatusSerializer,
    UtcDateTimeField,
)

pytestmark = pytest.mark.django_db


def _rendered_by_the_fields(serializer: serializers.Serializer, payload: dict[str, Any]) -> Any:
    """What the serializer's fields render of `payload`, each on its own (the recommended
    action by the serializer its `action` names)."""
    rendered = {}
    for name, field in serializer.fields.items():
        value = payload[name]
        if name == "recommended_action_json":
            assert isinstance(field, PolymorphicProxySerializer)
            action_serializer = field.serializers[value["action"]]()  # type: ignore[index]
            rendered[name] = action_serializer.to_representation(value)
        else:
            rendered[name] = field.to_representation(value)
    return rendered


def _assert_the_same(rendered: dict[str, Any], payload: dict[str, Any]) -> None:
    """The same keys in the same order at the top, the same values below. The order inside a
    stored JSON value (the evidence) is the database's: PostgreSQL's jsonb sorts its keys."""
    assert list(rendered) == list(payload)
    assert json.dumps(rendered, sort_keys=True) == json.dumps(payload, sort_keys=True)


def test_planning_s_suggestions_are_what_the_suggestion_serializers_describe() -> None:
    call_command("seed_demo", stdout=StringIO())
    plan = Plan.objects.get(name=DEMO_PLAN_NAME)
    suggestion_sync(plan=plan)
    payloads = suggestions_open(plan=plan)
    with_status = suggestion_payloads_with_status(
        plan_id=plan.pk, suggestion_ids=[p["id"] for p in payloads]
    )

    assert {p["suggestion_type"] for p in payloads} == set(SuggestionType.values)
    for payload in payloads:
        rendered = _rendered_by_the_fields(SuggestionSerializer(), payload)
        _assert_the_same(rendered, payload)
        assert SuggestionSerializer(payload).data == payload
    for payload in with_status.values():
        rendered = _rendered_by_the_fields(SuggestionWithStatusSerializer(), payload)
        _assert_the_same(rendered, payload)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (Decimal("1200.5"), "1200.50"),
        (Decimal("0"), "0.00"),
        (Decimal("-3.10"), "-3.10"),
        (Decimal("123456789012345678.25"), "123456789012345678.25"),  # past max_digits
    ],
)
def test_an_amount_is_a_string_with_two_places(value: Decimal, text: str) -> None:
    field = DecimalTextField(max_digits=14, decimal_places=2, coerce_to_string=True)

    assert field.to_representation(value) == text


def test_a_time_is_written_in_utc_with_a_z(settings: Any) -> None:
    settings.TIME_ZONE = "Europe/Zurich"
    later = timezone(timedelta(hours=2))

    rendered = UtcDateTimeField().to_representation(datetime(2026, 5, 4, 11, 30, 12, 481, later))

    assert rendered == "2026-05-04T09:30:12.000481Z"
    assert UtcDateTimeField().to_representation(datetime(2026, 1, 1, tzinfo=UTC)) == (
        "2026-01-01T00:00:00Z"
    )

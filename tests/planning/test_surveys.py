"""Condition surveys: each kept, the latest current on the node, a replay recorded once, an older
survey kept without replacing the current grade, bad input refused with nothing stored."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from planning.models import (
    ConditionSurvey,
    HistoryEntry,
    NodeKind,
    StructureNode,
    Suggestion,
    SuggestionStatus,
    SuggestionType,
)
from planning.plans.services.surveys import survey_record
from planning.suggestions.sync.run import suggestion_sync
from tests.factories import StructureNodeFactory, UserFactory

pytestmark = pytest.mark.django_db

# Surveys are dated up to tomorrow: the tests date theirs from the clock.
DAY = timezone.localdate() - datetime.timedelta(days=60)


def _record(node: StructureNode, **overrides: object) -> tuple[ConditionSurvey, bool]:
    values: dict[str, object] = {
        "grade": 2,
        "consequence": 3,
        "note": "Cracks by the gutter",
        "assessed_on": DAY,
        "by": None,
    }
    values.update(overrides)
    return survey_record(node=node, **values)  # type: ignore[arg-type]


def test_a_survey_becomes_the_components_current_condition() -> None:
    node = StructureNodeFactory.create()
    user = UserFactory.create()
    survey, created = _record(node, by=user)
    node.refresh_from_db()
    assert created
    assert (node.condition_grade, node.condition_consequence, node.condition_assessed_on) == (
        2,
        3,
        DAY,
    )
    assert survey.risk == 6
    assert node.condition_risk == 6
    assert survey.assessed_by == user
    assert survey.note == "Cracks by the gutter"


def test_a_replay_with_the_same_key_returns_the_first_survey() -> None:
    node = StructureNodeFactory.create()
    first, created = _record(node, idempotency_key="entry-1")
    again, created_again = _record(node, grade=0, idempotency_key="entry-1")
    assert created and not created_again
    assert again.pk == first.pk
    assert ConditionSurvey.objects.filter(node=node).count() == 1
    node.refresh_from_db()
    assert node.condition_grade == 2


def test_a_key_used_for_another_component_is_refused() -> None:
    node = StructureNodeFactory.create()
    other = StructureNodeFactory.create(plan=node.plan)
    _record(node, idempotency_key="entry-1")
    with pytest.raises(ValidationError, match="another component"):
        _record(other, idempotency_key="entry-1")
    assert not ConditionSurvey.objects.filter(node=other).exists()


def test_an_older_survey_is_kept_but_leaves_the_current_grade() -> None:
    node = StructureNodeFactory.create()
    _record(node, grade=3, consequence=2, assessed_on=DAY)
    _, created = _record(node, grade=1, consequence=1, assessed_on=DAY - datetime.timedelta(3))
    node.refresh_from_db()
    assert created
    assert node.condition_grade == 3
    assert node.condition_consequence == 2
    assert node.condition_assessed_on == DAY
    grades = list(ConditionSurvey.objects.filter(node=node).values_list("grade", flat=True))
    assert grades == [3, 1]  # newest first: the history of grades


def test_a_later_survey_of_the_same_day_replaces_the_current_one() -> None:
    node = StructureNodeFactory.create()
    _record(node, grade=3)
    _record(node, grade=1, consequence=None)
    node.refresh_from_db()
    assert node.condition_grade == 1
    assert node.condition_consequence is None
    assert node.condition_risk is None


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"grade": 4}, "grade"),
        ({"grade": -1}, "grade"),
        ({"consequence": 5}, "consequence"),
        ({"assessed_on": datetime.date(1900, 1, 1)}, "assessed_on"),
        ({"note": "x" * 2001}, "note"),
    ],
)
def test_bad_input_is_refused_and_nothing_is_stored(
    overrides: dict[str, object], field: str
) -> None:
    node = StructureNodeFactory.create()
    with pytest.raises(ValidationError) as raised:
        _record(node, **overrides)
    assert field in raised.value.message_dict
    assert not ConditionSurvey.objects.exists()
    node.refresh_from_db()
    assert node.condition_grade is None


def test_the_out_of_range_grade_says_what_to_enter() -> None:
    node = StructureNodeFactory.create()
    with pytest.raises(ValidationError) as raised:
        _record(node, grade=7)
    assert raised.value.message_dict["grade"] == ["Enter a condition grade from 0 to 3."]


def test_only_a_component_is_surveyed() -> None:
    building = StructureNodeFactory.create(kind=NodeKind.BUILDING)
    with pytest.raises(ValidationError, match="Only a component"):
        _record(building)
    assert not ConditionSurvey.objects.exists()


def test_the_node_history_records_the_new_consequence() -> None:
    node = StructureNodeFactory.create()
    _record(node)
    entry = HistoryEntry.objects.filter(entity_uuid=node.pk, operation="update").latest("id")
    assert entry.changes["condition_consequence"] == [None, 3]


def test_rule_4_reads_the_current_grade_of_the_surveys() -> None:
    node = StructureNodeFactory.create(name="Roof")
    plan = node.plan

    def condition_open() -> list[str]:
        return list(
            Suggestion.objects.filter(
                plan=plan, suggestion_type=SuggestionType.CONDITION, status=SuggestionStatus.OPEN
            ).values_list("severity", flat=True)
        )

    _record(node, grade=3, assessed_on=DAY)
    suggestion_sync(plan=plan)
    assert condition_open() == ["critical"]
    _record(node, grade=0, assessed_on=DAY - datetime.timedelta(days=30))  # older: kept aside
    suggestion_sync(plan=plan)
    assert condition_open() == ["critical"]
    _record(node, grade=2, assessed_on=DAY + datetime.timedelta(days=1))
    suggestion_sync(plan=plan)
    assert condition_open() == ["warning"]
    _record(node, grade=1, assessed_on=DAY + datetime.timedelta(days=2))
    suggestion_sync(plan=plan)
    assert condition_open() == []

"""Condition surveys of components (docs/subsystems/surveys-and-files.md "Condition surveys").

Every survey is kept; the latest one (by `assessed_on`, then `created_at`) is the component's
current condition, copied onto the node (`condition_grade`, `condition_consequence`,
`condition_assessed_on`) in the same write, so the suggestion rules, imports, exports and the
API keep reading one row."""

from __future__ import annotations

import datetime
from typing import Any

from django.core.exceptions import ValidationError

from planning.core.validation import validated
from planning.core.writes import plan_write
from planning.models import ConditionSurvey, NodeKind, StructureNode

_NODE_CONDITION = ("condition_grade", "condition_consequence", "condition_assessed_on")


def _replaces_current(*, node: StructureNode, assessed_on: datetime.date) -> bool:
    """Whether a survey dated `assessed_on`, made now, is the node's latest: the node's current
    condition is its latest survey (or what an import or the desk form set), and a survey made
    now is later than it on the same date."""
    current = node.condition_assessed_on
    return node.condition_grade is None or current is None or assessed_on >= current


def survey_record(
    *,
    node: StructureNode,
    grade: int,
    consequence: int | None,
    note: str,
    assessed_on: datetime.date,
    by: Any,
    idempotency_key: str | None = None,
) -> tuple[ConditionSurvey, bool]:
    """Records a survey of the component `node` and returns it with True; with an
    `idempotency_key` the plan has already seen, returns that first survey and False, writing
    nothing (an offline entry sent twice). A survey older than the node's current condition is
    kept in its history of grades but leaves the current one: a grade made meanwhile by someone
    else is never overwritten by an older one. Raises ValidationError on a grade or consequence
    outside 0-3, a date out of range, a note too long, a node that is not a component, or a key
    already used for another component."""
    key = (idempotency_key or "").strip() or None
    if key is not None:
        replayed = _replayed(node=node, key=key)
        if replayed is not None:
            return replayed, False
    survey = ConditionSurvey(
        plan_id=node.plan_id,
        node=node,
        grade=grade,
        consequence=consequence,
        note=(note or "").strip(),
        assessed_on=assessed_on,
        assessed_by=by if getattr(by, "pk", None) is not None else None,
        idempotency_key=key,
    )
    validated(survey)
    if node.kind != NodeKind.COMPONENT:
        raise ValidationError({"grade": "Only a component has a condition grade."})
    with plan_write(plan_id=node.plan_id, data_changed=True):
        if key is not None:  # checked again under the plan's lock: two sends of one entry
            replayed = _replayed(node=node, key=key)
            if replayed is not None:
                return replayed, False
        current = (
            StructureNode.objects.filter(pk=node.pk, plan_id=node.plan_id)
            .only("pk", "kind", *_NODE_CONDITION)
            .first()
        )
        if current is None:
            raise ValidationError({"node": "The component no longer exists."})
        survey.save(force_insert=True)
        if _replaces_current(node=current, assessed_on=assessed_on):
            node.condition_grade = grade
            node.condition_consequence = consequence
            node.condition_assessed_on = assessed_on
            node.save(update_fields=[*_NODE_CONDITION, "updated_at"])
        else:
            for field in _NODE_CONDITION:
                setattr(node, field, getattr(current, field))
    return survey, True


def _replayed(*, node: StructureNode, key: str) -> ConditionSurvey | None:
    survey = ConditionSurvey.objects.filter(plan_id=node.plan_id, idempotency_key=key).first()
    if survey is not None and survey.node_id != node.pk:
        raise ValidationError(
            {"idempotency_key": "This entry's key was already used for another component."}
        )
    return survey

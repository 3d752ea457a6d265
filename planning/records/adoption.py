"""Adopting a version of a plan (docs/subsystems/versions.md).

`plan_adopt` copies the plan's nodes, actions and projects into the version's own tables with
one `INSERT ... SELECT` each, under the plan's lock, so a 20,000-node / 100,000-action plan is
adopted in about a second and the snapshot is exactly the plan at one moment.

A version's planned cost is the figure the plan list shows for the plan at adoption: today's
prices, every live occurrence of the ten years from the adoption's year
(planning.figures.totals), computed from the snapshot it keeps. Comparing versions is
planning.records.comparison's.
"""

from __future__ import annotations

import datetime
import uuid
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import Max
from django.dispatch import Signal
from django.utils import timezone

from accounts.models import User
from planning.core.writes import plan_lock
from planning.figures.totals import planned_total, ten_years
from planning.models import (
    Action,
    Plan,
    PlanVersion,
    Project,
    StructureNode,
    VersionAction,
)

# Sent inside the adoption's transaction with `plan_id` and `version` (the webhooks' outbox
# writes its `versions.adopted` event; planning never imports its listeners).
version_adopted = Signal()

NAME_MAX = 200
NOTE_MAX = 2000


def _db(value: uuid.UUID) -> Any:
    """A UUID as this database stores it (SQLite: 32 hex digits)."""
    return str(value) if connection.vendor == "postgresql" else value.hex


def plan_adopt(
    *,
    plan: Plan,
    name: str,
    decided_on: datetime.date | None = None,
    note: str = "",
    by: User | None = None,
) -> PlanVersion:
    """Adopts the plan as it stands: a new version with a snapshot of its data."""
    name = (name or "").strip()
    errors: dict[str, str] = {}
    if not name:
        errors["name"] = "Give the version a name, e.g. “Adopted by the board 2026”."
    elif len(name) > NAME_MAX:
        errors["name"] = f"At most {NAME_MAX} characters."
    if len(note or "") > NOTE_MAX:
        errors["note"] = f"At most {NOTE_MAX} characters."
    decided_on = decided_on or timezone.localdate()
    try:  # the shared bounds of a decision date (planning.models.PAST_DATE_VALIDATORS)
        PlanVersion._meta.get_field("decided_on").run_validators(decided_on)
    except ValidationError as error:
        errors["decided_on"] = " ".join(error.messages)
    if errors:
        raise ValidationError(errors)
    with transaction.atomic():
        plan_lock(plan_id=plan.pk)  # no change of the plan comes between the copies
        number = (plan.versions.aggregate(n=Max("number"))["n"] or 0) + 1
        version = PlanVersion.objects.create(
            plan=plan,
            number=number,
            name=name,
            decided_on=decided_on,
            note=(note or "").strip(),
            adopted_by=by,
            adopted_by_label=by.email if by is not None else "",
            currency=plan.currency,
            node_count=StructureNode.objects.filter(plan=plan).count(),
            action_count=Action.objects.filter(plan=plan).count(),
            project_count=Project.objects.filter(plan=plan).count(),
        )
        _snapshot(version, plan)
        version.total_cost = version_planned_cost(version=version)
        version.save(update_fields=["total_cost"])
        version_adopted.send(sender=PlanVersion, plan_id=plan.pk, version=version)
    return version


def version_planned_cost(*, version: PlanVersion) -> Decimal:
    """The version's planned cost: today's prices, the ten years from the adoption's year, from
    its snapshot (what the plan list showed for the plan then)."""
    year_from, year_to = version_cost_years(version)
    return planned_total(
        actions=VersionAction.objects.filter(version=version), year_from=year_from, year_to=year_to
    )


def version_cost_years(version: PlanVersion) -> tuple[int, int]:
    """The years of a version's planned cost: the ten from the year it was adopted in."""
    return ten_years(version.created_at.year)


def _snapshot(version: PlanVersion, plan: Plan) -> None:
    params = [_db(version.pk), _db(plan.pk)]
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO planning_versionnode "
            "(version_id, node_id, parent_id, building_id, name, kind, path) "
            "SELECT %s, n.id, n.parent_id, n.building_id, n.name, n.kind, n.path "
            "FROM planning_structurenode n WHERE n.plan_id = %s",
            params,
        )
        cursor.execute(
            "INSERT INTO planning_versionaction "
            "(version_id, action_id, node_id, building_id, title, kind, planned_year, "
            "estimated_cost, interval_years, status, project_id) "
            "SELECT %s, a.id, a.node_id, n.building_id, a.title, a.kind, a.planned_year, "
            "a.estimated_cost, a.interval_years, a.status, a.project_id "
            "FROM planning_action a JOIN planning_structurenode n ON n.id = a.node_id "
            "WHERE a.plan_id = %s",
            params,
        )
        cursor.execute(
            "INSERT INTO planning_versionproject (version_id, project_id, name, year) "
            "SELECT %s, p.id, p.name, p.year FROM planning_project p WHERE p.plan_id = %s",
            params,
        )

"""A node or action record of a plan document read into the row the write takes (`NodeRow`,
`ActionRow`): its fields typed and checked by the models' rules (a RecordReader of
planning.transfer.imports.records), a done action already moved on as Mark done moves it, its
work a `CompletionRow`. A record with a problem is noted in the ProblemCollector and gives no
row, or a blank one when its ref is usable: that still counts for the whole-plan checks
(planning.transfer.imports.plan_document), so one bad field does not also make every child and
action report a missing node."""

from __future__ import annotations

import datetime
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.core.exceptions import ValidationError

from planning.models import CENT, Action, ActionStatus, Completion, StructureNode, today
from planning.plans.services.actions import action_after_completion
from planning.transfer.imports.columns import ACTION_FIELDS, NODE_FIELDS
from planning.transfer.imports.records import ProblemCollector, RecordReader, describe


# slots: a plan at the limits holds 270,000 of these rows at once (docs/subsystems/imports.md).
@dataclass(frozen=True, slots=True)
class NodeRow:
    row: str
    ref: str
    parent_ref: str | None
    name: str
    kind: str
    code: str | None
    quantity: Decimal | None
    unit: str
    install_year: int | None
    address: str = ""
    gross_floor_area_m2: Decimal | None = None
    year_built: int | None = None
    condition_grade: int | None = None
    condition_assessed_on: datetime.date | None = None
    condition_consequence: int | None = None
    replacement_value: Decimal | None = None


@dataclass(frozen=True, slots=True)
class ActionRow:
    """An action as it is written: a done row already moved on (`action_after_completion`),
    its work in `completion` (None: no work recorded)."""

    row: str
    node_ref: str
    title: str
    kind: str
    planned_year: int
    estimated_cost: Decimal
    status: str
    interval_years: int | None = None
    completion: CompletionRow | None = None


@dataclass(frozen=True, slots=True)
class CompletionRow:
    """The work recorded on an imported action: its date, its cost, and the occurrence it did
    (`planned_year`, as Mark done keeps it)."""

    completed_on: datetime.date
    actual_cost: Decimal | None
    planned_year: int


def node_row_read(
    record: object, row: str, position: tuple[int, int], problems: ProblemCollector
) -> NodeRow | None:
    if not isinstance(record, Mapping):
        problems.add(position, row, "", f"must be an object, got {describe(record)}")
        return None
    reader = RecordReader(record, row, position, problems)
    reader.unknown_fields(NODE_FIELDS)
    ref = reader.text("ref", required=True)
    parent_ref = reader.text("parent_ref")
    name = reader.text("name", required=True)
    kind = reader.text("kind", required=True)
    code = reader.text("code")
    quantity = reader.amount("quantity")
    unit = reader.text("unit")
    install_year = reader.year("install_year")
    building = {
        "address": reader.text("address"),
        "gross_floor_area_m2": reader.amount("gross_floor_area_m2"),
        "year_built": reader.year("year_built"),
        "replacement_value": reader.amount("replacement_value"),
    }
    grade = reader.year("condition_grade", meaning="a grade from 0 to 3")
    assessed_on = reader.date("condition_assessed_on")
    consequence = reader.year("condition_consequence", meaning="a grade from 0 to 3")
    reader.model_rules(
        StructureNode,
        {
            "ref": ref,
            "name": name,
            "kind": kind,
            "quantity": quantity,
            "unit": unit,
            "install_year": install_year,
            **building,
            "condition_grade": grade,
            "condition_assessed_on": assessed_on,
            "condition_consequence": consequence,
        },
    )
    if not reader.valid:
        # A node with a usable ref still counts for the parent and action checks, so one bad
        # field does not also make every child and action report a missing node.
        if ref is None:
            return None
        return NodeRow(row, ref, parent_ref, "", "", code, None, "", None)
    return NodeRow(
        row,
        ref,
        parent_ref,
        name,
        kind,
        code,
        quantity,
        unit or "",
        install_year,
        address=building["address"] or "",
        gross_floor_area_m2=building["gross_floor_area_m2"],
        year_built=building["year_built"],
        replacement_value=building["replacement_value"],
        condition_grade=grade,
        condition_assessed_on=assessed_on,
        condition_consequence=consequence,
    )


def action_row_read(
    record: object, row: str, position: tuple[int, int], problems: ProblemCollector
) -> ActionRow | None:
    if not isinstance(record, Mapping):
        problems.add(position, row, "", f"must be an object, got {describe(record)}")
        return None
    reader = RecordReader(record, row, position, problems)
    reader.unknown_fields(ACTION_FIELDS)
    node_ref = reader.text("node_ref", required=True)
    title = reader.text("title", required=True)
    kind = reader.text("kind", required=True)
    planned_year = reader.year("planned_year", required=True)
    estimated_cost = reader.amount("estimated_cost")
    status = reader.text("status")
    interval_years = reader.year("interval_years", meaning="years between occurrences")
    completed_on = reader.date("completed_on")
    actual_cost = reader.amount("actual_cost")
    reader.model_rules(
        Action,
        {
            "title": title,
            "kind": kind,
            "planned_year": planned_year,
            "estimated_cost": estimated_cost,
            "status": status,
            "interval_years": interval_years,
        },
    )
    reader.model_rules(Completion, {"completed_on": completed_on, "actual_cost": actual_cost})
    status = status or ActionStatus.PLANNED.value
    completion: CompletionRow | None = None
    if reader.valid:
        assert planned_year is not None  # required: not None when valid
        status, planned_year, completion = _work_done(
            reader, status, planned_year, interval_years, completed_on, actual_cost
        )
    if not reader.valid:
        return None if node_ref is None else ActionRow(row, node_ref, "", "", 0, CENT, "")
    return ActionRow(
        row,
        node_ref,
        title,
        sys.intern(kind),  # a few distinct values, kept once each
        planned_year,  # type: ignore[arg-type]  # required: not None when valid
        estimated_cost if estimated_cost is not None else Decimal("0.00"),
        sys.intern(status),
        interval_years,
        completion,
    )


def _work_done(
    reader: RecordReader,
    status: str,
    planned_year: int,
    interval_years: int | None,
    completed_on: datetime.date | None,
    actual_cost: Decimal | None,
) -> tuple[str, int, CompletionRow | None]:
    """The row's status and planned year once its work is recorded, and that work
    (docs/subsystems/imports.md "Work done"). A done row becomes a Completion, dated
    `completed_on` or else 31 December of its planned year (today when that is still to come),
    and moves on as Mark done moves an action (`action_after_completion`): a one-off action is
    done, a recurring one planned again at the completion's year + its interval. Another row
    with `completed_on` keeps its status and year, and its completion is recorded as it stands:
    that is how the export writes an action marked done and then moved on or reopened."""
    if status == ActionStatus.DONE:
        done_on = completed_on or min(datetime.date(planned_year, 12, 31), today())
        status, next_year = action_after_completion(
            planned_year=planned_year, interval_years=interval_years, completed_on=done_on
        )
        if next_year != planned_year:
            try:
                Action._meta.get_field("planned_year").run_validators(next_year)
            except ValidationError as error:
                reader.problem(
                    "completed_on",
                    f"moves the recurring action on to {next_year} (the completion's year + "
                    f"interval_years): {' '.join(error.messages)}",
                )
        return status, next_year, CompletionRow(done_on, actual_cost, planned_year)
    if completed_on is not None:
        # The occurrence done: a one-off action's year; a recurring action moved on from the
        # completion's year (Mark done's next year is the completion's year + its interval).
        done_year = planned_year if interval_years is None else completed_on.year
        return status, planned_year, CompletionRow(completed_on, actual_cost, done_year)
    if actual_cost is not None:
        reader.problem(
            "actual_cost",
            "is the cost of work done: give its completed_on too, or the status done",
        )
    return status, planned_year, None

"""Comparing two sides of a plan, each the living plan or an adopted version
(docs/subsystems/versions.md; adopting one is planning.records.adoption's).

`versions_compare` finds the actions added (on the newer side only), removed (on the older side
only) and changed (cost, year, repeat, status, node, building, title), matched by the action's
id, and the totals per year of both in today's prices (planning.figures.occurrences.year_cents
on each side's actions or snapshot, as every figure is summed), with their difference. A
recurring action marked done between the two sides moves its year on: that change reads as done
(with the completion's date), not as a changed year. Under a building filter the totals are that
building's on each side, and the actions are those in the building on either side: one moved to
another building reads as changed (node, building) under both buildings, never as added or
removed. One read of each side's actions (eight columns; under a filter, the building's, then by
id the other side's state of those in it on one side only), compared in memory.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.db.models import BigIntegerField, CharField, F, QuerySet
from django.db.models.functions import Cast, Round

from planning.core.money import amount_of
from planning.figures.occurrences import live_in_range, year_cents
from planning.models import (
    Action,
    ActionStatus,
    Completion,
    Plan,
    PlanVersion,
    StructureNode,
    VersionAction,
    VersionNode,
)
from planning.tree.selectors import building_labels

# A changed field's name in a comparison (the cost is compared in cents).
FIELD_NAMES = {"cost_cents": "estimated_cost"}
COMPARED_FIELDS = (
    ("planned_year", "Year"),
    ("cost_cents", "Estimated cost"),
    ("interval_years", "Repeats every (years)"),
    ("status", "Status"),
    ("node_id", "Node"),
    ("building_id", "Building"),
    ("title", "Title"),
)
# What an added or removed action's row says changed.
NEW_ACTION = "new action"
DELETED_ACTION = "deleted"


@dataclass(frozen=True)
class Side:
    """One side of a comparison: the living plan (version None) or a version."""

    plan: Plan
    version: PlanVersion | None = None

    @property
    def label(self) -> str:
        if self.version is None:
            return "the plan now"
        return f"version {self.version.number} “{self.version.name}”"


@dataclass(frozen=True)
class ActionState:
    """One action on one side, as the database hands it over fastest: ids as text (each
    database's own spelling, the same on both sides) and the cost in whole cents."""

    action_id: str
    title: str
    node_id: str
    building_id: str | None
    planned_year: int
    cost_cents: int
    interval_years: int | None
    status: str

    @property
    def uuid(self) -> uuid.UUID:
        return uuid.UUID(self.action_id)

    @property
    def estimated_cost(self) -> Decimal:
        return amount_of(self.cost_cents)

    @property
    def status_label(self) -> str:
        """The status in words ("Planned", "Done", "Cancelled"); a version keeps what it was
        given, so a status the app no longer knows is shown as stored, never an error."""
        if self.status not in ActionStatus.values:
            return self.status
        return str(ActionStatus(self.status).label)


@dataclass
class ActionDifference:
    kind: str  # added, removed, changed
    before: ActionState | None
    after: ActionState | None
    fields: list[str] = field(default_factory=list)  # changed fields (COMPARED_FIELDS)
    # A recurring action marked done between the two sides: the date of the last completion
    # recorded (its year moved on because of it, or stayed when done a whole interval early).
    completed_on: datetime.date | None = None

    @property
    def what(self) -> str:
        """What changed, in words: "done 2026-05-04", "year, estimated cost" (empty for an
        added or removed action: `summary` says those too)."""
        labels = {FIELD_NAMES.get(name, name): label for name, label in COMPARED_FIELDS}
        words = [labels[name].lower() for name in self.fields]
        if self.completed_on is not None:
            # The completion explains the new year unless the year was changed again since.
            explained = (
                self.after is not None
                and self.after.interval_years is not None
                and self.after.planned_year == self.completed_on.year + self.after.interval_years
            )
            words = [f"done {self.completed_on.isoformat()}"] + [
                word for word in words if not (explained and word == labels["planned_year"].lower())
            ]
        return ", ".join(words)

    @property
    def summary(self) -> str:
        """What changed for every kind of row: "new action", "deleted", or `what`."""
        if self.kind == "added":
            return NEW_ACTION
        if self.kind == "removed":
            return DELETED_ACTION
        return self.what

    @property
    def state(self) -> ActionState:
        state = self.after or self.before
        assert state is not None
        return state


@dataclass
class Comparison:
    old: Side
    new: Side
    years: list[int]
    old_totals: list[Decimal]
    new_totals: list[Decimal]
    differences: list[ActionDifference]
    node_names: dict[str, str]  # by the id's text
    building_names: dict[str, str]

    @property
    def year_rows(self) -> list[tuple[int, Decimal, Decimal, Decimal]]:
        return [
            (year, old, new, new - old)
            for year, old, new in zip(self.years, self.old_totals, self.new_totals, strict=True)
        ]

    def count(self, kind: str) -> int:
        return sum(1 for d in self.differences if d.kind == kind)

    @property
    def count_added(self) -> int:
        return self.count("added")

    @property
    def count_removed(self) -> int:
        return self.count("removed")

    @property
    def count_changed(self) -> int:
        return self.count("changed")

    @property
    def old_total(self) -> Decimal:
        return sum(self.old_totals, Decimal(0))

    @property
    def new_total(self) -> Decimal:
        return sum(self.new_totals, Decimal(0))

    @property
    def total_difference(self) -> Decimal:
        return self.new_total - self.old_total


def _text(name: str) -> Cast:
    return Cast(name, output_field=CharField())


def _cents(name: str) -> Cast:
    return Cast(Round(F(name) * 100), output_field=BigIntegerField())


Row = tuple[Any, ...]  # an ActionState's fields, in order


def _side_actions(side: Side) -> tuple[QuerySet[Any], str, str]:
    """The side's actions (the plan's or the version's snapshot) and the names of their id and
    stored building columns."""
    if side.version is None:
        return Action.objects.filter(plan=side.plan).order_by(), "id", "node__building_id"
    return (
        VersionAction.objects.filter(version=side.version).order_by(),
        "action_id",
        "building_id",
    )


def _in_building(side: Side, building: uuid.UUID) -> QuerySet[Any]:
    actions, _, building_column = _side_actions(side)
    return actions.filter(**{building_column: building})


# Ids looked up at once on the other side (well under the bound of query parameters).
IDS_PER_READ = 2000


def _states(side: Side, building: uuid.UUID | None) -> dict[str, Row]:
    """The side's actions by id (those of one building when given): one read of eight
    columns, no UUID or Decimal made per row (at 100,000 actions those cost more than the
    comparison)."""
    actions = _side_actions(side)[0] if building is None else _in_building(side, building)
    return _rows(side, actions)


def _states_of(side: Side, action_ids: Iterable[str]) -> dict[str, Row]:
    """These actions of the side, whichever building they are in (ids as the database
    spells them), read IDS_PER_READ at a time."""
    actions, id_column, _ = _side_actions(side)
    keys = [uuid.UUID(key) for key in action_ids]
    found: dict[str, Row] = {}
    for start in range(0, len(keys), IDS_PER_READ):
        chunk = keys[start : start + IDS_PER_READ]
        found.update(_rows(side, actions.filter(**{f"{id_column}__in": chunk})))
    return found


def _rows(side: Side, actions: QuerySet[Any]) -> dict[str, Row]:
    _, id_column, building_column = _side_actions(side)
    rows: Iterable[tuple[Any, ...]] = actions.values_list(
        _text(id_column),
        "title",
        _text("node_id"),
        _text(building_column),
        "planned_year",
        _cents("estimated_cost"),
        "interval_years",
        "status",
    )
    return {row[0]: row for row in rows}


def _totals(side: Side, building: uuid.UUID | None, years: list[int]) -> list[Decimal]:
    """The side's planned cost per year (today's prices), summed as every figure is: the
    building's when one is given (its stored building on that side)."""
    actions = _side_actions(side)[0] if building is None else _in_building(side, building)
    live = live_in_range(actions, year_from=years[0], year_to=years[-1])
    return year_cents(live, key=None, years=years).amounts(None)


def _completions_between(old: Side, new: Side) -> dict[str, datetime.date]:
    """The date of the last completion recorded for each action after `old` was taken and
    before `new` was (the living plan: until now), by the action id's text (the one Mark done
    last recorded is the one that moved a recurring action's year).

    The read is bounded by those times alone, not joined to the plan's actions: the caller
    looks up only its own actions, and the join walks every action of the plan (at 100,000
    actions and 30,000 completions on SQLite, 150 ms against 3 ms for the window)."""
    if old.version is None:
        return {}
    completions = Completion.objects.filter(created_at__gt=old.version.created_at)
    if new.version is not None:
        completions = completions.filter(created_at__lt=new.version.created_at)
    found: dict[str, datetime.date] = {}
    for action_id, completed_on in completions.order_by("created_at", "pk").values_list(
        "action_id", "completed_on"
    ):
        for spelling, _ in _spellings(action_id, ""):
            found[spelling] = completed_on
    return found


# Where each compared field sits in a Row.
_POSITIONS = {name: index for index, name in enumerate(ActionState.__dataclass_fields__)}


def versions_compare(
    *, old: Side, new: Side, years: list[int], building: uuid.UUID | None = None
) -> Comparison:
    """What changed from `old` to `new` (each the living plan or a version of the same plan),
    for the actions of one building (its stored building on either side) when `building` is
    given."""
    before, after = _states(old, building), _states(new, building)
    if building is not None:
        # An action moved into or out of the building is in it on one side only: the other
        # side's state of it is read too (by id), so it is compared, not added or removed.
        before.update(_states_of(old, [key for key in after if key not in before]))
        after.update(_states_of(new, [key for key in before if key not in after]))
    differences: list[ActionDifference] = []
    for action_id, row in after.items():
        previous = before.get(action_id)
        if previous is None:
            differences.append(ActionDifference("added", None, ActionState(*row)))
        elif previous != row:  # most rows are equal: fields are compared only when not
            changed = [
                FIELD_NAMES.get(name, name)
                for name, _ in COMPARED_FIELDS
                if previous[_POSITIONS[name]] != row[_POSITIONS[name]]
            ]
            if changed:
                differences.append(
                    ActionDifference("changed", ActionState(*previous), ActionState(*row), changed)
                )
    differences.extend(
        ActionDifference("removed", ActionState(*row), None)
        for action_id, row in before.items()
        if action_id not in after
    )
    _recurring_completions_mark(differences, before, after, _completions_between(old, new))
    differences.sort(
        key=lambda d: (
            {"added": 0, "removed": 1, "changed": 2}[d.kind],
            d.state.planned_year,
            d.state.title,
        )
    )
    node_ids = {
        state.node_id for d in differences for state in (d.before, d.after) if state is not None
    }
    building_ids = {
        state.building_id
        for d in differences
        for state in (d.before, d.after)
        if state is not None and state.building_id is not None
    }
    return Comparison(
        old=old,
        new=new,
        years=years,
        old_totals=_totals(old, building, years),
        new_totals=_totals(new, building, years),
        differences=differences,
        node_names=_node_names(old, new, node_ids),
        building_names=_building_names(old.plan, old, new, building_ids),
    )


def _recurring_completions_mark(
    differences: list[ActionDifference],
    before: dict[str, Row],
    after: dict[str, Row],
    completed: dict[str, datetime.date],
) -> None:
    """A recurring action marked done between the two sides reads as done on its date: its
    row (a changed year, mostly) gets the date, and one with nothing else changed (done in
    the year before its next occurrence, which stays) gets a row of its own."""
    if not completed:
        return
    changed = {d.state.action_id: d for d in differences if d.kind == "changed"}
    interval = _POSITIONS["interval_years"]
    for action_id, completed_on in completed.items():  # each id under both spellings
        row = after.get(action_id)
        if row is None or row[interval] is None or action_id not in before:
            continue
        difference = changed.get(action_id)
        if difference is None:
            difference = ActionDifference(
                "changed", ActionState(*before[action_id]), ActionState(*row)
            )
            differences.append(difference)
        difference.completed_on = completed_on


def _spellings(key: uuid.UUID, name: str) -> Iterable[tuple[str, str]]:
    """A name under both spellings of its id (PostgreSQL's text, SQLite's 32 hex digits)."""
    return ((str(key), name), (key.hex, name))


def _node_names(old: Side, new: Side, node_ids: set[str]) -> dict[str, str]:
    """Each node's name, the living plan's when it still has it, else the versions'."""
    ids = [uuid.UUID(key) for key in node_ids]
    names: dict[str, str] = {}
    for side in (old, new):
        if side.version is not None:
            for key, name in VersionNode.objects.filter(
                version=side.version, node_id__in=ids
            ).values_list("node_id", "name"):
                names.update(_spellings(key, name))
    for key, name in StructureNode.objects.filter(pk__in=ids).values_list("pk", "name"):
        names.update(_spellings(key, name))
    return names


def _building_names(plan: Plan, old: Side, new: Side, building_ids: set[str]) -> dict[str, str]:
    names = _node_names(old, new, building_ids)
    labels = building_labels(plan=plan, building_ids=[uuid.UUID(key) for key in building_ids])
    for key, label in labels.items():
        names.update(_spellings(key, label))
    return names

"""Adopted versions and their comparison (docs/design.md "Versions").

`plan_adopt` copies the plan's nodes, actions and projects into the version's own tables with
one `INSERT ... SELECT` each, under the plan's lock, so a 20,000-node / 100,000-action plan is
adopted in about a second and the snapshot is exactly the plan at one moment.

A version's planned cost is the figure the plan list shows for the plan at adoption: today's
prices, every live occurrence of the ten years from the adoption's year
(planning.figures.totals), computed from the snapshot it keeps.

`versions_compare` compares two sides, each the living plan or a version: actions added (on the
newer side only), removed (on the older side only) and changed (cost, year, repeat, status,
node, building, title), matched by the action's id, and the totals per year of both in today's
prices (planning.figures.occurrences.year_cents on each side's actions or snapshot, as every
figure is summed), with their difference. A recurring action marked done between the two sides
moves its year on: that change reads as done (with the completion's date), not as a changed
year. Under a building filter the totals are that building's on each side, and the actions are
those in the building on either side: one moved to another building reads as changed (node,
building) under both buildings, never as added or removed. One read of each side's actions
(eight columns; under a filter, the building's, then by id the other side's state of those in
it on one side only), compared in memory.
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.db.models import BigIntegerField, CharField, F, Max, QuerySet
from django.db.models.functions import Cast, Round
from django.utils import timezone

from accounts.models import User
from planning.core.money import amount_of
from planning.core.writes import plan_lock
from planning.figures.occurrences import live_in_range, year_cents
from planning.figures.totals import planned_total, ten_years
from planning.models import (
    Action,
    ActionStatus,
    Completion,
    Plan,
    PlanVersion,
    Project,
    StructureNode,
    VersionAction,
    VersionNode,
)
from planning.tree.selectors import building_labels

# A changed field's name in a comparison (the cost is compared in cents).
FIELD_NAMES = {"cost_cents": "estimated_cost"}
NAME_MAX = 200
NOTE_MAX = 2000
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


# --- comparison ---------------------------------------------------------------------------


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


def comparison_rows(comparison: Comparison) -> list[tuple[Any, ...]]:
    """The comparison as export rows: a header, one row per differing action (statuses in
    words, what changed in words), then the totals per year."""
    old, new = comparison.old.label, comparison.new.label

    def node(state: ActionState | None) -> str:
        return comparison.node_names.get(state.node_id, "") if state else ""

    def building(state: ActionState | None) -> str:
        if state is None or state.building_id is None:
            return ""
        return comparison.building_names.get(state.building_id, "")

    rows: list[tuple[Any, ...]] = [
        (
            "Change",
            "Action id",
            "Title",
            f"Building ({old})",
            f"Building ({new})",
            f"Node ({old})",
            f"Node ({new})",
            f"Year ({old})",
            f"Year ({new})",
            f"Estimated cost ({comparison.old.plan.currency}, today's prices, {old})",
            f"Estimated cost ({comparison.old.plan.currency}, today's prices, {new})",
            f"Status ({old})",
            f"Status ({new})",
            "Changed fields",
        )
    ]
    for d in comparison.differences:
        b, a = d.before, d.after
        rows.append(
            (
                d.kind,
                str(d.state.uuid),
                d.state.title,
                building(b),
                building(a),
                node(b),
                node(a),
                b.planned_year if b else "",
                a.planned_year if a else "",
                b.estimated_cost if b else "",
                a.estimated_cost if a else "",
                b.status_label if b else "",
                a.status_label if a else "",
                d.summary,
            )
        )
    rows.append(())
    blank = ("",) * 8  # the totals sit under the estimated costs
    prices = f"{comparison.old.plan.currency}, today's prices"
    rows.append(
        (
            "Year",
            *blank,
            f"Planned cost ({prices}, {old})",
            f"Planned cost ({prices}, {new})",
            "Difference",
        )
    )
    for year, before, after, difference in comparison.year_rows:
        rows.append((year, *blank, before, after, difference))
    rows.append(
        ("Total", *blank, comparison.old_total, comparison.new_total, comparison.total_difference)
    )
    return rows

"""Reading a plan's history (docs/subsystems/history.md): the entries of a plan, a node or an
action, filtered and paged newest first, and each entry's changes in words.

Pages are keyset pages on the entry id (ids grow with time: the newest first, `before` the
last id shown), so a plan with a million entries answers a page with one index range read and no
count. References (a node's parent, an action's node or project, a grant's person) are shown by
name: the ids of one page are read in one query per model.
"""

from __future__ import annotations

import datetime
import json
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Any

from django.db.models import Q, QuerySet
from django.utils import timezone

from accounts.models import User
from planning.core.money import money_format
from planning.models import (
    Action,
    ActionKind,
    ActionStatus,
    AttachmentKind,
    Code,
    FundingGoal,
    HistoryEntity,
    HistoryEntry,
    HistoryOperation,
    NodeKind,
    Plan,
    PlanRole,
    Project,
    StructureNode,
)

PAGE_SIZE = 50

# Field names in words, by entity; a field not listed is shown by its column name.
FIELD_LABELS: dict[str, str] = {
    "name": "Name",
    "description": "Description",
    "organisation_id": "Organisation",
    "currency": "Currency",
    "price_base_year": "Price base year",
    "index_rate_percent": "Index rate (%)",
    "markups": "Markups",
    "overhead_percent": "Overhead (%)",
    "vat_percent": "VAT (%)",
    "annual_budget": "Annual budget",
    "parent_id": "Parent",
    "kind": "Kind",
    "code_id": "Code",
    "quantity": "Quantity",
    "unit": "Unit",
    "install_year": "Install year",
    "ref": "Ref",
    "address": "Address",
    "gross_floor_area_m2": "Gross floor area (m²)",
    "year_built": "Year built",
    "condition_grade": "Condition grade",
    "condition_assessed_on": "Condition assessed on",
    "condition_consequence": "Consequence grade",
    "original_name": "File",
    "content_type": "Type",
    "size": "Size (bytes)",
    "action_id": "Action",
    "replacement_value": "Replacement value",
    "node_id": "Node",
    "title": "Title",
    "planned_year": "Planned year",
    "estimated_cost": "Estimated cost",
    "interval_years": "Repeats every (years)",
    "status": "Status",
    "project_id": "Project",
    "year": "Year",
    "user_id": "Person",
    "role": "Role",
    "completed_on": "Completed on",
    "actual_cost": "Actual cost",
    "by_id": "Recorded by",
    "dismiss_reason": "Reason",
    "dismiss_comment": "Comment",
    "opening_balance": "Opening balance",
    "start_year": "Start year",
    "interest_percent": "Interest (%)",
    "contribution": "Contribution",
    "contribution_increase_percent": "Yearly increase of the contribution (%)",
    "horizon_years": "Horizon (years)",
    "threshold_amount": "Threshold: lowest balance",
    "threshold_percent": "Threshold: lowest percent funded",
    "goal": "Goal",
    "goal_threshold": "Goal's threshold",
}
MONEY_FIELDS = {
    "estimated_cost",
    "actual_cost",
    "annual_budget",
    "opening_balance",
    "contribution",
    "threshold_amount",
    "replacement_value",
}
CHOICES: dict[str, dict[str, str]] = {
    "kind": {**dict(NodeKind.choices), **dict(ActionKind.choices), **dict(AttachmentKind.choices)},
    "status": {**dict(ActionStatus.choices), "open": "Open", "dismissed": "Dismissed"},
    "role": dict(PlanRole.choices),
    "goal": dict(FundingGoal.choices),
}
REFERENCES: dict[str, type[Any]] = {
    "parent_id": StructureNode,
    "node_id": StructureNode,
    "action_id": Action,
    "project_id": Project,
    "code_id": Code,
    "user_id": User,
    "by_id": User,
}


@dataclass(frozen=True)
class HistoryFilters:
    person: str = ""  # part of the actor's label (an email, a service account's name)
    entity: str = ""  # a HistoryEntity value
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None
    entity_id: uuid.UUID | None = None  # one node's or action's entries


@dataclass
class Change:
    field: str
    label: str
    before: str
    after: str


@dataclass
class EntryView:
    entry: HistoryEntry
    changes: list[Change] = field(default_factory=list)

    @property
    def what(self) -> str:
        entry = self.entry
        if entry.operation == HistoryOperation.IMPORT:
            return entry.summary
        entity = HistoryEntity(entry.entity).label
        name = f" “{entry.entity_label}”" if entry.entity_label else ""
        if entry.entity == HistoryEntity.COMPLETION:
            verb = {"create": "recorded", "update": "changed", "delete": "undone"}[entry.operation]
            return f"Work done on{name} {verb}"
        if entry.entity == HistoryEntity.SUGGESTION:
            after = entry.changes.get("status", [None, None])[1]
            return f"Suggestion{name} {'dismissed' if after == 'dismissed' else 'restored'}"
        return f"{entity}{name} {HistoryOperation(entry.operation).label}"

    @property
    def who(self) -> str:
        entry = self.entry
        if entry.actor_kind == "system":
            return "system (outside the app)"
        return entry.actor_label or entry.get_actor_kind_display()


def plan_history(*, plan: Plan, filters: HistoryFilters) -> QuerySet[HistoryEntry]:
    """The plan's entries matching `filters`, newest first."""
    entries = HistoryEntry.objects.filter(plan_id=plan.pk)
    if filters.person:
        entries = entries.filter(actor_label__icontains=filters.person)
    if filters.entity:
        entries = entries.filter(entity=filters.entity)
    if filters.date_from:
        entries = entries.filter(at__gte=_day_start(filters.date_from))
    if filters.date_to:
        entries = entries.filter(at__lt=_day_start(filters.date_to + datetime.timedelta(days=1)))
    if filters.entity_id:
        entries = entries.filter(
            Q(entity_uuid=filters.entity_id) | Q(subject_uuid=filters.entity_id)
        )
    return entries.order_by("-id")


def _day_start(day: datetime.date) -> datetime.datetime:
    return timezone.make_aware(datetime.datetime.combine(day, datetime.time.min))


def history_page(
    entries: QuerySet[HistoryEntry], *, before: int | None, size: int = PAGE_SIZE
) -> tuple[list[HistoryEntry], int | None]:
    """One page of `entries` (newest first) below the id `before`, and the id to ask the next
    page with (None: this is the last)."""
    if before is not None:
        entries = entries.filter(id__lt=before)
    page = list(entries[: size + 1])
    if len(page) > size:
        return page[:size], page[size - 1].pk
    return page, None


def entity_history(*, plan: Plan, entity_id: uuid.UUID, limit: int = 20) -> list[EntryView]:
    """A node's or an action's latest entries (an action's completions included); a row that
    came in with an import has no entry of its own, so the plan's import entry stands for it."""
    entries = list(plan_history(plan=plan, filters=HistoryFilters(entity_id=entity_id))[:limit])
    if not any(
        e.operation == HistoryOperation.CREATE and e.entity_uuid == entity_id for e in entries
    ):
        imported = (
            HistoryEntry.objects.filter(plan_id=plan.pk, operation=HistoryOperation.IMPORT)
            .order_by("id")
            .first()
        )
        if imported is not None and len(entries) < limit:
            entries.append(imported)
    return entries_described(entries)


def entries_described(entries: Iterable[HistoryEntry]) -> list[EntryView]:
    """Each entry with its changes in words; referenced rows by name (one query per model)."""
    entries = list(entries)
    wanted: dict[type[Any], set[str]] = {}
    for entry in entries:
        for name, pair in entry.changes.items():
            model = REFERENCES.get(name)
            if model is not None:
                wanted.setdefault(model, set()).update(str(v) for v in pair if v is not None)
    names: dict[str, str] = {}
    for model, keys in wanted.items():
        names.update(_names(model, keys))
    return [
        EntryView(
            entry=entry,
            changes=[
                Change(
                    field=name,
                    label=FIELD_LABELS.get(name, name),
                    before=_value(name, pair[0], names),
                    after=_value(name, pair[1], names),
                )
                for name, pair in entry.changes.items()
            ],
        )
        for entry in entries
    ]


def _names(model: type[Any], keys: set[str]) -> Iterator[tuple[str, str]]:
    if model is User:
        ints = [int(key) for key in keys if key.isdigit()]
        for pk, email in User.objects.filter(pk__in=ints).values_list("pk", "email"):
            yield str(pk), email
        return
    ids = []
    for key in keys:
        try:
            ids.append(uuid.UUID(key))
        except ValueError:
            continue
    label = "code" if model is Code else "title" if model is Action else "name"
    for pk, name in model.objects.filter(pk__in=ids).values_list("pk", label):
        yield str(pk), name
        yield pk.hex, name  # SQLite's triggers write an id as 32 hex digits


def _markups_text(value: Any) -> str:
    """A plan's markups as a person reads them: "Overhead 10 %, VAT 25 %" (SQLite's triggers
    keep the column's JSON as text, PostgreSQL's as JSON)."""
    try:
        markups = json.loads(value) if isinstance(value, str) else value
        return (
            ", ".join(
                f"{m['name']} {Decimal(str(m['percent'])).normalize():f}\u00a0%" for m in markups
            )
            or "none"
        )
    except (ValueError, TypeError, KeyError, InvalidOperation):
        return str(value)


def _value(name: str, value: Any, names: dict[str, str]) -> str:
    if value is None or value == "":
        return "\u2013"
    if name == "markups":
        return _markups_text(value)
    if name in REFERENCES:
        return names.get(str(value), "(deleted)")
    if name in MONEY_FIELDS:
        try:
            return money_format(Decimal(str(value)))
        except InvalidOperation:
            return str(value)
    if name in CHOICES:
        return CHOICES[name].get(str(value), str(value))
    return str(value)


def history_csv_rows(entries: QuerySet[HistoryEntry]) -> Iterator[list[str]]:
    """The CSV export: a header, then one line per changed field (an import: one line), read
    in chunks of 2,000 entries."""
    yield [
        "When (UTC)",
        "Who",
        "Actor kind",
        "What",
        "Entity",
        "Entity id",
        "Field",
        "Before",
        "After",
    ]
    chunk: list[HistoryEntry] = []
    for entry in entries.iterator(chunk_size=2000):
        chunk.append(entry)
        if len(chunk) == 2000:
            yield from _csv_lines(chunk)
            chunk = []
    yield from _csv_lines(chunk)


def _csv_lines(entries: list[HistoryEntry]) -> Iterator[list[str]]:
    for view in entries_described(entries):
        entry = view.entry
        key = str(entry.entity_uuid or entry.entity_int or "")
        head = [
            entry.at.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S"),
            view.who,
            entry.get_actor_kind_display(),
            view.what,
            entry.get_entity_display(),
            key,
        ]
        if not view.changes:
            yield [*head, "", "", ""]
        for change in view.changes:
            yield [*head, change.label, change.before, change.after]

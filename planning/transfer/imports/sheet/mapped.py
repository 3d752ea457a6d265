"""One sheet's rows, with a person's mapping of its columns, as the plan document every import
ends in (docs/subsystems/import-mapping.md "From rows to a plan").

The place columns make the nodes: a row's places, from the top down, are a path; the same name
(case aside) under the same parent is one node, made at the first row that names it, with the
kind of its column (Site, Building, System, Component). The deepest place of a row is where its
action goes and what its component's facts (code, quantity, unit, install year, condition)
describe; a later row that gives one of them differently is a problem. A row with a title (or
any other action value) is an action; a row without makes only its places.

Two passes over the file, as the other table formats read theirs: the first makes the nodes
(at most the plan's limit of them are kept) and counts the actions; the second reads each
action as plan_records_import checks it, so the actions are never all in memory as records.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from itertools import chain, islice

from django.conf import settings

from accounts.models import User
from organisations.models import Organisation
from planning.models import ActionKind, Plan
from planning.transfer.imports.plan_document import plan_records_import
from planning.transfer.imports.plan_fields import plan_fields_read
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.progress import ImportObserver
from planning.transfer.imports.records import CountedRecords, ProblemCollector, Record
from planning.transfer.imports.sheet import values
from planning.transfer.imports.sheet.fields import (
    ACTION_VALUE_FIELDS,
    FIELDS_BY_KEY,
    IGNORE,
    NODE_VALUE_FIELDS,
    PLACE_FIELDS,
    PLACE_KINDS,
)
from planning.transfer.imports.sheet.source import Rows, SheetSource, sheet_source
from planning.transfer.imports.tables import plan_name_from_file

# An action row without a kind: what a maintenance plan's rows mostly are.
KIND_DEFAULT = ActionKind.REPLACEMENT.value


def header_titles(cells: Sequence[object]) -> list[str]:
    """The header row's titles, the empty ones a spreadsheet writes at its end left out."""
    titles = [values.text(cell) or "" for cell in cells]
    while titles and not titles[-1]:
        titles.pop()
    return titles


def mapping_problems(columns: Sequence[str], headers: Sequence[str]) -> list[str]:
    """What is wrong with a mapping as a whole: no place column, a field chosen twice."""
    problems: list[str] = []
    if len(columns) != len(headers):
        problems.append(f"The mapping has {len(columns)} columns; the file has {len(headers)}.")
        return problems
    for field in columns:
        if field != IGNORE and field not in FIELDS_BY_KEY:
            problems.append(f'"{field}" is no field of a plan.')
    if not any(field in PLACE_FIELDS for field in columns):
        problems.append(
            "Choose a place column (Site, Building, Part or Component): the plan's nodes "
            "come from them."
        )
    for field in dict.fromkeys(columns):
        chosen = [headers[index] for index, each in enumerate(columns) if each == field]
        if field != IGNORE and len(chosen) > 1:
            label = FIELDS_BY_KEY[field].label if field in FIELDS_BY_KEY else field
            named = " and ".join(f'"{title}"' for title in chosen)
            problems.append(f"{label} is chosen for more than one column ({named}).")
    return problems


class ColumnProblems(ProblemCollector):
    """The import's problems named by the sheet's own column titles ("År" rather than
    planned_year) and by row alone (the nodes' refs are made here, not the file's)."""

    def __init__(self, columns: Sequence[str], headers: Sequence[str]) -> None:
        super().__init__()
        self.names = {field.column: field.label for field in FIELDS_BY_KEY.values() if field.column}
        self.names.update({"name": "place", "ref": "place", "node_ref": "place"})
        for field, title in zip(columns, headers, strict=False):
            if field in FIELDS_BY_KEY and FIELDS_BY_KEY[field].column:
                self.names[FIELDS_BY_KEY[field].column] = title or FIELDS_BY_KEY[field].label

    def add(
        self, position: tuple[int, int], row: str, field: str, message: str, ref: str = ""
    ) -> None:
        super().add(position, row, self.names.get(field, field), message)


class SheetPlan:
    """The nodes of a sheet's rows and the reading of its actions (see the module's docstring)."""

    def __init__(
        self,
        columns: Sequence[str],
        headers: Sequence[str],
        *,
        decimal_comma: bool,
        problems: ProblemCollector,
    ) -> None:
        self.headers = list(headers)
        self.at = {field: index for index, field in enumerate(columns) if field != IGNORE}
        self.places = [field for field in PLACE_FIELDS if field in self.at]
        self.decimal_comma = decimal_comma
        self.problems = problems
        self.node_records: list[tuple[str, dict[str, object]]] = []
        self.nodes: dict[tuple[str | None, str], str] = {}
        self.actions = 0
        self.currency: str | None = None
        self.currency_where = ""
        cost = self.at.get("cost")
        if cost is not None and "currency" not in self.at:
            self._currency_seen(values.currency_named(headers[cost]), f'column "{headers[cost]}"')

    def _cell(self, cells: Sequence[object], field: str) -> object:
        index = self.at.get(field)
        return cells[index] if index is not None and index < len(cells) else None

    def _currency_seen(self, found: str | None, where: str, number: int = 0) -> None:
        if found is None:
            return
        if self.currency is None:
            self.currency, self.currency_where = found, where
        elif found != self.currency and number:
            message = f"is {found}, where {self.currency_where} is {self.currency}; a plan has one"
            self.problems.add((1, number), f"row {number}", "currency", message)

    def read(self, number: int, cells: Sequence[object], *, make: bool) -> tuple[str, bool] | None:
        """The row's deepest node (its ref; made with `make`) and whether it is an action; None
        for a row without a place (a problem, with `make`)."""
        ref: str | None = None
        for level in self.places:
            name = values.text(self._cell(cells, level))
            if name is None:
                continue
            key = (ref, name.casefold())
            found = self.nodes.get(key)
            if found is None:
                if not make:
                    return None
                found = f"N{len(self.nodes) + 1}"
                self.nodes[key] = found
                record: dict[str, object] = {"ref": found, "name": name}
                record["kind"] = PLACE_KINDS[level]
                if ref is not None:
                    record["parent_ref"] = ref
                self.node_records.append((f"row {number}", record))
            ref = found
        is_action = any(
            values.text(self._cell(cells, field)) is not None
            for field in ACTION_VALUE_FIELDS
            if field in self.at
        )
        if ref is None:
            if make:
                titles = ", ".join(f'"{self.headers[self.at[level]]}"' for level in self.places)
                message = f"has no place: fill in at least one of {titles}"
                self.problems.add((1, number), f"row {number}", "", message)
            return None
        if make:
            self._node_values(number, cells, ref)
            if "currency" in self.at:
                found_currency = values.text(self._cell(cells, "currency"))
                where = f"row {number}"
                self._currency_seen(found_currency and found_currency.upper(), where, number)
            elif "cost" in self.at and isinstance(cost := self._cell(cells, "cost"), str):
                self._currency_seen(values.currency_named(cost), f"row {number}", number)
        return ref, is_action

    def _node_values(self, number: int, cells: Sequence[object], ref: str) -> None:
        record = self.record_of(ref)
        for field in NODE_VALUE_FIELDS:
            if field not in self.at:
                continue
            value = self._node_value(field, self._cell(cells, field))
            if value is None:
                continue
            column = FIELDS_BY_KEY[field].column
            if column not in record:
                record[column] = value
            elif record[column] != value:
                message = f"differs from an earlier row of the same place ({record[column]})"
                self.problems.add((1, number), f"row {number}", column, message)

    def record_of(self, ref: str) -> dict[str, object]:
        index = int(ref[1:]) - 1  # refs are made in order: N1 is the first record
        return self.node_records[index][1]

    def _node_value(self, field: str, cell: object) -> object:
        if field == "quantity":
            return values.money(cell, decimal_comma=self.decimal_comma)
        if field == "install_year":
            return values.whole(cell)
        if field == "condition":
            return values.grade(cell)
        return values.text(cell)

    def action_record(
        self, number: int, cells: Sequence[object], ref: str
    ) -> tuple[str, dict[str, object]]:
        """The action of a row, as the plan format's record."""
        comma = self.decimal_comma
        found = {
            "title": values.text(self._cell(cells, "title")),
            "kind": values.action_kind(self._cell(cells, "kind")) or KIND_DEFAULT,
            "planned_year": values.whole(self._cell(cells, "year")),
            "estimated_cost": values.money(self._cell(cells, "cost"), decimal_comma=comma),
            "status": values.action_status(self._cell(cells, "status")),
            "interval_years": values.whole(self._cell(cells, "interval"), words=True),
            "completed_on": values.day(self._cell(cells, "completed_on")),
            "actual_cost": values.money(self._cell(cells, "actual_cost"), decimal_comma=comma),
        }
        record = {"node_ref": ref, **{k: v for k, v in found.items() if v is not None}}
        return f"row {number}", record


def data_rows(rows: Rows) -> Iterator[tuple[int, list[object]]]:
    """The rows after the header that are not blank."""
    next(rows, None)
    for number, cells in rows:
        if any(values.text(cell) is not None for cell in cells):
            yield number, cells


def sheet_plan_read(
    source: SheetSource, columns: Sequence[str], problems: ProblemCollector | None = None
) -> tuple[SheetPlan, CountedRecords, list[str]]:
    """The nodes (read whole: the first pass) and the actions (read as they are iterated) of the
    file, with its header's titles. ImportRejected when the mapping does not fit the file."""
    rows = source.rows()  # the first pass reads on from the header
    header = next(rows, (0, []))
    headers = header_titles(header[1])
    if wrong := mapping_problems(columns, headers):
        raise ImportRejected([ImportProblem("mapping", "", message) for message in wrong])
    problems = problems if problems is not None else ColumnProblems(columns, headers)
    plan = SheetPlan(columns, headers, decimal_comma=source.decimal_comma, problems=problems)
    width = len(headers)
    for number, cells in data_rows(chain([header], rows)):
        if any(values.text(cell) is not None for cell in islice(cells, width, None)):
            message = f"has a value right of the header's last column ({width})"
            problems.add((1, number), f"row {number}", "", message)
        found = plan.read(number, cells, make=True)
        plan.actions += bool(found and found[1])
        if len(plan.nodes) > settings.PLAN_MAX_NODES or plan.actions > settings.PLAN_MAX_ACTIONS:
            break  # refused for its size by plan_records_import: nothing more to read

    def actions() -> Iterator[Record]:
        for number, cells in data_rows(source.rows()):
            found = plan.read(number, cells, make=False)
            if found is not None and found[1]:
                yield plan.action_record(number, cells, found[0])

    return plan, CountedRecords(plan.actions, actions), headers


def plan_import_sheet(
    *,
    owner: User,
    organisation: Organisation | None = None,
    content: bytes,
    filename: str,
    columns: Sequence[str],
    name: str | None = None,
    observer: ImportObserver | None = None,
    currency: str | None = None,
    read: Callable[[bytes, str], SheetSource] = sheet_source,
) -> Plan:
    """Imports a plan from one sheet with the mapping `columns` (a field per column, IGNORE for
    one not imported). The plan's name is `name`, else the file's; its currency the file's (a
    currency column, or a currency written with the costs), else `currency`, else the
    organisation's default. Raises ImportRejected with every problem, and then writes nothing."""
    source = read(content, filename)
    plan, action_records, _headers = sheet_plan_read(source, columns)
    plan_fields: dict[str, object] = {}
    if plan.currency is not None:
        given = {"currency": plan.currency}
        plan_fields = plan_fields_read(given, plan.problems, source=plan.currency_where)
    return plan_records_import(
        owner=owner,
        organisation=organisation,
        name=(name or "").strip() or plan_name_from_file(filename),
        node_records=plan.node_records,
        action_records=action_records,
        problems=plan.problems,
        observer=observer,
        plan_fields=plan_fields,
        currency=currency,
    )

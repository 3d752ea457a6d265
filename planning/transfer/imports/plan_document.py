"""The plan import format of docs/design.md "Imports": reading and checking a plan document.

Every import, whatever the file format, ends in `plan_import_document`: it checks the whole
document first and collects every problem, raises `ImportRejected` if there is any, and only
then hands the checked rows to `planning.transfer.imports.write.plan_write` (one transaction, bulk
inserts).

The reader checks what is the file format's own business (fields present, a number where a
number belongs); the field rules (lengths, year ranges, non-negative amounts, choices) are the
models', run through `planning.core.validation.validated`, whose ValidationErrors become the
row-and-field problems, with the same messages the forms and services give.
"""

from __future__ import annotations

import datetime
import json
import sys
import uuid
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import dataclass
from decimal import Decimal

from django.conf import settings
from django.core.exceptions import ValidationError

from accounts.models import User
from organisations.models import Organisation
from organisations.selectors import personal_organisation
from planning.core.validation import plan_size_check
from planning.figures.prices import markups_columns, markups_parse
from planning.models import (
    CENT,
    Action,
    ActionStatus,
    Completion,
    Plan,
    StructureNode,
    plan_currency_default,
    today,
)
from planning.models.plans import markups_validate
from planning.plans.selectors import catalog_codes
from planning.plans.services.actions import action_after_completion
from planning.transfer.imports.bounds import document_bounds_check, document_rows
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.progress import PROGRESS_STEP, ImportObserver
from planning.transfer.imports.records import ProblemCollector, RecordReader, describe
from planning.transfer.imports.write import plan_write
from planning.tree.paths import DEPTH_MAX, DEPTH_MESSAGE

NODE_FIELDS = (
    "ref",
    "parent_ref",
    "name",
    "kind",
    "code",
    "quantity",
    "unit",
    "install_year",
    "address",
    "gross_floor_area_m2",
    "year_built",
    "condition_grade",
    "condition_assessed_on",
)
ACTION_FIELDS = (
    "node_ref",
    "title",
    "kind",
    "planned_year",
    "estimated_cost",
    "status",
    "interval_years",
    "completed_on",
    "actual_cost",
)
# Optional plan fields (docs/design.md "Money"): a plan's JSON export writes them.
PLAN_FIELDS = (
    "description",
    "currency",
    "price_base_year",
    "index_rate_percent",
    "markups",
    "overhead_percent",
    "vat_percent",
    "annual_budget",
)
DOCUMENT_FIELDS = ("name", "nodes", "actions", *PLAN_FIELDS)
# The rows of a table of plan fields (a workbook's sheet "Plan", a CSV pair's plan.csv).
PLAN_TABLE_FIELDS = ("name", *PLAN_FIELDS)
NODE_REQUIRED = ("ref", "name", "kind")
ACTION_REQUIRED = ("node_ref", "title", "kind", "planned_year")
# Fields holding a year or an amount: the CSV reader turns their text into numbers.
YEAR_FIELDS = frozenset(
    {"install_year", "planned_year", "interval_years", "year_built", "condition_grade"}
)
AMOUNT_FIELDS = frozenset({"quantity", "estimated_cost", "gross_floor_area_m2", "actual_cost"})


# One record of the document: where it is (for messages) and its raw key/value pairs.
Record = tuple[str, object]


# slots: a plan at the limits holds 270,000 of these rows at once (docs/design.md "Imports").
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


def _node_read(
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
    }
    grade = reader.year("condition_grade", meaning="a grade from 0 to 3")
    assessed_on = reader.date("condition_assessed_on")
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
        condition_grade=grade,
        condition_assessed_on=assessed_on,
    )


def _action_read(
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
    (docs/design.md "Imports" > "Work done"). A done row becomes a Completion, dated
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


def _tree_check(
    nodes: list[tuple[tuple[int, int], NodeRow]], problems: ProblemCollector
) -> dict[str, NodeRow]:
    """Duplicate refs, parents that do not exist, cycles, a tree deeper than the stored paths
    allow (planning.tree.paths.DEPTH_MAX). Returns the nodes by ref."""
    by_ref: dict[str, NodeRow] = {}
    positions: dict[str, tuple[int, int]] = {}
    for position, node in nodes:
        if node.ref in by_ref:
            first = by_ref[node.ref].row
            message = f'duplicate ref "{node.ref}" (first at {first})'
            problems.add(position, node.row, "ref", message)
        else:
            by_ref[node.ref] = node
            positions[node.ref] = position
    parent_of: dict[str, str] = {}
    for position, node in nodes:
        if node.parent_ref is None or by_ref.get(node.ref) is not node:
            continue
        if node.parent_ref not in by_ref:
            problems.add(
                position, node.row, "parent_ref", f'no node with ref "{node.parent_ref}"', node.ref
            )
        else:
            parent_of[node.ref] = node.parent_ref
    # Walk up from every node; a walk that meets its own path has found a cycle, one that ends
    # gives the depth of every node on it.
    settled: set[str] = set()
    depths: dict[str, int] = {}
    for ref in by_ref:
        path: list[str] = []
        on_path: set[str] = set()
        current: str | None = ref
        while current is not None and current not in settled and current not in on_path:
            path.append(current)
            on_path.add(current)
            current = parent_of.get(current)
        if current is None or current in depths:
            depth = -1 if current is None else depths[current]
            for member in reversed(path):
                depth += 1
                depths[member] = depth
                if depth == DEPTH_MAX + 1:
                    problems.add(
                        positions[member], by_ref[member].row, "parent_ref", DEPTH_MESSAGE, member
                    )
        elif current in on_path:
            cycle = path[path.index(current) :]
            first = min(cycle, key=lambda member: positions[member])
            start = cycle.index(first)
            loop = [*cycle[start:], *cycle[:start], first]
            problems.add(
                positions[first],
                by_ref[first].row,
                "parent_ref",
                "cycle: " + " -> ".join(loop) + " (each arrow points to the parent)",
                first,
            )
        settled.update(path)
    return by_ref


def _codes_check(
    nodes: list[tuple[tuple[int, int], NodeRow]],
    problems: ProblemCollector,
    *,
    organisation: Organisation | None,
) -> dict[str, uuid.UUID]:
    """The codes the nodes name, looked up in the catalog of the plan's organisation (the
    starter codes and its own)."""
    wanted = {node.code for _position, node in nodes if node.code is not None}
    catalog = catalog_codes(organisation_id=organisation.pk if organisation else None)
    found = catalog.filter(code__in=wanted).values_list("code", "id") if wanted else []
    code_ids = dict(found)
    for position, node in nodes:
        if node.code is not None and node.code not in code_ids:
            problems.add(
                position, node.row, "code", f'no code "{node.code}" in the catalog', node.ref
            )
    return code_ids


def _sequence(
    document: Mapping[str, object], field: str, *, required: bool, problems: ProblemCollector
) -> list[object] | None:
    """The list under `field`; None (a problem is listed) when it is not a list."""
    value = document.get(field)
    if value is None:
        if required:
            problems.add((0, 0), "", field, "is required (a list, possibly empty)")
            return None
        return []
    if not isinstance(value, list):
        problems.add((0, 0), "", field, f"must be a list, got {describe(value)}")
        return None
    return value


def plan_fields_read(
    document: object, problems: ProblemCollector, *, source: str = ""
) -> dict[str, object]:
    """The optional plan fields of a document (PLAN_FIELDS) that it gives, checked by the Plan
    model's rules; a bad one is a problem of the document (no row), named by its `source` when
    the fields have a file or sheet of their own ("plan.csv", "sheet Plan")."""
    if not isinstance(document, Mapping):
        return {}
    reader = RecordReader(document, source, (0, 0), problems)
    currency = reader.text("currency")
    values: dict[str, object] = {
        "description": reader.text("description"),
        "currency": currency.strip().upper() if currency else None,  # as the Settings form
        "price_base_year": reader.year("price_base_year"),
        "index_rate_percent": reader.amount("index_rate_percent"),
        "overhead_percent": reader.amount("overhead_percent"),
        "vat_percent": reader.amount("vat_percent"),
        "annual_budget": reader.amount("annual_budget"),
    }
    raw_markups = document.get("markups")
    if raw_markups is not None and raw_markups != "":
        # The list wins over the two older fields: it is what they are derived from.
        try:
            columns = markups_columns(markups_parse(raw_markups))
            markups_validate(columns["markups"])
        except ValueError as error:
            reader.problem("markups", str(error))
        except ValidationError as error:
            reader.problem("markups", " ".join(error.messages))
        else:
            values.update(columns)
    reader.model_rules(Plan, values)
    return {field: value for field, value in values.items() if value is not None}


def import_currency_default(*, organisation: Organisation | None) -> str:
    """The currency of a plan whose file names none, unless the person importing chooses
    another: that of the organisation's most recently created plan, else the
    PLAN_DEFAULT_CURRENCY setting (docs/design.md "Imports" > "Currency"). The upload form
    offers it as its choice."""
    if organisation is not None:
        latest = (
            Plan.objects.filter(organisation=organisation)
            .order_by("-created_at", "-number")
            .values_list("currency", flat=True)
            .first()
        )
        if latest:
            return latest
    return plan_currency_default()


def _currency_chosen(
    currency: str | None, *, organisation: Organisation | None, problems: ProblemCollector
) -> str:
    """The currency of the form or the command (checked by the Plan model's rules, a problem
    without a row), else the organisation's default."""
    if currency is None or not currency.strip():
        return import_currency_default(organisation=organisation)
    chosen = currency.strip().upper()  # as the Settings form
    RecordReader({}, "", (0, 0), problems).model_rules(Plan, {"currency": chosen})
    return chosen


def plan_document_records(
    document: object, *, source: str, problems: ProblemCollector, name: str | None
) -> tuple[str | None, list[Record] | None, list[Record]]:
    """Splits a JSON-shaped document into its plan name, node records (None: unreadable, a
    problem is listed) and action records."""
    if not isinstance(document, Mapping):
        problems.add((0, 0), source, "", f"must be a JSON object, got {describe(document)}")
        return None, None, []
    if name is not None and not name.strip():
        name = None  # a blank name field of a form means "the file's name"
    reader = RecordReader(document, "", (0, 0), problems)
    reader.unknown_fields(DOCUMENT_FIELDS)
    document_name = reader.text("name", required=name is None)
    nodes = _sequence(document, "nodes", required=True, problems=problems)
    actions = _sequence(document, "actions", required=False, problems=problems)
    return (
        name if name is not None else document_name,
        None
        if nodes is None
        else [(f"node {n}", record) for n, record in enumerate(nodes, start=1)],
        [(f"action {n}", record) for n, record in enumerate(actions or [], start=1)],
    )


def plan_records_import(
    *,
    owner: User,
    organisation: Organisation | None = None,
    name: str | None,
    node_records: Collection[Record] | None,
    action_records: Collection[Record],
    problems: ProblemCollector | None = None,
    observer: ImportObserver | None = None,
    plan_fields: Mapping[str, object] | None = None,
    currency: str | None = None,
) -> Plan:
    """Checks every record, then writes the plan, or raises ImportRejected with every problem.
    `plan_fields`: the checked optional plan fields (plan_fields_read). `currency`: the plan's
    currency when the file names none (the upload form's choice, `import_plan --currency`);
    without it, the organisation's default (import_currency_default).

    `problems` may already hold what a file reader found (bad rows of a CSV file); the records
    are still checked so that one run reports everything. `node_records` None means the nodes
    could not be read at all (a bad header, not a list; already a problem): the actions are
    then checked on their own, without a "no node with ref" for every one of them. The
    exception is a plan over the size limits (PLAN_MAX_NODES, PLAN_MAX_ACTIONS): it is refused
    with that problem alone, before the per-row checks, which are what costs on a file that
    large.
    """
    nodes_readable = node_records is not None
    node_records = node_records or []
    try:
        plan_size_check(nodes=len(node_records), actions=len(action_records))
    except ValidationError as error:
        raise ImportRejected(
            [
                ImportProblem("", field, message)
                for field, messages in error.message_dict.items()
                for message in messages
            ]
        ) from None
    problems = problems if problems is not None else ProblemCollector()
    if name is None and not problems:
        problems.add((0, 0), "", "name", "is required")
    if name is not None:
        name = name.strip()
        if not name:
            problems.add((0, 0), "", "name", "is required")
        else:
            RecordReader({}, "", (0, 0), problems).model_rules(Plan, {"name": name})
    observer = observer or ImportObserver()
    total = len(node_records) + len(action_records)
    nodes: list[tuple[tuple[int, int], NodeRow]] = []
    for index, (row, record) in enumerate(node_records):
        node = _node_read(record, row, (1, index), problems)
        if node is not None:
            nodes.append(((1, index), node))
        if index % PROGRESS_STEP == 0:
            observer.checked(index, total)
    actions: list[tuple[tuple[int, int], ActionRow]] = []
    for index, (row, record) in enumerate(action_records):
        action = _action_read(record, row, (2, index), problems)
        if action is not None:
            actions.append(((2, index), action))
        if index % PROGRESS_STEP == 0:
            observer.checked(len(node_records) + index, total)
    observer.checked(total, total)
    # The records are read into rows: let them go before the write. When the caller handed over
    # its only reference (plan_import drops its document), the file's parsed rows are freed here
    # and the write reuses their memory (docs/design.md "Imports" > "Bounds").
    for records in (node_records, action_records):
        if isinstance(records, list):
            records.clear()
    by_ref = _tree_check(nodes, problems)
    # The organisation the plan goes into: its catalog and its default currency.
    home = organisation if organisation is not None else personal_organisation(user=owner)
    code_ids = _codes_check(nodes, problems, organisation=home)
    plan_fields = dict(plan_fields or {})
    if "currency" not in plan_fields or (currency or "").strip():
        # The file's own currency comes first; a chosen one is checked all the same.
        chosen = _currency_chosen(currency, organisation=home, problems=problems)
        plan_fields.setdefault("currency", chosen)
    for position, action in actions:
        if nodes_readable and action.node_ref not in by_ref:
            problems.add(position, action.row, "node_ref", f'no node with ref "{action.node_ref}"')
    if problems or name is None:
        raise ImportRejected(problems.sorted())
    return plan_write(
        owner=owner,
        organisation=organisation,
        name=name,
        nodes=[node for _position, node in nodes],
        actions=[action for _position, action in actions],
        code_ids=code_ids,
        observer=observer,
        plan_fields=plan_fields,
    )


def plan_import_document(
    *,
    owner: User,
    organisation: Organisation | None = None,
    document: object,
    name: str | None = None,
    source: str = "document",
    observer: ImportObserver | None = None,
    currency: str | None = None,
) -> Plan:
    """Imports an already parsed plan document (the JSON format as Python values).

    For callers that build the document themselves (the demo and benchmark commands); it skips
    the file-size limit, which is about uploads.
    """
    problems = ProblemCollector()
    plan_name, node_records, action_records = plan_document_records(
        document, source=source, problems=problems, name=name
    )
    return plan_records_import(
        owner=owner,
        organisation=organisation,
        name=plan_name,
        node_records=node_records,
        action_records=action_records,
        problems=problems,
        observer=observer,
        plan_fields=plan_fields_read(document, problems),
        currency=currency,
    )


def _reject_constant(constant: str) -> object:
    raise ValueError(f"{constant} is not a number JSON allows")


def file_text(content: bytes, filename: str) -> str:
    """The file's text, or ImportRejected when it is too large or not UTF-8."""
    limit = settings.IMPORT_MAX_BYTES
    if len(content) > limit:
        raise ImportRejected(
            [
                ImportProblem(
                    filename, "", f"file too large ({len(content)} bytes; the limit is {limit})"
                )
            ]
        )
    try:
        return content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ImportRejected(
            [ImportProblem(filename, "", f"not UTF-8 text (byte {error.start} is invalid)")]
        ) from None


def document_parse(content: bytes, filename: str) -> object:
    """The JSON document of an uploaded file, or ImportRejected: too large, not UTF-8, beyond
    what a plan within the limits can hold (planning.transfer.imports.bounds, before it is parsed
    whole), or not valid JSON."""
    text = file_text(content, filename)
    document_bounds_check(content, filename)
    try:
        return json.loads(text, parse_float=Decimal, parse_constant=_reject_constant)
    except ValueError as error:  # json.JSONDecodeError is a ValueError
        raise ImportRejected([ImportProblem(filename, "", f"not valid JSON: {error}")]) from None
    except RecursionError:
        problem = ImportProblem(filename, "", "not valid JSON: nested too deeply")
        raise ImportRejected([problem]) from None
    except ArithmeticError:  # decimal.InvalidOperation: an exponent beyond Decimal's range
        problem = ImportProblem(filename, "", "not valid JSON: a number out of range")
        raise ImportRejected([problem]) from None


class CountedRecords(Collection[Record]):
    """Records read only as they are iterated, again for each iteration, whose count is known
    before (a file's rows, counted by a first pass): an import holds each one only while it
    checks it (docs/design.md "Imports" > "Bounds")."""

    def __init__(self, count: int, read: Callable[[], Iterator[Record]]) -> None:
        self.count, self.read = count, read

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Record]:
        return self.read()

    def __contains__(self, item: object) -> bool:
        return any(record == item for record in self)


def _document_rows(content: bytes, table: str, count: int) -> CountedRecords:
    """The rows of a walked document's `table`, read from the file, labelled as
    plan_document_records labels them ("node 3")."""

    def read() -> Iterator[Record]:
        label = table[:-1]
        for n, record in enumerate(document_rows(content, table), start=1):
            yield f"{label} {n}", record

    return CountedRecords(count, read)


def plan_import(
    *,
    owner: User,
    organisation: Organisation | None = None,
    content: bytes,
    filename: str,
    name: str | None = None,
    observer: ImportObserver | None = None,
    currency: str | None = None,
) -> Plan:
    """Imports a plan from a JSON file (docs/design.md "Imports"); `owner` becomes its owner.

    The plan's name is the file's `name` unless `name` is given; its currency the file's
    `currency`, else `currency`, else the organisation's default. Raises ImportRejected with
    every problem found, and then writes nothing. A document the bounds walk could read is
    imported row by row from the file (its outline holds the rest), so a file at the plan
    limits is never built whole; a malformed one is parsed whole to say where it breaks.
    """
    file_text(content, filename)  # too large, not UTF-8: refused before anything is read
    outline = document_bounds_check(content, filename)
    document = document_parse(content, filename) if outline is None else outline.document
    problems = ProblemCollector()
    plan_name, node_records, action_records = plan_document_records(
        document, source=filename, problems=problems, name=name
    )
    plan_fields = plan_fields_read(document, problems)
    rows: tuple[Collection[Record] | None, Collection[Record]] = (node_records, action_records)
    if outline is not None and isinstance(document, Mapping):
        # The outline's lists are empty: their rows come from the file.
        rows = (
            None
            if node_records is None
            else _document_rows(content, "nodes", outline.rows["nodes"]),
            _document_rows(content, "actions", outline.rows["actions"])
            if isinstance(document.get("actions"), list)
            else action_records,
        )
    del document, node_records, action_records  # a parsed document's rows live on in `rows`
    return plan_records_import(
        owner=owner,
        organisation=organisation,
        name=plan_name,
        node_records=rows[0],
        action_records=rows[1],
        problems=problems,
        observer=observer,
        plan_fields=plan_fields,
        currency=currency,
    )

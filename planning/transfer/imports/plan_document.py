"""A plan document checked whole and imported (docs/subsystems/imports.md): every import, whatever
the file format, ends in `plan_records_import`. It reads every record into a row
(planning.transfer.imports.rows), checks the plan as a whole (refs, parents, cycles, depth, the
codes in the organisation's catalog, its name and currency), collects every problem, raises
`ImportRejected` if there is any, and only then hands the checked rows to
`planning.transfer.imports.write.plan_document_write` (one transaction, bulk inserts).

The reader checks what is the file format's own business (fields present, a number where a
number belongs); the field rules (lengths, year ranges, non-negative amounts, choices) are the
models', run through `planning.core.validation.validated`, whose ValidationErrors become the
row-and-field problems, with the same messages the forms and services give.
"""

from __future__ import annotations

import uuid
from collections.abc import Collection, Mapping

from django.core.exceptions import ValidationError

from accounts.models import User
from organisations.models import Organisation
from organisations.selectors import personal_organisation
from planning.core.validation import plan_size_check
from planning.models import Plan
from planning.plans.selectors import catalog_codes
from planning.transfer.imports.columns import DOCUMENT_FIELDS
from planning.transfer.imports.plan_fields import import_currency_chosen, plan_fields_read
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.progress import PROGRESS_STEP, ImportObserver
from planning.transfer.imports.records import (
    CountedRecords,
    ProblemCollector,
    Record,
    RecordReader,
    describe,
)
from planning.transfer.imports.rows import ActionRow, NodeRow, action_row_read, node_row_read
from planning.transfer.imports.write import plan_document_write
from planning.tree.paths import DEPTH_MAX, DEPTH_MESSAGE


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
        node = node_row_read(record, row, (1, index), problems)
        if node is not None:
            nodes.append(((1, index), node))
        if index % PROGRESS_STEP == 0:
            observer.checked(index, total)
    actions: list[tuple[tuple[int, int], ActionRow]] = []
    for index, (row, record) in enumerate(action_records):
        action = action_row_read(record, row, (2, index), problems)
        if action is not None:
            actions.append(((2, index), action))
        if index % PROGRESS_STEP == 0:
            observer.checked(len(node_records) + index, total)
    observer.checked(total, total)
    # The records are read into rows: let them go before the write. When the caller handed over
    # its only reference (plan_import drops its document), the file's parsed rows are freed here
    # and the write reuses their memory (docs/subsystems/import-bounds.md).
    for records in (node_records, action_records):
        if isinstance(records, list):
            records.clear()
        elif isinstance(records, CountedRecords):
            records.close()
    by_ref = _tree_check(nodes, problems)
    # The organisation the plan goes into: its catalog and its default currency.
    home = organisation if organisation is not None else personal_organisation(user=owner)
    code_ids = _codes_check(nodes, problems, organisation=home)
    plan_fields = dict(plan_fields or {})
    if "currency" not in plan_fields or (currency or "").strip():
        # The file's own currency comes first; a chosen one is checked all the same.
        chosen = import_currency_chosen(currency, organisation=home, problems=problems)
        plan_fields.setdefault("currency", chosen)
    for position, action in actions:
        if nodes_readable and action.node_ref not in by_ref:
            problems.add(position, action.row, "node_ref", f'no node with ref "{action.node_ref}"')
    if problems or name is None:
        raise problems.rejected()
    return plan_document_write(
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

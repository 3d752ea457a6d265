"""A plan imported from a JSON file (docs/subsystems/imports.md): its text checked
(planning.transfer.imports.file_text), its size bounded before it is parsed whole
(planning.transfer.imports.bounds), then its records checked and written as every plan document
is (planning.transfer.imports.plan_document). A document the bounds walk could read is imported
row by row from the file; a malformed one is parsed whole to say where it breaks."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterator, Mapping
from decimal import Decimal

from accounts.models import User
from organisations.models import Organisation
from planning.models import Plan
from planning.transfer.imports.bounds import document_bounds_check, document_rows
from planning.transfer.imports.file_text import file_text
from planning.transfer.imports.plan_document import plan_document_records, plan_records_import
from planning.transfer.imports.plan_fields import plan_fields_read
from planning.transfer.imports.problems import ImportProblem, ImportRejected
from planning.transfer.imports.progress import ImportObserver
from planning.transfer.imports.records import CountedRecords, ProblemCollector, Record


def _reject_constant(constant: str) -> object:
    raise ValueError(f"{constant} is not a number JSON allows")


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
    """Imports a plan from a JSON file (docs/subsystems/imports.md); `owner` becomes its owner.

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

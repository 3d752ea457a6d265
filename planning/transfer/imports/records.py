"""The records of a plan document and the reading of one: a `Record` is where it is and its raw
key/value pairs, `CountedRecords` a file's records read only as they are iterated; a
`RecordReader` takes typed fields out of one record's raw values, runs the models' field rules
on them, and notes every problem with its row and field (in file order)."""

from __future__ import annotations

import datetime
import heapq
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from core.text import printable, text_problem
from planning.core.validation import validated
from planning.models import CENT
from planning.transfer.imports.problems import PROBLEMS_KEPT, ImportProblem, ImportRejected

# A number with more digits than this is no year (and is not turned into an int).
YEAR_DIGITS_MAX = 9
# Amounts this large are refused by the models' digit limit; quantize() would fail on them.
QUANTIZE_LIMIT = Decimal(10) ** 20

# One record of the document: where it is (for messages) and its raw key/value pairs.
Record = tuple[str, object]


class CountedRecords(Collection[Record]):
    """Records read only as they are iterated, again for each iteration, whose count is known
    before (a file's rows, counted by a first pass): an import holds each one only while it
    checks it (docs/subsystems/import-bounds.md)."""

    def __init__(
        self,
        count: int,
        read: Callable[[], Iterator[Record]],
        close: Callable[[], None] | None = None,
    ) -> None:
        self.count, self.read, self._close = count, read, close

    def __len__(self) -> int:
        return self.count

    def __iter__(self) -> Iterator[Record]:
        return self.read()

    def close(self) -> None:
        """Lets go of what reading them holds (a workbook and its shared strings); they are not
        read again."""
        self.read = lambda: iter(())
        if self._close is not None:
            self._close()
            self._close = None

    def __contains__(self, item: object) -> bool:
        return any(record == item for record in self)


class ProblemCollector:
    """Problems in the order a reader meets them in the file, whatever pass found them. Only the
    first PROBLEMS_KEPT in that order are kept (the rest counted), so a file with a problem in
    every cell costs no more memory than one with a few hundred."""

    def __init__(self) -> None:
        # The kept problems as a heap whose top is the last in file order: negated positions.
        self._kept: list[tuple[tuple[int, int, int], ImportProblem]] = []
        self._count = 0

    def add(
        self, position: tuple[int, int], row: str, field: str, message: str, ref: str = ""
    ) -> None:
        key = (-position[0], -position[1], -self._count)
        self._count += 1
        if len(self._kept) == PROBLEMS_KEPT and key < self._kept[0][0]:
            return  # after every kept one: counted only
        # A problem may quote the file (a column name, a value): quoted NULs and unpaired
        # surrogates become escapes, so the list can be printed, shown and stored.
        problem = ImportProblem(
            printable(row), printable(field), printable(message), printable(ref)
        )
        if len(self._kept) == PROBLEMS_KEPT:
            heapq.heapreplace(self._kept, (key, problem))
        else:
            heapq.heappush(self._kept, (key, problem))

    def __bool__(self) -> bool:
        return bool(self._count)

    def sorted(self) -> list[ImportProblem]:
        """The kept problems in file order."""
        return [problem for _key, problem in sorted(self._kept, reverse=True)]

    def rejected(self) -> ImportRejected:
        """The refusal that lists them (and counts those not kept)."""
        return ImportRejected(self.sorted(), more=self._count - len(self._kept))


class RecordReader:
    """Reads typed fields out of one record, noting a problem for each bad one."""

    def __init__(
        self,
        record: Mapping[str, object],
        row: str,
        position: tuple[int, int],
        problems: ProblemCollector,
    ) -> None:
        self.record = record
        self.row = row
        self.ref = record_ref(record)
        self.position = position
        self.problems = problems
        self.bad_fields: set[str] = set()

    @property
    def valid(self) -> bool:
        return not self.bad_fields

    def problem(self, field: str, message: str) -> None:
        self.bad_fields.add(field)
        self.problems.add(self.position, self.row, field, message, self.ref)

    def model_rules(self, model: type[models.Model], values: Mapping[str, object]) -> None:
        """The model's rules on the values the record gave, except those already refused."""
        given = {
            field: value
            for field, value in values.items()
            if value is not None and field not in self.bad_fields
        }
        others = [field.name for field in model._meta.concrete_fields if field.name not in given]
        try:
            validated(model(**given), exclude=others)
        except ValidationError as error:
            for field, messages in error.message_dict.items():
                for message in messages:
                    self.problem(field, message)

    def _value(self, field: str, *, required: bool) -> object:
        value = self.record.get(field)
        if isinstance(value, str):
            value = value.strip() or None  # an empty cell or string means "not given"
        if value is None and required:
            self.problem(field, "is required")
        return value

    def text(self, field: str, *, required: bool = False) -> Any:
        value = self._value(field, required=required)
        if value is None:
            return None
        if not isinstance(value, str):
            self.problem(field, f"must be a string, got {describe(value)}")
            return None
        if (problem := text_problem(value)) is not None:
            self.problem(field, problem)
            return None
        return value

    def year(self, field: str, *, required: bool = False, meaning: str = "a year") -> int | None:
        value = self._value(field, required=required)
        if value is None:
            return None
        # A year has a few digits: "2e999999999" would be a billion-digit int, so it is not made.
        if (
            isinstance(value, Decimal)
            and value.is_finite()
            and value.adjusted() < YEAR_DIGITS_MAX
            and value == value.to_integral()
        ):
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problem(field, f"must be a whole number ({meaning}), got {describe(value)}")
            return None
        return value

    def date(self, field: str) -> datetime.date | None:
        """An ISO date (YYYY-MM-DD), as the exports write it."""
        value = self._value(field, required=False)
        if value is None:
            return None
        if isinstance(value, str):
            try:
                return datetime.date.fromisoformat(value)
            except ValueError:
                pass
        self.problem(field, f"must be a date as YYYY-MM-DD, got {describe(value)}")
        return None

    def amount(self, field: str, *, required: bool = False) -> Decimal | None:
        value = self._value(field, required=required)
        if value is None:
            return None
        if isinstance(value, str):  # docs/subsystems/imports.md: a number or decimal string
            try:
                amount = Decimal(value.strip())
            except ArithmeticError:
                self.problem(field, f"must be a number, got {describe(value)}")
                return None
        elif isinstance(value, bool) or not isinstance(value, int | float | Decimal):
            self.problem(field, f"must be a number, got {describe(value)}")
            return None
        else:
            amount = Decimal(str(value)) if isinstance(value, float) else Decimal(value)
        if not amount.is_finite():
            self.problem(field, f"must be a number, got {describe(value)}")
            return None
        # Cents are what the database keeps; a finer figure is rounded, not refused. A figure
        # already in cents is kept as written, so the models' digit limits read it as a form does.
        if abs(amount) < QUANTIZE_LIMIT:
            cents = amount.quantize(CENT, rounding=ROUND_HALF_UP)
            if cents != amount:
                amount = cents
        return amount

    def unknown_fields(self, known: Sequence[str]) -> None:
        for field in self.record:
            if field not in known:
                shown = str(field) if len(str(field)) <= 40 else str(field)[:37] + "..."
                self.problem(shown, f"unknown field (the fields are: {', '.join(known)})")


def record_ref(record: object) -> str:
    """The record's `ref` as a person would look for it in the file ("" when it has none)."""
    ref = record.get("ref") if isinstance(record, Mapping) else None
    if not isinstance(ref, str) or not ref.strip():
        return ""
    ref = ref.strip()
    return ref if len(ref) <= 40 else ref[:39] + "…"


def describe(value: object) -> str:
    if isinstance(value, str):
        shown = value if len(value) <= 40 else value[:37] + "..."
        return f'"{shown}"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float | Decimal):
        return str(value)
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__

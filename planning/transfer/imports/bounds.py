"""Bounds a JSON plan document before it is parsed whole (docs/subsystems/import-bounds.md).

`json.loads` of a hostile 32 MiB file builds what the file describes: 11 million empty objects
took a worker to 2.3 GB before the size limit could refuse them. So the bytes are first walked
once with ijson's C parser, which reports events without building the document (`basic_parse`:
no per-event path strings, which would grow with the depth), and the walk stops at the first
of:
- nesting deeper than DEPTH_MAX_JSON (the format needs four levels: document, list, row, value);
- more rows in `nodes` or `actions` than PLAN_MAX_NODES / PLAN_MAX_ACTIONS;
- a row of more than ROW_VALUES_MAX values (a row has at most 15 fields);
- more than OUTSIDE_VALUES_MAX values outside the two row lists (the plan's own fields are a
  handful), so a big array or object anywhere else is refused at once.
The walk also keeps the document's outline: everything but the rows of `nodes` and `actions`
(a few values, by the bounds above), with those two lists empty. A valid document is then read
row by row (`document_rows`: ijson's items, one row at a time), so a file at the plan limits
is never built whole (docs/subsystems/import-bounds.md).
Malformed JSON is left for `json.loads`, which reports it with its position as before: the two
parsers refuse the same texts (trailing commas, garbage; NaN, which `json.loads` refuses through
`parse_constant` where it stands), so a text ijson stops on early is one `json.loads` stops on
at the same place, before it has built much. Numbers stay exact (no float overflow to stop on).
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Iterator
from dataclasses import dataclass

import ijson
from django.conf import settings
from ijson.common import ObjectBuilder

from planning.core.validation import plan_size_message
from planning.transfer.imports.problems import ImportProblem, ImportRejected

BOM = codecs.BOM_UTF8
DEPTH_MAX_JSON = 8
ROW_VALUES_MAX = 64
OUTSIDE_VALUES_MAX = 1_000
ROW_TABLES = ("nodes", "actions")
_OPENERS = {"start_map", "start_array"}
_CLOSERS = {"end_map", "end_array"}


def _refuse(row: str, message: str) -> ImportRejected:
    return ImportRejected([ImportProblem(row, "", message)])


# An escaped lone surrogate ("\ud800") is valid JSON that json.loads reads (the import then
# lists it as a problem of its field) but ijson cannot decode; for the walk it is any character.
# Python's own limit on the digits of an int made from text; json.loads refuses longer ones too.
INT_DIGITS_MAX = 4_300
# Anchored at the start of a run of digits, so each run is looked at once (no backtracking
# through every position of a long run).
_LONG_DIGITS = re.compile(rb"(?<![0-9])[0-9]{%d}" % (INT_DIGITS_MAX + 1))
_SURROGATE_ESCAPE = re.compile(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")
# A high surrogate escape not followed by a low one, or a low one not after a high one (an
# escaped pair, as json.dumps writes an emoji, is one character and reads the same).
_LONE_SURROGATE = re.compile(
    rb"\\u[dD][89abAB][0-9a-fA-F]{2}(?!\\u[dD][c-fC-F][0-9a-fA-F]{2})"
    rb"|(?<!\\u[dD][89abAB][0-9a-fA-F]{2})\\u[dD][c-fC-F][0-9a-fA-F]{2}"
)


@dataclass(frozen=True)
class Outline:
    """A walked document: its top-level value with the row lists empty, and their rows' count."""

    document: object
    rows: dict[str, int]


def document_bounds_check(content: bytes, filename: str) -> Outline | None:
    """Raises ImportRejected when the document is deeper, longer or bigger than a plan within
    the limits can be; returns its outline otherwise, or None when it is malformed (or holds an
    escaped lone surrogate, which ijson cannot read): `json.loads` then reads it whole."""
    if _LONG_DIGITS.search(content):  # ijson's C parser fails on them (SystemError)
        raise _refuse(
            filename,
            f"holds a run of more than {INT_DIGITS_MAX:,} digits; no number of a plan is that long",
        )
    if _LONE_SURROGATE.search(content):
        # yajl reads an escaped lone surrogate as "?" (or fails on it), json.loads as it is,
        # and the import then lists it as a problem of its field: such a file is parsed whole.
        _walk(_SURROGATE_ESCAPE.sub(rb"\\ufffd", content), filename)
        return None
    try:
        return _walk(content, filename)
    except UnicodeDecodeError:
        _walk(_SURROGATE_ESCAPE.sub(rb"\\ufffd", content), filename)
        return None
    except ArithmeticError:  # a number beyond what Decimal holds (1e9999999999999999999)
        raise _refuse(filename, "not valid JSON: a number out of range") from None


def document_rows(content: bytes, table: str) -> Iterator[object]:
    """The rows of `table` ("nodes" or "actions") of a walked document, one at a time, with
    numbers as json.loads(parse_float=Decimal) gives them."""
    return ijson.items(io.BytesIO(content.removeprefix(BOM)), f"{table}.item", use_float=False)  # type: ignore[no-any-return]


def _walk(content: bytes, filename: str) -> Outline | None:
    limits = {"nodes": settings.PLAN_MAX_NODES, "actions": settings.PLAN_MAX_ACTIONS}
    outline = ObjectBuilder()
    rows = {"nodes": 0, "actions": 0}
    depth = outside = row_values = 0
    top_key: str | None = None
    table: str | None = None  # the row list being walked
    try:
        for event, value in ijson.basic_parse(io.BytesIO(content.removeprefix(BOM))):
            if table is None or depth < 2:
                outline.event(event, value)  # all but the rows of the two lists
            if event in _CLOSERS:
                depth -= 1
                if depth == 1 and table is not None:
                    table = None
                    outline.event(event, value)  # the list's end: it closes empty
                continue
            if event == "map_key":
                if depth == 1:
                    top_key = value
                continue
            if table is not None and depth == 2:  # a row starts
                rows[table] += 1
                row_values = 1
                if rows[table] > limits[table]:
                    raise _refuse(table, plan_size_message(field=table, limit=limits[table]))
            elif table is not None:  # a value inside a row
                row_values += 1
                if row_values > ROW_VALUES_MAX:
                    raise _refuse(
                        f"{table[:-1]} {rows[table]}",
                        f"has more than {ROW_VALUES_MAX} values; a row has at most 15 fields",
                    )
            elif depth == 1 and top_key in ROW_TABLES and event == "start_array":
                table = top_key
            else:
                outside += 1
                if outside > OUTSIDE_VALUES_MAX:
                    raise _refuse(
                        filename,
                        f"holds more than {OUTSIDE_VALUES_MAX:,} values outside its nodes and "
                        "actions; a plan document has a handful (name and settings)",
                    )
            if event in _OPENERS:
                depth += 1
                if depth > DEPTH_MAX_JSON:
                    raise _refuse(
                        filename,
                        f"nested more than {DEPTH_MAX_JSON} levels deep; a plan document needs 4",
                    )
    except ijson.JSONError:
        return None  # json.loads names the error and its position
    return Outline(document=outline.value, rows=rows)

"""Long lists in pieces: `chunked()` (Python 3.12's `itertools.batched`, which 3.11 lacks), used
wherever a list is written or queried a piece at a time, and the size of an id list in one
`IN (...)` that every supported database takes."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice
from typing import TypeVar

T = TypeVar("T")

# Ids per IN list: well inside SQLite's (32,766) and psycopg's (65,535) parameters per statement.
IN_LIST_SIZE = 5000


def chunked(items: Iterable[T], size: int) -> Iterator[list[T]]:
    """`items` in lists of `size`, in order, the last one shorter; any iterable, read lazily."""
    if size < 1:
        raise ValueError(f"chunk size must be at least 1, not {size}")
    iterator = iter(items)
    while chunk := list(islice(iterator, size)):
        yield chunk

"""`chunked()` (core.chunks): pieces of a given size, in order, the last one shorter."""

from __future__ import annotations

import pytest

from core.chunks import chunked


@pytest.mark.parametrize(
    ("items", "size", "expected"),
    [
        ([], 3, []),
        ([1, 2], 3, [[1, 2]]),
        ([1, 2, 3], 3, [[1, 2, 3]]),
        ([1, 2, 3, 4, 5, 6, 7], 3, [[1, 2, 3], [4, 5, 6], [7]]),
        ([1, 2, 3], 1, [[1], [2], [3]]),
    ],
)
def test_chunked_splits_in_order_with_a_shorter_last_piece(
    items: list[int], size: int, expected: list[list[int]]
) -> None:
    assert list(chunked(items, size)) == expected


def test_chunked_reads_any_iterable_lazily() -> None:
    pieces = chunked((n for n in range(10**9)), 2)  # never read to the end

    assert next(pieces) == [0, 1] and next(pieces) == [2, 3]


def test_a_chunk_size_below_one_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        list(chunked([1], 0))

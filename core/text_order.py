"""Natural order of names, as people read them: "Building 2" before "Building 10"."""

from __future__ import annotations

import functools
import re

from django.db.models import F
from django.db.models.functions import Collate

_DIGITS = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[tuple[int, str | int], ...]:
    """Digit runs compare as numbers, the rest case-insensitively."""
    return tuple(
        (1, int(part)) if part.isdigit() else (0, part.casefold())
        for part in _DIGITS.split(name)
        if part
    )


# The database's natural order of names, for lists sorted by name in SQL (docs/subsystems/web-app.md
# "Natural order"): a collation of that name on both databases. PostgreSQL's is
# ICU's root locale with numeric ordering (created by the migration planning 0023); SQLite's
# is `natural_compare`, registered on each new connection (api.apps).
NATURAL_COLLATION = "natural_order"


@functools.lru_cache(maxsize=65_536)
def _cached_key(name: str) -> tuple[tuple[int, str | int], ...]:
    return natural_key(name)


def natural_compare(left: str, right: str) -> int:
    """SQLite's collation: -1, 0 or 1 as `left` comes before, with or after `right`."""
    a, b = _cached_key(left), _cached_key(right)
    return (a > b) - (a < b)


def natural(field: str) -> Collate:
    """`field` ordered naturally in SQL: `order_by(natural("node__name"))`."""
    return Collate(F(field), NATURAL_COLLATION)

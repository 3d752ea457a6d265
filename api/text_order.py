"""Natural order of names, as people read them: "Building 2" before "Building 10"."""

from __future__ import annotations

import re

_DIGITS = re.compile(r"(\d+)")


def natural_key(name: str) -> tuple[tuple[int, str | int], ...]:
    """Digit runs compare as numbers, the rest case-insensitively."""
    return tuple(
        (1, int(part)) if part.isdigit() else (0, part.casefold())
        for part in _DIGITS.split(name)
        if part
    )

"""The public schema is the committed copy, byte for byte (tests/contract/openapi.yaml): a
refactoring never changes the API by accident, and a feature issue that changes it on purpose
shows the change in its diff (scripts/openapi_write.py)."""

from __future__ import annotations

import difflib
from typing import Any

from django.test import Client

from scripts.openapi_write import COMMITTED, SCHEMA_URL

UPDATE_HINT = (
    "The public schema differs from tests/contract/openapi.yaml. If the change is on purpose "
    "(a feature issue), run `make openapi` (and `make clients`) and commit the result."
)


def test_the_live_schema_is_the_committed_copy(db: Any) -> None:
    live = Client().get(SCHEMA_URL).content

    committed = COMMITTED.read_bytes()
    if live != committed:
        diff = difflib.unified_diff(
            committed.decode().splitlines(),
            live.decode().splitlines(),
            "committed",
            "live",
            lineterm="",
            n=2,
        )
        raise AssertionError(UPDATE_HINT + "\n" + "\n".join(list(diff)[:60]))

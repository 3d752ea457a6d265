"""The SDKs' generated parts (clients/python/maintplan/_generated, clients/typescript/schema.d.ts
and maintplan.d.ts) are what the current schema generates: a change of the API that was not
followed by `make clients` fails here (docs/subsystems/schema-and-sdks.md "SDKs"). The
TypeScript parts are compared when Node.js and tests/typescript are there."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.test import Client

from scripts.clients_generate import CLIENTS, generate, typescript_available


def _files(root: Path, part: Path) -> dict[str, bytes]:
    base = root / part
    paths = [base] if base.is_file() else sorted(base.rglob("*"))
    return {
        str(path.relative_to(root)): path.read_bytes()
        for path in paths
        if path.is_file() and "__pycache__" not in path.parts
    }


def test_the_committed_generated_parts_match_the_schema(tmp_path: Path, db: Any) -> None:
    schema = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/json").content

    parts = generate(schema, tmp_path, typescript=typescript_available())

    for part in parts:
        fresh, committed = _files(tmp_path, part), _files(CLIENTS, part)
        stale = sorted(
            name
            for name in fresh.keys() | committed.keys()
            if fresh.get(name) != committed.get(name)
        )
        assert not stale, (
            "the SDKs' generated parts differ from what the current schema generates: "
            f"run `make clients` and commit the result (clients/ differs in {stale[:10]})"
        )

"""Writes the public schema, as `/api/v1/schema/?format=yaml` serves it, to
tests/contract/openapi.yaml (`make openapi`): the committed copy that
tests/contract/test_schema_unchanged.py compares the live schema to, byte for byte.

A change of the public API is made on purpose: the issue that makes it runs `make openapi` (and
`make clients`) and commits both, so the review shows the schema's diff.

    .venv/bin/python -m scripts.openapi_write
"""

from __future__ import annotations

from pathlib import Path

from scripts.clients_generate import schema_served

ROOT = Path(__file__).resolve().parent.parent
COMMITTED = ROOT / "tests" / "contract" / "openapi.yaml"
SCHEMA_URL = "/api/v1/schema/?format=yaml"


def schema_yaml() -> bytes:
    """The schema as the service serves it in YAML."""
    return schema_served(SCHEMA_URL)


def main() -> None:
    COMMITTED.write_bytes(schema_yaml())
    print(f"wrote {COMMITTED.relative_to(ROOT)}")


if __name__ == "__main__":
    main()

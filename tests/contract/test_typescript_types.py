"""TypeScript types generated from the live schema (openapi-typescript, as an integrator would
make them) accept a page holding values the schema does not list yet: the enums and the
recommended action's kinds are open (docs/subsystems/schema-and-sdks.md "Schema"). The check
compiles with `tsc --strict`; a wrongly typed field must still fail to compile, so the types
are not `any`. Needs Node.js and npm: `make test` installs tests/typescript (pinned in its
package-lock.json) when npm is there; without them the test is skipped."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

PACKAGE = Path(settings.BASE_DIR) / "tests" / "typescript"
BIN = PACKAGE / "node_modules" / ".bin"

PAGE = {
    "plan_id": "7b0e0d8e-5c1a-4a47-9d1e-0c1f2b3a4d5e",
    "plan_number": 1,
    "open_count": 2,
    "next_cursor": None,
    "suggestions": [
        {
            "id": "0f4f8a7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
            "suggestion_type": "missing_code",
            "severity": "warning",
            "title": "Assign a classification code to “Roof” in House 3 (Block A)",
            "body": "…",
            "structure_node_id": "5d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a",
            "recommended_action_json": {"action": "assign_code", "prefill_code_ids": []},
            "created_at": "2026-11-25T10:00:00Z",
        },
        {
            "id": "1f4f8a7e-1a2b-4c3d-8e9f-0a1b2c3d4e5f",
            "suggestion_type": "budget_overrun",  # not in the schema's enum (yet)
            "severity": "urgent",
            "title": "A later kind of suggestion",
            "body": "…",
            "structure_node_id": "5d3c2b1a-0f9e-4d8c-b7a6-5f4e3d2c1b0a",
            "recommended_action_json": {"action": "move_actions", "years": [2031, 2032]},
            "created_at": "2026-11-25T10:00:00Z",
        },
    ],
}


def _compile(directory: Path, page: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    (directory / "check.ts").write_text(
        'import type { components } from "./schema";\n'
        'type Page = components["schemas"]["SuggestionList"];\n'
        f"export const page: Page = {json.dumps(page, ensure_ascii=False)};\n"
        "export const kinds: string[] = page.suggestions.map((s) => s.suggestion_type);\n"
    )
    return subprocess.run(
        [str(BIN / "tsc"), "--noEmit", "--strict", "--skipLibCheck", "check.ts"],
        cwd=directory,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.fixture
def types_dir(tmp_path: Path, db: Any) -> Path:
    if shutil.which("node") is None or not (BIN / "tsc").exists():
        pytest.skip("needs Node.js and tests/typescript installed (make test does it with npm)")
    schema = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    (tmp_path / "schema.json").write_bytes(schema.content)
    subprocess.run(
        [str(BIN / "openapi-typescript"), "schema.json", "--output", "schema.d.ts"],
        cwd=tmp_path,
        check=True,
        capture_output=True,
        timeout=120,
    )
    return tmp_path


def test_generated_types_take_a_page_with_values_they_do_not_know(types_dir: Path) -> None:
    compiled = _compile(types_dir, PAGE)

    assert compiled.returncode == 0, compiled.stdout + compiled.stderr


def test_generated_types_still_refuse_a_wrongly_typed_field(types_dir: Path) -> None:
    compiled = _compile(types_dir, {**PAGE, "open_count": "two"})

    assert compiled.returncode != 0
    assert "Type 'string' is not assignable to type 'number'" in compiled.stdout

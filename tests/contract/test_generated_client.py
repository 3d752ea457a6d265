"""A client generated from the live schema (openapi-python-client, as an integrator would make
one) parses a real page of suggestions, and the same page holding values the schema does not
list yet: the enums and the recommended action's kinds are open (docs/design.md "Integrator
API")."""

from __future__ import annotations

import importlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from django.test import Client

GENERATOR = Path(sys.executable).with_name("openapi-python-client")


@pytest.fixture
def generated_client(tmp_path: Path, db: Any) -> Any:
    schema = Client().get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    (tmp_path / "schema.json").write_bytes(schema.content)
    env = {**os.environ, "PATH": f"{GENERATOR.parent}{os.pathsep}{os.environ['PATH']}"}
    subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(tmp_path / "schema.json"),
            "--output-path",
            str(tmp_path / "maintplan_client"),
            "--meta",
            "none",
        ],
        check=True,
        capture_output=True,
        env=env,
        timeout=120,
    )
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("maintplan_client.models.suggestion_list_envelope")
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("maintplan_client")]:
            del sys.modules[name]


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_parses_a_page_with_values_it_does_not_know(
    generated_client: Any, plan_one_key: str
) -> None:
    response = Client().get(
        "/api/v1/platform/plans/1/suggestions",
        {"limit": 5},
        headers={"Authorization": f"Bearer {plan_one_key}"},
    )
    page = response.json()
    parsed = generated_client.SuggestionListEnvelope.from_dict(page)
    assert len(parsed.data.suggestions) == len(page["data"]["suggestions"]) > 0
    known = parsed.data.suggestions[0]
    assert known.suggestion_type.value == page["data"]["suggestions"][0]["suggestion_type"]

    # What a later version of the service may send: new kinds, severities and actions.
    page["data"]["suggestions"][0].update(
        suggestion_type="budget_overrun",
        severity="urgent",
        recommended_action_json={"action": "move_actions", "years": [2031, 2032]},
    )
    newer = generated_client.SuggestionListEnvelope.from_dict(page).data.suggestions[0]
    assert newer.suggestion_type == "budget_overrun"
    assert newer.severity == "urgent"
    assert newer.recommended_action_json.action == "move_actions"

"""A client generated from the live schema (openapi-python-client, as an integrator would make
one) parses a real page of suggestions, and the same page holding values the schema does not
list yet: the enums and the recommended action's kinds are open (docs/subsystems/schema-and-sdks.md
"Schema")."""

from __future__ import annotations

import datetime
import importlib
import os
import subprocess
import sys
import uuid
from decimal import Decimal
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
        recommended_action_json={"action": "split_project", "parts": [2031, 2032]},
    )
    newer = generated_client.SuggestionListEnvelope.from_dict(page).data.suggestions[0]
    assert newer.suggestion_type == "budget_overrun"
    assert newer.severity == "urgent"
    assert newer.recommended_action_json.action == "split_project"


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_parses_a_page_holding_every_suggestion_type(
    generated_client: Any, plan_one_key: str
) -> None:
    from planning.models import Action, Plan, StructureNode, SuggestionType

    this_year = datetime.datetime.now(datetime.UTC).year
    plan = Plan.objects.get(number=1)
    Plan.objects.filter(pk=plan.pk).update(annual_budget=Decimal("60000.00"))
    StructureNode.objects.filter(plan=plan, name="Radiators").update(condition_grade=3)
    Action.objects.filter(plan=plan, title="Roof inspection").update(planned_year=this_year - 3)
    # The example file's years (2027, 2028) are moved to next year and the one after, so the
    # two peaks fall inside the ten years from this year whatever the date.
    Action.objects.filter(plan=plan, title="Replace roof membrane").update(
        estimated_cost=Decimal("90000.00"), planned_year=this_year + 1
    )
    Action.objects.filter(plan=plan, title="Replace south windows").update(
        planned_year=this_year + 2
    )
    roof = Action.objects.get(plan=plan, title="Replace roof membrane")
    Action.objects.filter(plan=plan, title="Replace boilers").update(planned_year=roof.planned_year)

    response = Client().get(
        "/api/v1/platform/plans/1/suggestions",
        headers={"Authorization": f"Bearer {plan_one_key}"},
    )

    page = response.json()
    sent = page["data"]["suggestions"]
    assert {s["suggestion_type"] for s in sent} == set(SuggestionType.values)
    parsed = generated_client.SuggestionListEnvelope.from_dict(page).data.suggestions
    kinds = {(s.suggestion_type.value, type(s.recommended_action_json).__name__) for s in parsed}
    assert kinds >= {
        ("missing_code", "AssignCodeAction"),
        ("deviation", "ReviewAction"),
        ("project_grouping", "CreateProjectAction"),
        ("condition", "PlanAction"),
        ("overdue", "ReviewAction"),
        ("budget_peak", "MoveActions"),
    }
    peaks = {
        s.recommended_action_json.year: s.recommended_action_json
        for s in parsed
        if s.suggestion_type.value == "budget_peak"
    }
    # 90,000 + 24,000 in the roof's year; the windows' 108,300 the year after.
    assert sorted(peaks) == [roof.planned_year, roof.planned_year + 1]
    assert peaks[roof.planned_year].total == "114000.00"
    assert isinstance(peaks[roof.planned_year].candidate_action_ids[0], uuid.UUID)

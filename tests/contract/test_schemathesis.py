"""Schemathesis against the live app, with a real key and a real plan: every check on,
including missing/invalid auth and negative data. Zero failures is the bar."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from integrations.services import api_access_set, api_key_create
from planning.importers import plan_import
from planning.models import PlanNumberCounter
from planning.services import code_catalog_defaults_load

pytestmark = pytest.mark.django_db(transaction=True)
ROOT = Path(__file__).resolve().parents[2]
SCHEMATHESIS = Path(sys.executable).with_name("schemathesis")


def test_schemathesis_finds_no_failure(live_server, user, settings, tmp_path):
    # Generous limits so the run explores instead of collecting 429s (throttling has its tests).
    settings.MAINTPLAN_THROTTLE_RATES = {
        **settings.MAINTPLAN_THROTTLE_RATES,
        "api_key": "100000/minute",
    }
    code_catalog_defaults_load()
    PlanNumberCounter.objects.update_or_create(pk=1, defaults={"last_number": 0})
    plan = plan_import(
        owner=user, content=(ROOT / "docs/examples/plan.json").read_bytes(), filename="plan.json"
    )
    assert plan.number == 1  # the planNumber example in the schema, so real data is exercised
    api_access_set(user=user, enabled=True)
    _api_key, raw_key = api_key_create(user=user, name="schemathesis")

    result = subprocess.run(
        [
            str(SCHEMATHESIS),
            "run",
            f"{live_server.url}/api/v1/schema/",
            "--header",
            f"Authorization: Bearer {raw_key}",
            "--checks",
            "all",
            "--workers",
            "1",
            "--max-examples",
            os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "60"),
            "--seed",
            "20261122",
            "--request-timeout",
            "20",
        ],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )

    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    assert "No issues found" in result.stdout
    assert raw_key not in result.stdout  # schemathesis filters the header in its reports
